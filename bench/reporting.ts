import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import {
  backfillUsageRollups,
  createRollupIndexes,
  dropRollupIndexes,
  rollupTable,
} from '../apps/server/src/db/migrations/20261125_0012_usage_rollups.ts';
import { backfillUsageChannels } from '../apps/server/src/db/migrations/20261128_0021_usage_channels.ts';
import { adminToken, startDataLab, type DataLabServer } from './lib/datalab.ts';
import { intOption } from './lib/options.ts';
import { removeScratchDir, scratchDir, stop } from './lib/processes.ts';
import { max, median, print, printTable, round } from './lib/stats.ts';
import type { Bench, BenchOptions, BenchResult } from './lib/types.ts';

// Target: the metrics summaries over 10,000,000 usage records, p99 ≤ 300 ms. A fresh PostgreSQL store
// migrated by the real server; the records written set-based (one INSERT … SELECT … FROM generate_series per
// chunk, the usage_records indexes dropped during the load and built after it): 90 days, 1000 data sources in 100
// collections, 2000 users, skewed as real traffic is (a few users make most calls, each user calls a handful of data
// sources, so a few data sources are far busier); the rollups built by the migration's own set-based backfill
// (secondary indexes built after it), VACUUM ANALYZE; the server started again on it and both summaries called through
// HTTP with the demo administrator's token: all-scope, one collection, one data asset; 30 days by day, 7 days by
// hour, 90 days by week. `--records=N` makes a smaller run (the box is shared: say so with the figure).

const PG_ADMIN_URL = process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TARGET_MS = 300;
const DAYS = 90;
const START = '2026-01-01';
/** Records per INSERT … SELECT: a few chunks keep each statement's memory and WAL bounded. */
const CHUNK = 2_500_000;
/** The bench collection holds the data sources ≡ BUSY_DS (mod 100); BUSY_DS is among the busiest and is the asset. */
const BUSY_DS = 7;
const RECORD_INDEXES = [['usage_records_data_source_index', '(data_source_id, at)']] as const;

const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1] ?? 0;

/**
 * `records` usage records. Users: 1..2000, the first ones far busier (power 3); user 1 stands for collection
 * tokens (no user). Each user calls one of 5 data sources near 7 × their number, so busy users make busy sources.
 * Data source d is in collection 100000 + d % 100, except those ≡ BUSY_DS, which are in the bench collection.
 */
function fillSql(records: number, collectionId: number): string {
  return `
    insert into usage_records (at, user_id, token_id, data_source_id, data_source_uid, collection_id, channel, format,
                               status, duration_ms, row_count, byte_count, cache_hit, request_id)
    select to_char(timestamp '${START}' + r1 * interval '${DAYS} days', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           case when u = 1 then null else u end, null, ds, 'bench-ds-' || ds,
           case when ds % 100 = ${BUSY_DS} then ${collectionId} else 100000 + ds % 100 end,
           'data-api', 'json', case when r2 < 0.02 then 500 when r2 < 0.05 then 404 else 200 end,
           (power(r3, 4) * 5000)::int, (r3 * 1000)::int, (r3 * 100000)::int, case when r2 > 0.7 then 1 else 0 end, null
    from (
      select u, (u * 7 + floor(power(random(), 2) * 5)::int) % 1000 as ds, random() as r1, random() as r2,
             random() as r3
      from (select floor(power(random(), 3) * 2000)::int + 1 as u from generate_series(1, ${records})) users
    ) calls`;
}

async function createDatabase() {
  const name = `bench_reporting_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

/** Records and rollups; answers the bench collection's and asset's uids and the rollup row counts. */
async function fill(url: string, records: number) {
  // One connection: the session settings below hold for the backfill.
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
  });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const at = new Date().toISOString();
    const { rows } = await client.query<{ id: number }>(
      `insert into collections (uid, name, name_key, description, created_at, updated_at)
       values ('bench-reporting', 'Bench reporting', 'bench reporting', '', $1, $1) returning id`,
      [at],
    );
    const collectionId = rows[0]!.id;
    await client.query(
      `insert into data_sources (uid, collection_id, name, kind, created_at, updated_at)
       values ($1, $2, 'Bench busy asset', 'sql', $3, $3)`,
      [`bench-ds-${BUSY_DS}`, collectionId, at],
    );
    let started = performance.now();
    for (const [name] of RECORD_INDEXES) await client.query(`drop index if exists ${name}`);
    for (let done = 0; done < records; done += CHUNK) {
      await client.query(fillSql(Math.min(CHUNK, records - done), collectionId));
    }
    const loaded = seconds(started);
    started = performance.now();
    for (const [name, columns] of RECORD_INDEXES)
      await client.query(`create index ${name} on usage_records ${columns}`);
    print(`  ${records} records written in ${loaded} s, their indexes built in ${seconds(started)} s`);

    started = performance.now();
    await sql`set work_mem = '256MB'`.execute(db);
    await sql`set maintenance_work_mem = '512MB'`.execute(db);
    await dropRollupIndexes(db);
    await backfillUsageRollups(db);
    await backfillUsageChannels(db);
    const backfilled = seconds(started);
    started = performance.now();
    await createRollupIndexes(db);
    // VACUUM as autovacuum would have on long-lived tables: the visibility map lets the summaries' index-only scans
    // skip the heap. ANALYZE for the planner.
    await client.query('vacuum analyze');
    const counts: Record<string, number> = {};
    for (const grain of ['total', 'source', 'user', 'fine'] as const) {
      for (const period of ['hourly', 'daily'] as const) {
        const table = rollupTable(grain, period);
        const result = await client.query<{ n: string }>(`select count(*) as n from ${table}`);
        counts[table] = Number(result.rows[0]!.n);
      }
    }
    print(`  rollups backfilled in ${backfilled} s, indexed and analyzed in ${seconds(started)} s:`);
    print(
      `  ${Object.entries(counts)
        .map(([table, n]) => `${table} ${n}`)
        .join(', ')}`,
    );
    return { collectionUid: 'bench-reporting', assetUid: `bench-ds-${BUSY_DS}`, rollupRows: counts };
  } finally {
    await client.end();
    await db.destroy();
  }
}

interface Case {
  name: string;
  path: string;
  query: Record<string, string>;
}

function cases(collectionUid: string, assetUid: string): Case[] {
  const end = new Date(Date.parse(START) + DAYS * 86_400_000);
  const periods = {
    '30 days by day': { from: new Date(end.getTime() - 30 * 86_400_000), granularity: 'day' },
    '7 days by hour': { from: new Date(end.getTime() - 7 * 86_400_000), granularity: 'hour' },
    '90 days by week': { from: new Date(end.getTime() - 90 * 86_400_000), granularity: 'week' },
  };
  const all: Case[] = [];
  for (const [summary, path] of [
    ['data sources', '/api/Reporting/GetDataSourceMetricsSummaries'],
    ['users', '/api/Reporting/GetUserMetricsSummaries'],
  ] as const) {
    for (const [period, { from, granularity }] of Object.entries(periods)) {
      for (const [scope, extra] of [
        ['all', {}],
        ['one collection', { collectionUid }],
        ['one asset', { dataAssetUid: assetUid }],
      ] as const) {
        all.push({
          name: `${summary}, ${period}, ${scope}`,
          path,
          query: { from: from.toISOString(), to: end.toISOString(), granularity, pageSize: '20', ...extra },
        });
      }
    }
  }
  return all;
}

async function timeCase(server: DataLabServer, token: string, each: Case, calls: number) {
  const url = `${server.baseUrl}${each.path}?${new URLSearchParams(each.query)}`;
  const call = async () => {
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${each.name}: ${response.status} ${text.slice(0, 200)}`);
    return JSON.parse(text) as { totals: { calls: number } };
  };
  const first = await call(); // warm-up
  const timings: number[] = [];
  for (let i = 0; i < calls; i += 1) {
    const started = performance.now();
    await call();
    timings.push(performance.now() - started);
  }
  return {
    name: each.name,
    calls: first.totals.calls,
    p50: median(timings),
    p99: p99(timings),
    max: max(timings),
    timings,
  };
}

export const reporting: Bench = {
  name: 'reporting',
  async run(options: BenchOptions): Promise<BenchResult> {
    const records = intOption(options, 'records', 10_000_000, 50_000_000);
    const calls = intOption(options, 'calls', 20, 1000);
    // --keep-database: leave the filled database for EXPLAIN ANALYZE (its URL is printed); drop it by hand.
    const keep = options['keep-database'] === 'true';
    const dataDir = scratchDir('reporting');
    const database = await createDatabase();
    const base = {
      dataDir,
      logLevel: 'warn',
      stdout: join(dataDir, 'server.log'),
      env: { DATABASE_URL: database.url },
    };
    let server: DataLabServer | undefined;
    try {
      await stop((await startDataLab(base)).child); // migrations and the demo seed, by the real server
      const filled = await fill(database.url, records);
      server = await startDataLab(base);
      const token = await adminToken(server);
      const results = [];
      for (const each of cases(filled.collectionUid, filled.assetUid))
        results.push(await timeCase(server, token, each, calls));
      printTable(
        `Metrics summaries over ${records} usage records, ${calls} calls per case (ms, to the last byte)`,
        ['case', 'calls summed', 'p50', 'p99', 'max'],
        results.map((r) => [r.name, r.calls, round(r.p50, 1), round(r.p99, 1), round(r.max, 1)]),
      );
      const figure = round(p99(results.flatMap((r) => r.timings)), 1);
      const worst = round(Math.max(...results.map((r) => r.p99)), 1);
      return {
        name: 'reporting',
        verdicts: [
          {
            target: `Metrics summaries over ${records.toLocaleString('en')} usage records: p99 ≤ ${TARGET_MS} ms in every case`,
            measured: `p99 ${figure} ms over ${results.length * calls} calls (${results.length} cases); worst case p99 ${worst} ms`,
            pass: worst <= TARGET_MS,
          },
        ],
        notes: [
          `PostgreSQL store; rollup rows: ${Object.entries(filled.rollupRows)
            .map(([t, n]) => `${t} ${n}`)
            .join(', ')}; one caller, ${calls} timed calls per case after a warm-up`,
          'recording cost at 2,000 calls/s: the `recording` bench',
        ],
        data: { records, calls, rollups: filled, results: results.map(({ timings: _t, ...rest }) => rest) },
      };
    } finally {
      if (server) await stop(server.child);
      if (keep) print(`  database kept: ${database.url}`);
      else await database.drop();
      removeScratchDir(dataDir);
    }
  },
};
