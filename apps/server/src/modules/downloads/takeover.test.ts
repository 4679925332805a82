import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCollection, buildPerson, type Person } from '../../../test/support/builders.ts';
import { buildAsset, buildConnection, createPostgresSource } from '../../../test/support/orders-source.ts';
import { describeEachStore } from '../../../test/support/suite.ts';
import { startJob, waitFor } from './test-helpers.ts';
import { runJob } from './worker.ts';

// A job taken over while its first attempt still runs (the sweeper judged that attempt's process dead and queued the
// job again): nothing the first attempt writes after it lost the job may show, and the job ends with the second
// attempt's file and figures. Both attempts are runJob calls made here, as two workers would make them (the server's
// own queue is closed, as in a process shutting down, so it runs no job), and advisory locks this test holds decide
// when each attempt's query returns: the first ends while the second still runs, whatever the machine's speed.

const FIRST_GATE = 4201;
const SECOND_GATE = 4202;
const ORDER_LOCK = 4200;

// The attempt that takes ORDER_LOCK first waits at FIRST_GATE; the other, finding it taken, at SECOND_GATE.
const GATED_SQL =
  'select n from generate_series(1, 50) n where (select count(*) from (select case when ' +
  `pg_try_advisory_xact_lock(${ORDER_LOCK}) then pg_advisory_xact_lock_shared(${FIRST_GATE}) ` +
  `else pg_advisory_xact_lock_shared(${SECOND_GATE}) end) gate) = 1`;

describeEachStore(
  'a download taken over while its first attempt still ran',
  (context) => {
    let owner: Person;
    let reader: Person;
    let holder: pg.Client;
    let source: Awaited<ReturnType<typeof createPostgresSource>>;

    beforeAll(async () => {
      const t = context();
      [owner, reader] = await Promise.all([buildPerson(t), buildPerson(t)]);
      source = await createPostgresSource();
      holder = new pg.Client({ connectionString: source.adminUrl.href });
      await holder.connect();
    });
    afterAll(async () => {
      await holder.end();
      await source.drop();
    });

    /** Until an attempt's query waits at the gate (a lock it asked for and was not granted). */
    async function waitingAt(gate: number) {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const { rows } = await holder.query<{ n: string }>(
          "select count(*) n from pg_locks where locktype = 'advisory' and objid = $1 and not granted",
          [gate],
        );
        if (Number(rows[0]?.n) > 0) return;
        if (Date.now() > deadline) throw new Error(`no query waits at lock ${gate}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    it('leaves the file and the figures to the second attempt, whatever the first writes after', async () => {
      const t = context();
      const collection = await buildCollection(t, owner, { roles: [[reader, 'Reader']] });
      const connection = await buildConnection(owner, collection, { driver: 'postgres', url: source.url });
      const asset = await buildAsset(owner, collection, connection, { sql: GATED_SQL });
      await holder.query('select pg_advisory_lock($1), pg_advisory_lock($2)', [FIRST_GATE, SECOND_GATE]);

      const started = await startJob(reader, { dataAssetUid: asset.uid, format: 'csv' });
      expect(started.state).toBe('Queued');
      const first = runJob(t.app.downloads.deps, started.id, new AbortController().signal);
      await waitingAt(FIRST_GATE);
      // The sweeper's verdict on the first attempt's process: the job goes back to the queue, and another takes it.
      await t.app.db.updateTable('download_jobs').set({ state: 'Queued' }).where('id', '=', started.id).execute();
      const second = runJob(t.app.downloads.deps, started.id, new AbortController().signal);
      await waitingAt(SECOND_GATE);

      // The first attempt's query returns its rows now, and the attempt runs to its end.
      await holder.query('select pg_advisory_unlock($1)', [FIRST_GATE]);
      await first;
      const path = join(t.config.downloads.dir, `${started.id}.csv`);
      expect(existsSync(path)).toBe(false);
      expect(await waitFor(reader, started.id, () => true)).toMatchObject({ state: 'Running', link: null });

      await holder.query('select pg_advisory_unlock($1)', [SECOND_GATE]);
      await second;
      const done = await waitFor(reader, started.id);
      expect(done).toMatchObject({ state: 'Completed', rows: 50 });
      const file = await reader.call('GET', `/api/Download/${started.id}/File`);
      expect(file.statusCode).toBe(200);
      expect(file.body.trim().split('\n')).toHaveLength(51);
      expect(done.size).toBe(file.rawPayload.length);
      const row = await t.app.db
        .selectFrom('download_jobs')
        .select('attempts')
        .where('id', '=', started.id)
        .executeTakeFirstOrThrow();
      expect(row.attempts).toBe(2);
      expect(readdirSync(t.config.downloads.dir).filter((name) => name.startsWith(started.id))).toEqual([
        `${started.id}.csv`,
      ]);
    }, 60_000);
  },
  {
    extend: async (app) => {
      await app.downloads.deps.queue.close(0);
    },
  },
);
