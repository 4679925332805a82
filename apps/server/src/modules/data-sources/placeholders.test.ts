import { beforeAll, expect, it } from 'vitest';
import { dataSourceDetail, storedParameter } from '@datalab/contract/api/data-sources';
import { validationProblem } from '@datalab/contract/errors';
import { z } from 'zod';
import { unique } from '../../../test/support/builders.ts';
import { describeApp } from '../../../test/support/suite.ts';
import { createPeople, PEOPLE_SQL, world } from './test-world.ts';
import { placeholderUndefined } from './validation.ts';
import { ensureTestReader, postgresConnectionBody } from '../../../test/support/readers.ts';

// Every `:name` the SQL of a saved asset uses has a parameter definition, on every save: the asset calls (POST/PUT
// /api/SqlDataSource) and the parameter calls (POST/PUT .../Parameters, DELETE .../Parameters/{id}). Detection is
// the engine's scanner with the connection's dialect, so quotes, comments and `::casts` are not placeholders.
// Definitions the SQL does not use are fine. A refused save changes nothing (same version, same parameters).

const stringParameter = (name: string) => ({ name, type: 'string', required: false });

// Connections sign in as the test reader: the server refuses a superuser as a data source's account.
beforeAll(ensureTestReader);

describeApp('placeholders and parameter definitions on save', (ctx) => {
  it('refuses to create or change an asset whose SQL uses an undefined :name, under sql', async () => {
    const { editor, reader, collection, connectionId } = await world(ctx());
    const name = unique('Orphans');
    const refused = await editor.call('POST', '/api/SqlDataSource', {
      collectionUid: collection.uid,
      connectionId,
      name,
      sql: 'select * from people where country = :country and score > :minScore and email = :country',
      parameters: [stringParameter('country')],
    });
    expect(refused.statusCode).toBe(400);
    expect(validationProblem.parse(refused.json()).errors).toEqual({ sql: [placeholderUndefined('minScore')] });
    expect(placeholderUndefined('minScore')).toBe('A definition for :minScore, used in the SQL, is required');
    const listed = await reader.call('GET', `/api/DataSource?collectionUid=${collection.uid}`);
    expect(listed.json<{ name: string }[]>().map((asset) => asset.name)).not.toContain(name);

    const asset = await createPeople(editor, collection.uid, connectionId);
    const base = { uid: asset.uid, connectionId, name: asset.name };
    // New SQL with a new :name and the parameters left as they are: refused, nothing changed.
    const changed = await editor.call('PUT', '/api/SqlDataSource', {
      ...base,
      sql: `${PEOPLE_SQL.replace(' order by id', '')} and score > :minScore order by id`,
    });
    expect(changed.statusCode).toBe(400);
    expect(validationProblem.parse(changed.json()).errors).toEqual({ sql: [placeholderUndefined('minScore')] });
    // New parameters that drop one the SQL uses: refused as well.
    const dropped = await editor.call('PUT', '/api/SqlDataSource', { ...base, sql: PEOPLE_SQL, parameters: [] });
    expect(validationProblem.parse(dropped.json()).errors).toEqual({ sql: [placeholderUndefined('country')] });
    const after = dataSourceDetail.parse((await reader.call('GET', `/api/DataSource/GetByUid/${asset.uid}`)).json());
    expect(after).toMatchObject({ version: asset.version, sql: PEOPLE_SQL });
    expect(after.parameters.map((p) => p.name)).toEqual(['country']);

    // The SQL and its definitions in one request: accepted, with an unused definition besides.
    const together = await editor.call('PUT', '/api/SqlDataSource', {
      ...base,
      sql: 'select id from people where country in (:country) and score > :minScore',
      parameters: [
        { name: 'country', type: 'string', list: true, required: true },
        { name: 'minScore', type: 'decimal', required: false },
        stringParameter('unused'),
      ],
    });
    expect(together.statusCode, together.body).toBe(200);
    expect(dataSourceDetail.parse(together.json()).version).toBe(asset.version + 1);
  });

  it('takes quotes, comments and ::casts for what they are, as the run does', async () => {
    const { owner, editor, collection, connectionId } = await world(ctx());
    const sql = `select ':text' as a, "weird:name" as b, [also:name] as c, id -- :comment
      /* :block */ from people where country = :country and cast(score as text) <> 'x::y'`;
    const created = await editor.call('POST', '/api/SqlDataSource', {
      collectionUid: collection.uid,
      connectionId,
      name: unique('Quoted'),
      sql,
      parameters: [stringParameter('country')],
    });
    expect(created.statusCode, created.body).toBe(201);
    // PostgreSQL: `:n::int` is the parameter n cast to int, `now()::date` a cast and nothing else.
    const postgres = await owner.call('POST', '/api/SqlConnection', postgresConnectionBody(collection.uid));
    const cast = await editor.call('POST', '/api/SqlDataSource', {
      collectionUid: collection.uid,
      connectionId: postgres.json<{ id: number }>().id,
      name: unique('Casts'),
      sql: 'select :n::int + 1 as answer, now()::date as today',
      parameters: [{ name: 'n', type: 'integer', required: true }],
    });
    expect(cast.statusCode, cast.body).toBe(201);
    // What the scanner cannot read, the run cannot either: a second statement is refused on save.
    const two = await editor.call('POST', '/api/SqlDataSource', {
      collectionUid: collection.uid,
      connectionId,
      name: unique('Two'),
      sql: 'select 1; select 2',
    });
    expect(two.statusCode).toBe(400);
    expect(validationProblem.parse(two.json()).errors).toEqual({ sql: ['Only one statement is allowed per query'] });
  });

  it('refuses parameter calls that leave a used :name undefined, under parameters', async () => {
    const { editor, reader, collection, connectionId } = await world(ctx());
    const asset = await createPeople(editor, collection.uid, connectionId);
    const version = async () =>
      dataSourceDetail.parse((await reader.call('GET', `/api/DataSource/GetByUid/${asset.uid}`)).json()).version;
    const [country] = asset.parameters;
    if (!country) throw new Error('the asset has its parameter');

    const deleted = await editor.call('DELETE', `/api/DataSource/Parameters/${country.id}`);
    expect(deleted.statusCode).toBe(400);
    expect(validationProblem.parse(deleted.json()).errors).toEqual({ parameters: [placeholderUndefined('country')] });
    const replaced = await editor.call('PUT', `/api/DataSource/${asset.uid}/Parameters`, {
      parameters: [stringParameter('region')],
    });
    expect(replaced.statusCode).toBe(400);
    expect(validationProblem.parse(replaced.json()).errors).toEqual({
      parameters: [placeholderUndefined('country')],
    });
    expect(await version()).toBe(asset.version);

    // Unused definitions come and go freely.
    const added = await editor.call('POST', `/api/DataSource/${asset.uid}/Parameters`, stringParameter('spare'));
    expect(added.statusCode, added.body).toBe(201);
    const spare = z
      .array(storedParameter)
      .parse(added.json())
      .find((p) => p.name === 'spare');
    expect((await editor.call('DELETE', `/api/DataSource/Parameters/${spare?.id}`)).statusCode).toBe(200);
    expect(await version()).toBe(asset.version + 2);

    // Once the SQL no longer uses :country, its definition may go.
    const plain = await editor.call('PUT', '/api/SqlDataSource', {
      uid: asset.uid,
      connectionId,
      name: asset.name,
      sql: 'select id from people',
    });
    expect(plain.statusCode, plain.body).toBe(200);
    expect((await editor.call('DELETE', `/api/DataSource/Parameters/${country.id}`)).statusCode).toBe(200);
  });

  it('refuses to add a parameter to an asset whose stored SQL still lacks another definition', async () => {
    const { editor, collection, connectionId } = await world(ctx());
    const asset = await createPeople(editor, collection.uid, connectionId);
    // An asset saved before the rule existed: its SQL uses :minScore, which nothing defines.
    await ctx()
      .app.db.updateTable('data_sources')
      .set({ sql_text: `select id from people where country in (:country) and score > :minScore` })
      .where('uid', '=', asset.uid)
      .execute();
    const added = await editor.call('POST', `/api/DataSource/${asset.uid}/Parameters`, stringParameter('other'));
    expect(added.statusCode).toBe(400);
    expect(validationProblem.parse(added.json()).errors).toEqual({ parameters: [placeholderUndefined('minScore')] });
    const fixed = await editor.call('POST', `/api/DataSource/${asset.uid}/Parameters`, {
      name: 'minScore',
      type: 'decimal',
    });
    expect(fixed.statusCode, fixed.body).toBe(201);
  });
});
