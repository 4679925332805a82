import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCollection, buildPerson, type Person } from '../../../test/support/builders.ts';
import { describeApp } from '../../../test/support/suite.ts';
import {
  buildAsset,
  buildConnection,
  createPostgresSource,
  usageOf,
  type CollectionRef,
} from '../../../test/support/orders-source.ts';

// Exports over a real port, where a reply can be cut: a failure after the first bytes breaks the response (never a
// well-formed partial file), and a client that goes away stops the query in the database.

describeApp('calling layer streaming', (context) => {
  let owner: Person;
  let reader: Person;
  let collection: CollectionRef;
  let connection: number;
  let source: Awaited<ReturnType<typeof createPostgresSource>> | undefined;
  let address: string;

  beforeAll(async () => {
    const t = context();
    [owner, reader] = await Promise.all([buildPerson(t), buildPerson(t)]);
    collection = await buildCollection(t, owner, { roles: [[reader, 'Reader']] });
    source = await createPostgresSource();
    connection = await buildConnection(owner, collection, { driver: 'postgres', url: source.url });
    address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => source?.drop());

  /** Waits up to 3 s for no active query to carry the marker; answers how many still do. */
  async function runningWith(marker: string): Promise<number> {
    const client = new pg.Client({ connectionString: source?.adminUrl.href });
    await client.connect();
    try {
      const count = async () =>
        Number(
          (
            await client.query<{ n: string }>(
              "select count(*) as n from pg_stat_activity where state = 'active' and query like $1 and pid <> pg_backend_pid()",
              [`%${marker}%`],
            )
          ).rows[0]?.n,
        );
      const deadline = Date.now() + 3000;
      while ((await count()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      return await count();
    } finally {
      await client.end();
    }
  }

  const exportOf = (uid: string, signal?: AbortSignal) =>
    fetch(`${address}/data/v1/${uid}?format=ndjson`, {
      headers: { authorization: `Bearer ${reader.token}` },
      ...(signal ? { signal } : {}),
    });

  it('cuts an export off when the query fails after streaming began, never ending it as if complete', async () => {
    const asset = await buildAsset(owner, collection, connection, {
      sql: 'select i, case when i = 40000 then 1 / (i - i) else i end as v from generate_series(1, 60000) i',
    });
    const response = await exportOf(asset.uid);
    expect(response.status).toBe(200); // the first rows were out before the failure
    await expect(response.text()).rejects.toThrow();
    const [record] = await usageOf(context(), asset.uid);
    expect(record).toMatchObject({ format: 'ndjson', status: 400 });
  });

  it('stops the query in the database when the client goes away mid-export', async () => {
    const marker = `export_marker_${Date.now()}`;
    const asset = await buildAsset(owner, collection, connection, {
      sql: `select i, pg_sleep(0.0002) as ${marker} from generate_series(1, 1000000) i`,
      timeoutMs: 60_000,
    });
    const controller = new AbortController();
    const response = await exportOf(asset.uid, controller.signal);
    expect(response.status).toBe(200);
    const reader_ = response.body?.getReader();
    expect((await reader_?.read())?.done).toBe(false);
    controller.abort();
    expect(await runningWith(marker)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const [record] = await usageOf(context(), asset.uid);
    expect(record?.status).not.toBe(200);
  });

  it('stops the query of a waiting JSON call when the client goes away', async () => {
    const marker = `json_marker_${Date.now()}`;
    const asset = await buildAsset(owner, collection, connection, {
      sql: `select pg_sleep(20) as ${marker}`,
      timeoutMs: 60_000,
    });
    const controller = new AbortController();
    const call = fetch(`${address}/data/v1/${asset.uid}`, {
      headers: { authorization: `Bearer ${reader.token}` },
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(await runningWith(marker)).toBe(0);
  });
});
