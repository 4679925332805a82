import { expect, it } from 'vitest';
import { previewResult } from '@datalab/contract/api/sql-data-sources';
import type { TestApp } from '../../../test/support/app.ts';
import { buildCollection, buildPerson, unique } from '../../../test/support/builders.ts';
import { collectionSqliteFile } from '../../../test/support/sqlite-files.ts';
import { describeEachStore } from '../../../test/support/suite.ts';

// What happens around an asset's life: a collection goes with its connections and assets, a parameter data
// source in use is kept, and a connection's new settings take effect at once (its pool is replaced).

function sqliteWith(t: TestApp, collectionUid: string, value: string) {
  return collectionSqliteFile(
    t.config.dataDir,
    collectionUid,
    `life/${unique('f')}.sqlite`,
    `create table t (v text); insert into t values ('${value}')`,
  );
}

describeEachStore('data asset lifecycle', (ctx) => {
  async function world() {
    const owner = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), owner);
    const body = {
      collectionUid: collection.uid,
      name: 'Local',
      kind: 'sqlite',
      database: sqliteWith(ctx(), collection.uid, 'first'),
    };
    const connectionId = (await owner.call('POST', '/api/SqlConnection', body)).json<{ id: number }>().id;
    const create = async (extra: Record<string, unknown> = {}) => {
      const asset = {
        collectionUid: collection.uid,
        connectionId,
        name: unique('A'),
        sql: 'select v from t',
        ...extra,
      };
      const response = await owner.call('POST', '/api/SqlDataSource', asset);
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ id: number; uid: string }>();
    };
    return { owner, collection, body, connectionId, create };
  }

  it('deletes a collection with its connections and assets', async () => {
    const { owner, collection, create } = await world();
    const asset = await create({ parameters: [{ name: 'x', type: 'integer' }] });
    const deleted = await owner.call('DELETE', `/api/DataSourceCollection?uid=${collection.uid}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const db = ctx().app.db;
    expect(await db.selectFrom('data_sources').select('id').where('id', '=', asset.id).execute()).toEqual([]);
    expect(await db.selectFrom('parameters').select('id').where('data_source_id', '=', asset.id).execute()).toEqual([]);
  });

  it('keeps an asset that feeds another asset’s parameter (409)', async () => {
    const { owner, create } = await world();
    const source = await create();
    const allowedValues = { kind: 'dataSource', dataSourceId: source.uid, valueColumn: 'v', labelColumn: 'v' };
    await create({ parameters: [{ name: 'v', type: 'string', allowedValues }] });
    const refused = await owner.call('DELETE', `/api/SqlDataSource?uid=${source.uid}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ title: string }>().title).toContain('feeds a parameter of');
  });

  it('uses a connection’s new settings from the next call on', async () => {
    const { owner, collection, body, connectionId } = await world();
    const preview = async () =>
      previewResult.parse(
        (
          await owner.call('POST', '/api/SqlDataSource/Preview', {
            collectionUid: collection.uid,
            connectionId,
            sql: 'select v from t',
          })
        ).json(),
      ).rows;
    expect(await preview()).toEqual([{ v: 'first' }]);
    const { collectionUid: _c, ...settings } = body;
    const changed = await owner.call('PUT', `/api/SqlConnection/${connectionId}`, {
      ...settings,
      database: sqliteWith(ctx(), collection.uid, 'second'),
    });
    expect(changed.statusCode).toBe(200);
    expect(await preview()).toEqual([{ v: 'second' }]);
  });
});
