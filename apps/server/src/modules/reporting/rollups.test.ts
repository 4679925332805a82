import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { createDatabase, migrateToLatest, type Database } from '../../db/database.ts';
import { migrations } from '../../db/migrations/index.ts';
import { rollupTable, type Grain, type Period } from '../../db/migrations/20261125_0012_usage_rollups.ts';
import type { UsageRecord } from '../../lib/usage-record.ts';
import { unique } from '../../../test/support/builders.ts';
import { createPostgresDatabase } from '../../../test/support/stores.ts';
import { describeEachStore } from '../../../test/support/suite.ts';
import { BUCKET_COLUMNS, DURATION_BOUNDS_MS } from './histogram.ts';

// Every rollup table (4 grains × hourly and daily, and the channel tables: channel × data source) equals a
// recomputation from the records, whether kept by the recorder (its sums kept in memory across record batches and
// written at a flush; keys met again in later writes go through ON CONFLICT; a failed rollup write kept for the
// next) or backfilled by migrations 0012 and 0021 from records already stored. The recomputation here is written apart from all of them.

type Key = string;
interface Expected {
  calls: number;
  errors: number;
  cache_hits: number;
  row_count: number;
  byte_count: number;
  collection_id: number | null;
  counts: number[];
}

/** The grains of migration 0012, and 'channel' (migration 0021: bucket × channel × data source). */
type TestGrain = Grain | 'channel';

const TABLES: [TestGrain, Period][] = (['total', 'source', 'user', 'fine', 'channel'] as const).flatMap((grain) =>
  (['hourly', 'daily'] as const).map((period): [TestGrain, Period] => [grain, period]),
);

const tableOf = (grain: TestGrain, period: Period) =>
  grain === 'channel' ? `usage_channel_${period}` : rollupTable(grain, period);
const hasUid = (grain: TestGrain) => grain === 'source' || grain === 'fine' || grain === 'channel';

function bucketOf(durationMs: number) {
  const index = DURATION_BOUNDS_MS.findIndex((bound) => durationMs <= bound);
  return index === -1 ? DURATION_BOUNDS_MS.length : index;
}

const hour = (at: string) => `${at.slice(0, 13)}:00:00.000Z`;
const day = (at: string) => `${at.slice(0, 10)}T00:00:00.000Z`;

/** A row's key in one grain: 'bucket|uid|user|channel', with the parts the grain lacks left empty. */
function keyOf(grain: TestGrain, bucket: string, uid: string, user: number | string, channel: string) {
  const withUser = grain === 'user' || grain === 'fine';
  return `${bucket}|${hasUid(grain) ? uid : ''}|${withUser ? String(user) : ''}|${grain === 'channel' ? channel : ''}`;
}

/** Recomputes one rollup table from the stored records of the given data sources. */
async function recompute(db: Database, uids: string[], grain: TestGrain, period: Period) {
  const records = await db.selectFrom('usage_records').selectAll().where('data_source_uid', 'in', uids).execute();
  const sums = new Map<Key, Expected>();
  for (const r of records) {
    const key = keyOf(grain, (period === 'hourly' ? hour : day)(r.at), r.data_source_uid, r.user_id ?? 0, r.channel);
    const row = sums.get(key) ?? {
      calls: 0,
      errors: 0,
      cache_hits: 0,
      row_count: 0,
      byte_count: 0,
      collection_id: null,
      counts: DURATION_BOUNDS_MS.map(() => 0).concat(0),
    };
    row.calls += 1;
    row.errors += r.status >= 400 ? 1 : 0;
    row.cache_hits += r.cache_hit;
    row.row_count += Number(r.row_count);
    row.byte_count += Number(r.byte_count);
    row.collection_id = r.collection_id ?? row.collection_id;
    row.counts[bucketOf(r.duration_ms)]! += 1;
    sums.set(key, row);
  }
  // Tables without a data source key hold no collection.
  if (grain === 'total' || grain === 'user') for (const row of sums.values()) row.collection_id = null;
  return sums;
}

/** One stored rollup table as the recomputation's map (the test's records are the only ones in its buckets). */
async function stored(db: Database, uids: string[], grain: TestGrain, period: Period, sunday: string) {
  const table = tableOf(grain, period) as 'usage_hourly';
  // The test's records are the only ones in these days (a Sunday evening to Wednesday, April 2026).
  let query = db
    .selectFrom(table)
    .selectAll()
    .where('bucket', '>=', `${sunday}T00:00:00.000Z`)
    .where('bucket', '<', new Date(Date.parse(sunday) + 4 * 24 * 3600 * 1000).toISOString());
  if (hasUid(grain)) query = query.where('data_source_uid', 'in', uids);
  const rows = (await query.execute()) as (Record<string, unknown> & { bucket: string })[];
  return new Map<Key, Expected>(
    rows.map((r) => [
      keyOf(grain, r.bucket, String(r['data_source_uid'] ?? ''), Number(r['user_key'] ?? 0), String(r['channel'])),
      {
        calls: Number(r['calls']),
        errors: Number(r['errors']),
        cache_hits: Number(r['cache_hits']),
        row_count: Number(r['row_count']),
        byte_count: Number(r['byte_count']),
        collection_id: (r['collection_id'] as number | null | undefined) ?? null,
        counts: BUCKET_COLUMNS.map((column) => Number(r[column])),
      },
    ]),
  );
}

/** `sunday`: the day the records start (randomRecords), so that the tables' rows of those days are theirs. */
async function expectEveryTableToMatch(db: Database, uids: string[], sunday = FIRST_SUNDAY) {
  for (const [grain, period] of TABLES) {
    const [actual, expected] = [
      await stored(db, uids, grain, period, sunday),
      await recompute(db, uids, grain, period),
    ];
    expect({ table: tableOf(grain, period), rows: actual }).toEqual({
      table: tableOf(grain, period),
      rows: expected,
    });
  }
}

/** Each test of one app writes its records in days of its own (the total and user grains name no data source). */
const FIRST_SUNDAY = '2026-04-05';

/**
 * Records spread over 3 days, the data sources (the last never found: no ids) and `users` users (0: a collection
 * token).
 */
function randomRecords(count: number, uids: string[], seed = 7, users = 5, sunday = FIRST_SUNDAY): UsageRecord[] {
  let state = seed;
  const next = (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % n;
  };
  const start = Date.parse(`${sunday}T20:00:00Z`); // a Sunday evening: days and weeks both turn
  return Array.from({ length: count }, () => {
    const source = next(uids.length);
    const user = next(users);
    const found = source !== uids.length - 1;
    return {
      userId: user === 0 ? null : 1000 + user,
      dataSourceId: found ? 500 + source : null,
      dataSourceUid: uids[source]!,
      collectionId: found ? 9 + (source % 3) : null,
      channel: (['download', 'mcp', 'data-api', 'data-api'] as const)[next(4)]!,
      format: 'json',
      // 400 exactly is an error (>= 400, not > 400).
      status: [200, 200, 200, 400, 404, 500][next(6)]!,
      durationMs: [0.4, 1, 2, 3.6, 49, 50, 51, 999, 1500, 45_000, 70_000][next(11)]!,
      rows: next(1000),
      bytes: next(100_000),
      cacheHit: next(3) === 0,
      requestId: null,
      at: new Date(start + next(3 * 24 * 3600) * 1000),
    };
  });
}

const countRecords = async (db: Database, uids: string[]) =>
  Number(
    (
      await db
        .selectFrom('usage_records')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('data_source_uid', 'in', uids)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Calls of these data sources in the fine hourly rollup. */
const rollupCalls = async (db: Database, uids: string[]) =>
  Number(
    (
      await db
        .selectFrom('usage_hourly')
        .select((eb) => eb.fn.sum('calls').as('n'))
        .where('data_source_uid', 'in', uids)
        .executeTakeFirstOrThrow()
    ).n ?? 0,
  );

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeEachStore(
  'usage rollups',
  (ctx, store) => {
    it('equal a recomputation from the records after batches that meet the same keys again', async () => {
      const { app } = ctx();
      const uids = [0, 1, 2, 3].map(() => unique('rollup'));
      const records = randomRecords(1500, uids);
      // Three flushes: the second and third add to keys the first wrote.
      for (const part of [records.slice(0, 700), records.slice(700, 1100), records.slice(1100)]) {
        for (const record of part) app.usage.record(record);
        await app.usage.flush();
      }
      await expectEveryTableToMatch(app.db, uids);
      for (const grain of ['total', 'source', 'user', 'fine', 'channel'] as const) {
        const table = tableOf(grain, 'daily') as 'usage_daily';
        const weeks = await app.db.selectFrom(table).select(['bucket', 'week']).distinct().execute();
        expect(weeks.length).toBeGreaterThan(0);
        for (const { bucket, week } of weeks) {
          const monday = new Date(bucket);
          monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
          expect(week).toBe(monday.toISOString());
        }
      }
    });

    it('keep varied traffic in memory across record batches, written at the flush and equal to the records', async () => {
      const { app } = ctx();
      const uids = Array.from({ length: 20 }, () => unique('varied'));
      const records = randomRecords(1700, uids, 23, 50, '2026-05-03');
      // A full batch (500) is written as soon as the event loop turns; the rollups wait for their own flush.
      for (const [from, to] of [
        [0, 500],
        [500, 1000],
      ] as const) {
        for (const record of records.slice(from, to)) app.usage.record(record);
        await waitFor(async () => (await countRecords(app.db, uids)) === to);
      }
      for (const record of records.slice(1000, 1200)) app.usage.record(record);
      expect(await rollupCalls(app.db, uids)).toBe(0);
      await app.usage.flush();
      expect(await rollupCalls(app.db, uids)).toBe(1200);
      // Later calls add to the keys written (ON CONFLICT), across several batches again.
      for (const record of records.slice(1200)) app.usage.record(record);
      await app.usage.flush();
      await expectEveryTableToMatch(app.db, uids, '2026-05-03');
      expect(await rollupCalls(app.db, uids)).toBe(1700);
    });

    it('keep the sums of a rollup write that failed and write them with the next', async () => {
      const { app } = ctx();
      const uids = Array.from({ length: 6 }, () => unique('retry'));
      const records = randomRecords(900, uids, 31, 12, '2026-05-31');
      for (const record of records.slice(0, 600)) app.usage.record(record);
      // The last table written fails: the whole rollup write is rolled back, and no table counts the records twice.
      await sql`alter table usage_total_daily rename to usage_total_daily_away`.execute(app.db);
      try {
        await app.usage.flush();
        expect(await countRecords(app.db, uids)).toBe(600);
        expect(await rollupCalls(app.db, uids)).toBe(0);
        for (const record of records.slice(600)) app.usage.record(record);
        await app.usage.flush();
      } finally {
        await sql`alter table usage_total_daily_away rename to usage_total_daily`.execute(app.db);
      }
      expect(await rollupCalls(app.db, uids)).toBe(0);
      await app.usage.flush();
      await expectEveryTableToMatch(app.db, uids, '2026-05-31');
      expect(await rollupCalls(app.db, uids)).toBe(900);
    });

    it('are backfilled by the migration from the records already stored', async () => {
      const postgres = store === 'postgres' ? await createPostgresDatabase() : undefined;
      const target: Config['database'] = postgres
        ? { kind: 'postgres', url: postgres.url, poolMax: 2 }
        : { kind: 'sqlite', file: `${ctx().config.dataDir}/backfill.sqlite` };
      const db = createDatabase(target);
      try {
        const before = Object.fromEntries(
          Object.entries(migrations).filter(([name]) => name < '20261125_0012_usage_rollups'),
        );
        await migrateToLatest(db, before);
        const uids = [0, 1, 2, 3].map(() => unique('backfill'));
        const rows = randomRecords(800, uids, 11).map((r) => ({
          at: r.at!.toISOString(),
          user_id: r.userId,
          token_id: null,
          data_source_id: r.dataSourceId,
          data_source_uid: r.dataSourceUid,
          collection_id: r.collectionId,
          channel: r.channel,
          format: r.format,
          status: r.status,
          duration_ms: Math.round(r.durationMs),
          row_count: r.rows,
          byte_count: r.bytes,
          cache_hit: r.cacheHit ? 1 : 0,
          request_id: null,
        }));
        await db.insertInto('usage_records').values(rows).execute();
        expect(await migrateToLatest(db)).toEqual(
          expect.arrayContaining(['20261125_0012_usage_rollups', '20261128_0021_usage_channels']),
        );
        await expectEveryTableToMatch(db, uids);
        const monday = await db
          .selectFrom('usage_user_daily')
          .select('week')
          .where('bucket', '=', '2026-04-05T00:00:00.000Z');
        expect((await monday.executeTakeFirst())?.week).toBe('2026-03-30T00:00:00.000Z');
      } finally {
        await db.destroy();
        await postgres?.drop();
      }
    });
  },
  // Timers far off: the tests say when records and rollups are written.
  { env: { USAGE_FLUSH_MS: '60000', USAGE_ROLLUP_FLUSH_MS: '300000' } },
);
