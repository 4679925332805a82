import { DatabaseSync } from 'node:sqlite';
import { expect, it } from 'vitest';
import { dataSourceDetail } from '@datalab/contract/api/data-sources';
import { previewResult } from '@datalab/contract/api/sql-data-sources';
import { validationProblem } from '@datalab/contract/errors';
import { unique } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';
import { createPeople, PEOPLE_SQL, world } from './test-world.ts';
import { loadDefinition } from './definition.service.ts';

// SQL data assets through the API on both stores: create with parameters and transformations in one go, every
// change bumps the version, engine validation as 400 with the errors map, preview through the engine with the
// engine's errors mapped, dependent parameter data, and the callable list.

describeEachStore('SQL data sources', (ctx) => {
  it('creates an asset whole and bumps its version on every change', async () => {
    const { editor, reader, collection, connectionId } = await world(ctx());
    const asset = await createPeople(editor, collection.uid, connectionId);
    expect(asset).toMatchObject({
      version: 1,
      sql: PEOPLE_SQL,
      connectionName: 'Shop',
      parameterCount: 1,
      can: { edit: true },
    });
    expect(asset.transformations[0]?.rules[0]).toMatchObject({
      type: 'mask',
      column: 'email',
      mode: 'full',
      position: 0,
    });
    const version = async () =>
      dataSourceDetail.parse((await reader.call('GET', `/api/DataSource/GetByUid/${asset.uid}`)).json()).version;
    expect(await version()).toBe(1);
    const changes: [method: 'POST' | 'PUT', url: string, body: unknown][] = [
      ['POST', `/api/DataSource/${asset.uid}/Parameters`, { name: 'limit', type: 'integer', min: 1 }],
      [
        'PUT',
        `/api/DataSource/${asset.id}/Parameters`,
        { parameters: [{ name: 'country', type: 'string', list: true }] },
      ],
      ['POST', `/api/DataSource/${asset.uid}/Transformations`, { name: 'Cut', rules: [] }],
      [
        'POST',
        `/api/DataSource/${asset.uid}/Transformations/${asset.transformations[0]?.id}/TransformationRules`,
        { type: 'limit', count: 2 },
      ],
      ['PUT', `/api/DataSource/${asset.uid}/ClientToolConfiguration`, { tool: 'python', settings: { pandas: true } }],
      ['PUT', '/api/SqlDataSource', { uid: asset.uid, connectionId, name: asset.name, sql: PEOPLE_SQL, rowCap: 50 }],
    ];
    let expected = 1;
    for (const [method, url, body] of changes) {
      const response = await editor.call(method, url, body);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
      expect(await version()).toBe((expected += 1));
    }
    const definition = await loadDefinition(ctx().app.db, asset.uid, ctx().app.sqlRuntime);
    expect(definition).toMatchObject({
      version: 7,
      rowCap: 50,
      connection: { driver: 'sqlite', settings: { kind: 'sqlite' } },
    });
    expect(definition?.parameters.map((p) => p.name)).toEqual(['country']);
    expect(definition?.transformations[0]?.rules.map((r) => r.type)).toEqual(['mask', 'limit']);
    expect(definition?.clientTools).toEqual([{ id: expect.any(Number), tool: 'python', settings: { pandas: true } }]);
    expect((await reader.call('PUT', `/api/DataSource/${asset.uid}/Parameters`, { parameters: [] })).statusCode).toBe(
      403,
    );
    expect(await version()).toBe(7);
  });

  it('answers invalid parameters and rules with 400 and the engine’s messages, storing nothing', async () => {
    const { editor, collection, connectionId } = await world(ctx());
    const name = unique('Bad');
    const bad = await editor.call('POST', '/api/SqlDataSource', {
      collectionUid: collection.uid,
      connectionId,
      name,
      sql: 'select 1',
      parameters: [
        { name: 'a', type: 'money' },
        { name: 'a', type: 'string' },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(validationProblem.parse(bad.json()).errors).toMatchObject({
      'parameters.0.type': ['Unsupported type money'],
    });
    const dup = await editor.call('POST', '/api/SqlDataSource', {
      collectionUid: collection.uid,
      connectionId,
      name,
      sql: 'select 1',
      parameters: [
        { name: 'a', type: 'string' },
        { name: 'a', type: 'integer' },
      ],
    });
    expect(validationProblem.parse(dup.json()).errors).toEqual({
      'parameters.1.name': ['Parameter with name a already exists'],
    });
    const rule = await editor.call('POST', '/api/SqlDataSource', {
      collectionUid: collection.uid,
      connectionId,
      name,
      sql: 'select 1',
      transformations: [{ rules: [{ type: 'mask', column: 'email', mode: 'blur' }] }],
    });
    expect(Object.keys(validationProblem.parse(rule.json()).errors)).toEqual(['transformations.0.rules.0.mode']);
    const foreign = await editor.call('POST', '/api/SqlDataSource', {
      collectionUid: collection.uid,
      connectionId: 999999,
      name,
      sql: 'select 1',
    });
    expect(validationProblem.parse(foreign.json()).errors).toEqual({
      connectionId: ['SQL connection with id 999999 does not exist'],
    });
    const stored = await ctx().app.db.selectFrom('data_sources').select('id').where('name', '=', name).execute();
    expect(stored).toEqual([]);
  });

  it('previews unsaved SQL through the engine: values bound, rules applied, engine errors mapped', async () => {
    const { editor, reader, collection, connectionId, file } = await world(ctx());
    const base = {
      collectionUid: collection.uid,
      connectionId,
      sql: PEOPLE_SQL,
      parameters: [{ name: 'country', type: 'string', list: true, required: true }],
    };
    const ok = await editor.call('POST', '/api/SqlDataSource/Preview', {
      ...base,
      values: { country: ['DE', "FR' or '1'='1"] },
      transformations: [{ rules: [{ type: 'mask', column: 'email', mode: 'partial', keepFirst: 3 }] }],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const result = previewResult.parse(ok.json());
    expect(result.rows).toEqual([{ id: 1, email: 'ada************', country: 'DE' }]);
    expect(result.truncated).toBe(false);
    const capped = previewResult.parse(
      (
        await editor.call('POST', '/api/SqlDataSource/Preview', {
          ...base,
          values: { country: ['DE', 'FR', 'JP'] },
          rowCap: 2,
        })
      ).json(),
    );
    expect([capped.rows.length, capped.truncated]).toEqual([2, true]);

    const missing = await editor.call('POST', '/api/SqlDataSource/Preview', base);
    expect(validationProblem.parse(missing.json()).errors).toEqual({ country: ['country is required'] });
    const cases: [sql: string, status: number][] = [
      ['select 1; drop table people', 400],
      ['delete from people', 400],
      ['select * from nowhere', 400],
    ];
    for (const [sql, status] of cases) {
      const response = await editor.call('POST', '/api/SqlDataSource/Preview', { ...base, sql, parameters: [] });
      expect(response.statusCode, sql).toBe(status);
    }
    // The refused statements changed nothing.
    const check = new DatabaseSync(file, { readOnly: true });
    expect(check.prepare('select count(*) as n from people').get()).toEqual({ n: 3 });
    check.close();
    expect(
      (await reader.call('POST', '/api/SqlDataSource/Preview', { ...base, values: { country: ['DE'] } })).statusCode,
    ).toBe(403);
  });

  it('answers dependent parameter data: the country list takes the region', async () => {
    const { editor, reader, collection, connectionId } = await world(ctx());
    const regions = await createPeople(editor, collection.uid, connectionId, {
      sql: 'select id, name from regions',
      parameters: [],
      transformations: [],
    });
    const countries = await createPeople(editor, collection.uid, connectionId, {
      sql: 'select code, name from countries where region_id = :region order by code',
      parameters: [{ name: 'region', type: 'integer', required: true }],
      transformations: [],
    });
    const asset = await createPeople(editor, collection.uid, connectionId, {
      parameters: [
        {
          name: 'region',
          type: 'integer',
          required: true,
          allowedValues: { kind: 'dataSource', dataSourceId: regions.id, valueColumn: 'id', labelColumn: 'name' },
        },
        {
          name: 'country',
          type: 'string',
          list: true,
          required: true,
          allowedValues: {
            kind: 'dataSource',
            dataSourceId: countries.uid,
            valueColumn: 'code',
            labelColumn: 'name',
            dependsOn: ['region'],
          },
        },
      ],
    });
    const [region, country] = asset.parameters;
    const regionOptions = await reader.call('GET', `/api/DataSource/ParameterData/${region?.id}`);
    expect(regionOptions.json()).toEqual({
      options: [
        { value: 1, label: 'Europe' },
        { value: 2, label: 'Asia' },
      ],
    });
    const europe = await reader.call('GET', `/api/DataSource/ParameterData/${country?.id}?region=1`);
    expect(europe.json()).toEqual({
      options: [
        { value: 'DE', label: 'Germany' },
        { value: 'FR', label: 'France' },
      ],
    });
    const wrong = await reader.call('GET', `/api/DataSource/ParameterData/${country?.id}?region=abc`);
    expect(wrong.statusCode).toBe(400);
    expect(validationProblem.parse(wrong.json()).errors).toHaveProperty('region');
    const sources = await reader.call('GET', `/api/DataSource/${asset.uid}/ParameterDataSources`);
    expect(
      sources
        .json<{ name: string }[]>()
        .map((s) => s.name)
        .sort(),
    ).toEqual([countries.name, regions.name].sort());
  });
});
