import { existsSync, readdirSync } from 'node:fs';
import type { Dependents } from '@datalab/contract/api/dependents';
import type { DownloadJob } from '@datalab/contract/api/downloads';
import { expect, it } from 'vitest';
import { assetIdOfKey } from '../../lib/result-cache.ts';
import { buildCollection, buildPerson, unique, type Person } from '../../../test/support/builders.ts';
import { buildAsset, buildConnection, createSqliteSource } from '../../../test/support/orders-source.ts';
import { describeEachStore } from '../../../test/support/suite.ts';

// What goes with a deletion, asked first (the Dependents calls), and what the deletion then really removes: a
// connection an asset uses is refused naming the asset; a data asset takes its download jobs, their files and its
// cached results with it; a collection lists its assets, connections, credentials and live tokens. All through HTTP.

/** A download of the whole asset through the API, polled until it is Completed. */
async function download(person: Person, assetUid: string, format: string): Promise<DownloadJob> {
  const started = await person.call('POST', '/api/Download', { dataAssetUid: assetUid, format });
  if (started.statusCode !== 202) throw new Error(`start: ${started.statusCode} ${started.body}`);
  const { id } = started.json<DownloadJob>();
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const job = (await person.call('GET', `/api/Download/${id}/Status`)).json<DownloadJob>();
    if (job.state === 'Completed') return job;
    if (job.state !== 'Queued' && job.state !== 'Running') throw new Error(`job ${id} ${job.state}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${id} did not complete`);
}

describeEachStore('dependents and what deletions take with them', (ctx) => {
  it('a connection in use names the asset in its Dependents and in the 409; once free it is deleted', async () => {
    const t = ctx();
    const owner = await buildPerson(t);
    const collection = await buildCollection(t, owner);
    const connection = await buildConnection(owner, collection, { driver: 'sqlite', path: createSqliteSource(t) });
    const asset = await buildAsset(owner, collection, connection, { name: unique('Sales'), sql: 'select 1 as n' });
    const assetName = (await owner.call('GET', `/api/DataSource/GetByUid/${asset.uid}`)).json<{ name: string }>().name;

    const before = await owner.call('GET', `/api/SqlConnection/${connection}/Dependents`);
    expect(before.statusCode).toBe(200);
    expect(before.json<Dependents>().blockers).toEqual([
      { kind: 'dataAsset', ref: asset.uid, name: assetName, reason: 'uses this connection' },
    ]);
    const refused = await owner.call('DELETE', `/api/SqlConnection/${connection}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ title: string }>().title).toContain(`is used by 1 data asset(s): ${assetName};`);

    expect((await owner.call('DELETE', `/api/SqlDataSource?uid=${asset.uid}`)).statusCode).toBe(200);
    const after = (await owner.call('GET', `/api/SqlConnection/${connection}/Dependents`)).json<Dependents>();
    expect(after.blockers).toEqual([]);
    expect((await owner.call('DELETE', `/api/SqlConnection/${connection}`)).statusCode).toBe(200);
    expect((await owner.call('GET', `/api/SqlConnection/${connection}/Dependents`)).statusCode).toBe(404);
  });

  it('deleting a data asset removes its download jobs, their files and its cached results, as Dependents said', async () => {
    const t = ctx();
    const owner = await buildPerson(t);
    const collection = await buildCollection(t, owner);
    const connection = await buildConnection(owner, collection, { driver: 'sqlite', path: createSqliteSource(t) });
    const asset = await buildAsset(owner, collection, connection, {
      sql: 'select id, region from orders order by id',
      cacheTtlSeconds: 600,
    });
    expect((await owner.call('GET', `/data/v1/${asset.uid}`)).statusCode).toBe(200);
    const job = await download(owner, asset.uid, 'csv');
    expect(job.state).toBe('Completed');
    const dir = t.config.downloads.dir;
    expect(readdirSync(dir).filter((name) => name.startsWith(job.id))).toEqual([`${job.id}.csv`]);
    const cachedOf = async () =>
      (await t.app.resultCache.keys()).filter((info) => assetIdOfKey(info.key) === asset.id).length;
    expect(await cachedOf()).toBeGreaterThan(0);

    const dependents = (await owner.call('GET', `/api/DataSource/${asset.uid}/Dependents`)).json<Dependents>();
    expect(dependents.blockers).toEqual([]);
    expect(dependents.removes).toEqual([
      { kind: 'download', count: 1, items: [] },
      { kind: 'cachedResult', count: await cachedOf(), items: [] },
    ]);

    expect((await owner.call('DELETE', `/api/SqlDataSource?uid=${asset.uid}`)).statusCode).toBe(200);
    expect(existsSync(`${dir}/${job.id}.csv`)).toBe(false);
    expect(await cachedOf()).toBe(0);
    expect((await owner.call('GET', `/api/Download/${job.id}/Status`)).statusCode).toBe(404);
    const left = await t.app.db.selectFrom('download_jobs').select('id').where('id', '=', job.id).execute();
    expect(left).toEqual([]);
  });

  it('a collection lists its assets, connections and live tokens; its deletion removes its downloads too', async () => {
    const t = ctx();
    const owner = await buildPerson(t);
    const collection = await buildCollection(t, owner);
    const connection = await buildConnection(owner, collection, { driver: 'sqlite', path: createSqliteSource(t) });
    const asset = await buildAsset(owner, collection, connection, { sql: 'select id from orders' });
    const token = await owner.call('POST', '/api/Token', {
      kind: 'collection',
      collectionUid: collection.uid,
      name: unique('Feed'),
    });
    expect(token.statusCode).toBe(201);
    const job = await download(owner, asset.uid, 'json');

    const response = await owner.call('GET', `/api/DataSourceCollection/${collection.uid}/Dependents`);
    expect(response.statusCode).toBe(200);
    const kinds = response.json<Dependents>().removes.map((group) => [group.kind, group.count]);
    expect(kinds).toEqual([
      ['dataAsset', 1],
      ['sqlConnection', 1],
      ['token', 1],
      ['download', 1],
    ]);

    expect((await owner.call('DELETE', `/api/DataSourceCollection?uid=${collection.uid}`)).statusCode).toBe(200);
    expect(existsSync(`${t.config.downloads.dir}/${job.id}.json`)).toBe(false);
  });
});
