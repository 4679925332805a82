import { existsSync, readdirSync } from 'node:fs';
import pg from 'pg';
import type { DownloadJob } from '@datalab/contract/api/downloads';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCollection, buildPerson } from '../../../test/support/builders.ts';
import {
  buildAsset,
  buildConnection,
  createPostgresSource,
  createSqliteSource,
} from '../../../test/support/orders-source.ts';
import { describeApp } from '../../../test/support/suite.ts';
import { buildTokenCaller } from '../../../test/support/token-caller.ts';
import { NOT_CANCELLABLE } from './service.ts';
import { startJob, waitFor } from './test-helpers.ts';

// Cancelling a download job (POST /api/Download/{id}/Cancel): a running job becomes Cancelled, its run stops — the
// database query with it — and no file is left; a finished job is refused saying its state; the call is authorized
// as the job's other routes are (its owner only, on a collection they may still call, narrowed by their token).

const SLEEP_SQL = 'select 1 as n from pg_sleep(30)';

describeApp('cancelling a download', (ctx) => {
  let source: Awaited<ReturnType<typeof createPostgresSource>>;
  beforeAll(async () => {
    source = await createPostgresSource();
  });
  afterAll(async () => {
    await source.drop();
  });

  async function sleepingQueries(): Promise<number> {
    const client = new pg.Client({ connectionString: source.url.toString() });
    await client.connect();
    try {
      const result = await client.query<{ n: string }>(
        "select count(*) as n from pg_stat_activity where query like '%pg_sleep(30)%' and state = 'active' and pid <> pg_backend_pid()",
      );
      return Number(result.rows[0]?.n ?? 0);
    } finally {
      await client.end();
    }
  }

  async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`still not: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('stops a running job and its database query, and leaves no file', async () => {
    const t = ctx();
    const owner = await buildPerson(t);
    const collection = await buildCollection(t, owner);
    const connection = await buildConnection(owner, collection, { driver: 'postgres', url: source.url });
    const asset = await buildAsset(owner, collection, connection, { sql: SLEEP_SQL, timeoutMs: 60_000 });
    const started = await startJob(owner, { dataAssetUid: asset.uid, format: 'csv' });
    await waitFor(owner, started.id, (job) => job.state === 'Running');
    await until(async () => (await sleepingQueries()) === 1, 'the query runs');

    const response = await owner.call('POST', `/api/Download/${started.id}/Cancel`);
    expect(response.statusCode).toBe(200);
    expect(response.json<DownloadJob>()).toMatchObject({ id: started.id, state: 'Cancelled', link: null });
    await until(async () => (await sleepingQueries()) === 0, 'the query is cancelled');
    // The run has noticed: no file and no part file, and the job stays Cancelled.
    await until(
      async () => readdirSync(t.config.downloads.dir).every((name) => !name.startsWith(started.id)),
      'the part file is removed',
    );
    const status = await owner.call('GET', `/api/Download/${started.id}/Status`);
    expect(status.json<DownloadJob>().state).toBe('Cancelled');
    // Cancelling again answers the same.
    expect((await owner.call('POST', `/api/Download/${started.id}/Cancel`)).statusCode).toBe(200);
  });

  it("refuses a finished job saying its state; nobody else's token or person reaches another's job", async () => {
    const t = ctx();
    const owner = await buildPerson(t);
    const other = await buildPerson(t);
    const collection = await buildCollection(t, owner);
    const elsewhere = await buildCollection(t, owner);
    const connection = await buildConnection(owner, collection, { driver: 'sqlite', path: createSqliteSource(t) });
    const asset = await buildAsset(owner, collection, connection, { sql: 'select id from orders' });
    const job = await waitFor(owner, (await startJob(owner, { dataAssetUid: asset.uid, format: 'csv' })).id);
    expect(job.state).toBe('Completed');

    const refused = await owner.call('POST', `/api/Download/${job.id}/Cancel`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ title: string }>().title).toBe(NOT_CANCELLABLE('Completed'));
    expect(existsSync(`${t.config.downloads.dir}/${job.id}.csv`)).toBe(true);

    expect((await other.call('POST', `/api/Download/${job.id}/Cancel`)).statusCode).toBe(404);
    // The owner's own token, narrowed to another collection, does not reach the job.
    const narrowed = await buildTokenCaller(t, owner, {
      kind: 'personal',
      roles: [{ collectionUid: elsewhere.uid, role: 'Reader' }],
    });
    expect((await narrowed.call('POST', `/api/Download/${job.id}/Cancel`)).statusCode).toBe(404);
    expect((await owner.call('GET', `/api/Download/${job.id}/Status`)).json<DownloadJob>().state).toBe('Completed');
  });
});
