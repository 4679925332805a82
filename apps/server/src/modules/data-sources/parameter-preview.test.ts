import { expect, it } from 'vitest';
import { previewParameterData } from '@datalab/contract/api/data-sources';
import { cycleMessage } from '@datalab/contract/parameter-dependencies';
import { validationProblem as problem } from '@datalab/contract/errors';
import { describeApp } from '../../../test/support/suite.ts';
import { unique, type Person } from '../../../test/support/builders.ts';
import { buildTokenCaller } from '../../../test/support/token-caller.ts';
import { createCountries, world } from './test-world.ts';

// POST /api/DataSource/ParameterData/Preview: the asset editor's live dropdown for a parameter not saved yet. It
// runs the chosen parameter data source as the calling layer does, with only the parents named in dependsOn, and is
// an Editor's call: a Reader, or an Editor's token narrowed to Reader, is refused.

const answer = previewParameterData.response;

describeApp('parameter data preview', (ctx) => {
  async function setUp() {
    const w = await world(ctx());
    const create = (name: string, sql: string, parameters: object[] = []) =>
      w.editor.call('POST', '/api/SqlDataSource', {
        collectionUid: w.collection.uid,
        connectionId: w.connectionId,
        name: unique(name),
        sql,
        parameters,
      });
    const countries = await create(
      'Countries',
      'select code, name from countries where region_id = :region order by name',
      [{ name: 'region', type: 'integer', required: true }],
    );
    expect(countries.statusCode, countries.body).toBe(201);
    return { ...w, countriesId: countries.json<{ id: number }>().id };
  }

  it('answers the columns, then the options the chosen columns make with the parents’ values', async () => {
    const w = await setUp();
    const base = { collectionUid: w.collection.uid, dataSourceId: w.countriesId, dependsOn: ['region'] };
    const columnsOnly = await w.editor.call('POST', '/api/DataSource/ParameterData/Preview', {
      ...base,
      values: { region: '1' },
    });
    expect(columnsOnly.statusCode, columnsOnly.body).toBe(200);
    expect(answer.parse(columnsOnly.json())).toMatchObject({ options: [], truncated: false });
    expect(answer.parse(columnsOnly.json()).columns.map((c) => c.name)).toEqual(['code', 'name']);

    const europe = await w.editor.call('POST', '/api/DataSource/ParameterData/Preview', {
      ...base,
      valueColumn: 'code',
      labelColumn: 'name',
      values: { region: '1', unrelated: 'x' },
    });
    expect(answer.parse(europe.json()).options).toEqual([
      { value: 'FR', label: 'France' },
      { value: 'DE', label: 'Germany' },
    ]);
    const asia = await w.editor.call('POST', '/api/DataSource/ParameterData/Preview', {
      ...base,
      valueColumn: 'code',
      values: { region: 2 },
    });
    expect(answer.parse(asia.json()).options).toEqual([{ value: 'JP', label: 'JP' }]);
  });

  it('says what is missing: a parent value not given or not named in dependsOn, an unknown column or asset', async () => {
    const w = await setUp();
    const preview = (body: object) =>
      w.editor.call('POST', '/api/DataSource/ParameterData/Preview', {
        collectionUid: w.collection.uid,
        dataSourceId: w.countriesId,
        ...body,
      });
    // region is given but not named in dependsOn: it does not reach the source, which requires it.
    const notNamed = await preview({ valueColumn: 'code', values: { region: '1' } });
    expect(notNamed.statusCode).toBe(400);
    expect(problem.parse(notNamed.json()).errors).toEqual({ region: ['region is required'] });
    const badColumn = await preview({ dependsOn: ['region'], valueColumn: 'iso', values: { region: '1' } });
    expect(problem.parse(badColumn.json()).errors).toEqual({ valueColumn: ['No column iso found'] });
    const elsewhere = await preview({ dataSourceId: 999_999, values: {} });
    expect(elsewhere.statusCode).toBe(400);
    expect(problem.parse(elsewhere.json()).errors).toEqual({
      dataSourceId: ['Data asset with id 999999 does not exist'],
    });
  });

  it('is an Editor’s call: a Reader, and an Editor’s token narrowed to Reader, are refused', async () => {
    const w = await setUp();
    const body = {
      collectionUid: w.collection.uid,
      dataSourceId: w.countriesId,
      dependsOn: ['region'],
      valueColumn: 'code',
      values: { region: '1' },
    };
    const preview = (caller: Person) => caller.call('POST', '/api/DataSource/ParameterData/Preview', body);
    expect((await preview(w.reader)).statusCode).toBe(403);
    const tokenAs = (role: 'Reader' | 'Editor') =>
      buildTokenCaller(ctx(), w.editor, { kind: 'personal', roles: [{ collectionUid: w.collection.uid, role }] });
    expect((await preview(await tokenAs('Reader'))).statusCode).toBe(403);
    expect((await preview(await tokenAs('Editor'))).statusCode).toBe(200);
  });

  it('refuses a call with a value not allowed, listing the allowed values or the first ten and where the rest are', async () => {
    const w = await setUp();
    const numbers = await w.editor.call('POST', '/api/SqlDataSource', {
      collectionUid: w.collection.uid,
      connectionId: w.connectionId,
      name: unique('Numbers'),
      sql: 'with recursive n(i) as (select 1 union all select i + 1 from n where i < 25) select i from n',
    });
    const consumer = await w.editor.call('POST', '/api/SqlDataSource', {
      collectionUid: w.collection.uid,
      connectionId: w.connectionId,
      name: unique('Picks'),
      sql: 'select :n as n, :region as region, :country as country',
      parameters: [
        { name: 'n', type: 'integer', allowedValues: fromSource(numbers.json<{ id: number }>().id, 'i', 'i') },
        {
          name: 'region',
          type: 'integer',
          allowedValues: {
            kind: 'fixed',
            options: [
              { value: 1, label: 'Europe' },
              { value: 2, label: 'Asia' },
            ],
          },
        },
        {
          name: 'country',
          type: 'string',
          allowedValues: { ...fromSource(w.countriesId, 'code', 'name'), dependsOn: ['region'] },
        },
      ],
    });
    expect(consumer.statusCode, consumer.body).toBe(201);
    const asset = consumer.json<{ uid: string; parameters: { id: number; name: string }[] }>();
    const idOf = (name: string) => asset.parameters.find((p) => p.name === name)?.id;
    const call = (query: string) => w.reader.call('GET', `/data/v1/${asset.uid}?${query}`);

    const fixed = await call('region=3');
    expect(fixed.statusCode).toBe(400);
    expect(problem.parse(fixed.json()).errors).toEqual({
      region: ['Invalid option: 3 is not one of the allowed values of region: 1 (Europe), 2 (Asia)'],
    });
    const many = await call('n=99');
    expect(problem.parse(many.json()).errors).toEqual({
      n: [
        'Invalid option: 99 is not one of the allowed values of n (25; the first 10: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …); ' +
          `GET /api/DataSource/ParameterData/${idOf('n')} lists them all`,
      ],
    });
    const dependent = await call('region=2&country=DE');
    expect(problem.parse(dependent.json()).errors).toEqual({
      country: ['Invalid option: DE is not one of the allowed values of country: JP (Japan)'],
    });
    expect((await call('n=12&region=2&country=JP')).statusCode).toBe(200);
  });
});

describeApp('dependent parameters on save', (ctx) => {
  it('refuses dependencies that loop, in the words the editor greys the choice with', async () => {
    const w = await world(ctx());
    const countries = await createCountries(w.editor, w.collection.uid, w.connectionId);
    const source = fromSource(countries.id, 'code', 'name');
    const looped = await w.editor.call('POST', '/api/SqlDataSource', {
      collectionUid: w.collection.uid,
      connectionId: w.connectionId,
      name: unique('Looped'),
      sql: 'select :a as a, :b as b',
      parameters: [
        { name: 'a', type: 'string', allowedValues: { ...source, dependsOn: ['b'] } },
        { name: 'b', type: 'string', allowedValues: { ...source, dependsOn: ['a'] } },
      ],
    });
    expect(looped.statusCode).toBe(400);
    expect(problem.parse(looped.json()).errors).toEqual({
      'parameters.0.allowedValues.dependsOn': [cycleMessage(['a', 'b', 'a'])],
    });
  });
});

function fromSource(dataSourceId: number, valueColumn: string, labelColumn: string) {
  return { kind: 'dataSource', dataSourceId, valueColumn, labelColumn, dependsOn: [] as string[] };
}
