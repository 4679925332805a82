import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import type { TestApp } from '../../../test/support/app.ts';
import { buildPerson } from '../../../test/support/builders.ts';
import { useOrdersWorld } from '../../../test/support/orders-world.ts';
import { describeApp } from '../../../test/support/suite.ts';
import { buildTokenCaller } from '../../../test/support/token-caller.ts';
import { startJob, waitFor } from './test-helpers.ts';

// What goes wrong between the start of a job and its file: the caller's access goes before the job runs, the file
// outgrows DOWNLOAD_MAX_BYTES, the download folder stops being writable. Each leaves a Failed job with a safe
// message, and no file (nor part file) offered. Also who owns a collection token's jobs: the token.

const MAX_BYTES = 300;

describeApp(
  'downloads that fail',
  (context) => {
    const world = useOrdersWorld(context);

    const orders = (sql = 'select id, region, customer, amount from orders order by id') =>
      world.asset(world.sqliteConnection, { sql });
    const filesOf = (t: TestApp, id: string) =>
      existsSync(t.config.downloads.dir) ? readdirSync(t.config.downloads.dir).filter((n) => n.startsWith(id)) : [];

    it('fails a job whose owner lost access before it ran, and one whose owner was deactivated', async () => {
      const t = context();
      const { owner, collection } = world;
      const member = await buildPerson(t);
      const other = await buildPerson(t);
      await t.app.db
        .insertInto('collection_user_roles')
        .values([
          { collection_id: collection.id, user_id: member.id, role: 'Reader', created_at: new Date().toISOString() },
          { collection_id: collection.id, user_id: other.id, role: 'Reader', created_at: new Date().toISOString() },
        ])
        .execute();
      await t.app.access.bump(t.app.db);
      // One job at a time (DOWNLOAD_CONCURRENCY=1): a slow one holds the queue while the others wait.
      const slow = await world.asset(world.postgresConnection, { sql: 'select pg_sleep(1.5)::text as s' });
      const blocker = await startJob(owner, { dataAssetUid: slow.uid, format: 'csv' });
      const asset = await orders();
      const revoked = await startJob(member, { dataAssetUid: asset.uid, format: 'csv' });
      const deactivated = await startJob(other, { dataAssetUid: asset.uid, format: 'csv' });
      expect(revoked.state).toBe('Queued');
      await t.app.db.deleteFrom('collection_user_roles').where('user_id', '=', member.id).execute();
      await t.app.db.updateTable('users').set({ is_active: 0 }).where('id', '=', other.id).execute();
      await t.app.access.bump(t.app.db);
      expect(await waitFor(owner, blocker.id)).toMatchObject({ state: 'Completed' });
      const revokedJob = await t.app.db
        .selectFrom('download_jobs')
        .selectAll()
        .where('id', '=', revoked.id)
        .executeTakeFirstOrThrow();
      const deadline = Date.now() + 10_000;
      let states: string[] = [];
      while (Date.now() < deadline) {
        const rows = await t.app.db
          .selectFrom('download_jobs')
          .select(['id', 'state', 'message'])
          .where('id', 'in', [revoked.id, deactivated.id])
          .execute();
        states = rows.map((r) => r.state);
        if (states.every((s) => s === 'Failed')) {
          for (const row of rows)
            expect(row.message).toBe('The data asset no longer exists or you may no longer download it');
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(states).toEqual(['Failed', 'Failed']);
      expect(revokedJob.owner_user_id).toBe(member.id);
      expect(filesOf(t, revoked.id)).toEqual([]);
      // The person is no longer a Reader: their job is data of that collection, hidden from them like the rest of it.
      const seen = await member.call('GET', `/api/Download/${revoked.id}/Status`);
      expect(seen.statusCode).toBe(404);
      expect(seen.json()).toMatchObject({ title: `Download with id ${revoked.id} does not exist` });
    });

    it(`fails a file past DOWNLOAD_MAX_BYTES (${MAX_BYTES}) with the limit's message, leaving no file`, async () => {
      const t = context();
      const { reader } = world;
      const asset = await orders();
      const job = await waitFor(reader, (await startJob(reader, { dataAssetUid: asset.uid, format: 'csv' })).id);
      expect(job).toMatchObject({
        state: 'Failed',
        message: `The file exceeds the download size limit of ${MAX_BYTES} bytes`,
        link: null,
        size: null,
      });
      expect(filesOf(t, job.id)).toEqual([]);
      expect((await reader.call('GET', `/api/Download/${job.id}/File`)).statusCode).toBe(404);
      // XLSX pipes its zip into the file: the limit stops it the same way, and nothing escapes as an uncaught error.
      const xlsx = await waitFor(reader, (await startJob(reader, { dataAssetUid: asset.uid, format: 'xlsx' })).id);
      expect(xlsx).toMatchObject({
        state: 'Failed',
        message: `The file exceeds the download size limit of ${MAX_BYTES} bytes`,
      });
      expect(filesOf(t, xlsx.id)).toEqual([]);
      // Below the limit the same asset downloads.
      const small = await orders('select id from orders where id <= 3');
      expect(
        await waitFor(reader, (await startJob(reader, { dataAssetUid: small.uid, format: 'csv' })).id),
      ).toMatchObject({
        state: 'Completed',
        rows: 3,
      });
    });

    it('fails with "The file could not be written" when the folder is no longer writable, and recovers', async () => {
      const t = context();
      const { reader } = world;
      const dir = t.config.downloads.dir;
      const asset = await orders('select id from orders where id = 1');
      rmSync(dir, { recursive: true, force: true });
      writeFileSync(dir, 'not a folder'); // the volume went away and something else took its place
      try {
        const job = await waitFor(reader, (await startJob(reader, { dataAssetUid: asset.uid, format: 'parquet' })).id);
        expect(job).toMatchObject({ state: 'Failed', message: 'The file could not be written', link: null });
      } finally {
        rmSync(dir, { force: true });
        mkdirSync(dir, { recursive: true });
      }
      const retry = await waitFor(reader, (await startJob(reader, { dataAssetUid: asset.uid, format: 'parquet' })).id);
      expect(retry).toMatchObject({ state: 'Completed', rows: 1 });
    });

    it('puts back a job whose process died mid-run, and fails one interrupted twice', async () => {
      const t = context();
      const { reader } = world;
      const asset = await orders('select id from orders where id <= 2');
      const crashed = await startJob(reader, { dataAssetUid: asset.uid, format: 'csv' });
      await waitFor(reader, crashed.id);
      const minuteAgo = new Date(Date.now() - 60_000).toISOString();
      const row = await t.app.db
        .selectFrom('download_jobs')
        .selectAll()
        .where('id', '=', crashed.id)
        .executeTakeFirstOrThrow();
      // Two jobs as a process killed mid-write leaves them: Running, no heartbeat for a minute, a part file on disk.
      const again = {
        ...row,
        dedupe_key: `${row.dedupe_key}-again`,
        size: null,
        row_count: 0,
        state: 'Running' as const,
        heartbeat_at: minuteAgo,
      };
      await t.app.db
        .insertInto('download_jobs')
        .values({ ...again, id: `${row.id}-once`, attempts: 1 })
        .execute();
      await t.app.db
        .insertInto('download_jobs')
        .values({ ...again, id: `${row.id}-twice`, attempts: 2, dedupe_key: `${row.dedupe_key}-twice` })
        .execute();
      writeFileSync(`${t.config.downloads.dir}/${row.id}-once.a1.csv.part`, 'id\r\n1\r\n');
      await t.app.downloads.sweep();
      expect(await waitFor(reader, `${row.id}-once`)).toMatchObject({ state: 'Completed', rows: 2 });
      expect(await waitFor(reader, `${row.id}-twice`)).toMatchObject({
        state: 'Failed',
        message: 'The download was interrupted',
      });
      expect(filesOf(t, `${row.id}-once`)).toEqual([`${row.id}-once.csv`]);
      expect(filesOf(t, `${row.id}-twice`)).toEqual([]);
    });

    it("gives a collection token's jobs to the token: its owner's sign-in does not see them", async () => {
      const t = context();
      const { owner, collection } = world;
      const feed = await buildTokenCaller(t, owner, {
        kind: 'collection',
        name: 'Feed',
        collectionUid: collection.uid,
      });
      const asset = await orders('select id from orders where id <= 2');
      const started = await feed.call('POST', '/api/Download', { dataAssetUid: asset.uid, format: 'ndjson' });
      expect(started.statusCode).toBe(202);
      const id = started.json<{ id: string }>().id;
      const row = await t.app.db.selectFrom('download_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ owner_user_id: null, owner_token_id: row.token_id });
      expect((await owner.call('GET', `/api/Download/${id}/Status`)).statusCode).toBe(404);
      let state = '';
      for (let i = 0; i < 200 && state !== 'Completed'; i += 1) {
        state = (await feed.call('GET', `/api/Download/${id}/Status`)).json<{ state: string }>().state;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(state).toBe('Completed');
      const file = await feed.call('GET', `/api/Download/${id}/File`);
      expect(file.body.trim().split('\n')).toEqual(['{"id":1}', '{"id":2}']);
      expect((await feed.call('GET', '/api/Download')).json()).toMatchObject({ totalCount: 1 });
    });
  },
  { env: { DOWNLOAD_CONCURRENCY: '1', DOWNLOAD_MAX_BYTES: String(MAX_BYTES) } },
);
