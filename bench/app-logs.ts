import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { LOG_COUNT_LIMIT } from '@datalab/contract/api/application-logs';
import { FEW_MATCHES } from '../apps/server/src/modules/application-logs/service.ts';
import { DAYS, postgresFill, sqliteFill } from './app-logs-data.ts';
import { adminToken, startDataLab, type DataLabServer } from './lib/datalab.ts';
import { intOption } from './lib/options.ts';
import { removeScratchDir, scratchDir, stop } from './lib/processes.ts';
import { max, median, print, printTable, round } from './lib/stats.ts';
import type { Bench, BenchOptions, BenchResult, Verdict } from './lib/types.ts';

// Target: GetApplicationLogs over 1,000,000 records with a text filter, p99 ≤ 200 ms. On each metadata
// store (PostgreSQL, the scale-out store, carries the verdict; SQLite is reported): a fresh store migrated by the
// real server, 1,000,000 records written with SQL (app-logs-data.ts), the server started again on it, the demo
// administrator signed in through the login form, then every search case called `--calls` times in turn through
// HTTP, each call timed to its last byte. On PostgreSQL, EXPLAIN ANALYZE of the page and count queries shows which
// indexes the planner takes.

const PG_ADMIN_URL = process.env['BENCH_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TARGET_MS = 200;

interface SearchCase {
  name: string;
  query: Record<string, string>;
}

function searchCases(now: Date): SearchCase[] {
  const weekAgo = new Date(now.getTime() - 7 * 86_400_000).toISOString();
  return [
    { name: "common 'answered'", query: { search: 'answered' } },
    { name: "common 'signed in', page 50", query: { search: 'signed in', page: '50' } },
    { name: "medium 'timed out', level warn", query: { search: 'timed out', level: 'warn' } },
    { name: "rare 'deadlock'", query: { search: 'deadlock' } },
    { name: "rare 'deadlock', last 7 days", query: { search: 'deadlock', from: weekAgo } },
    { name: "absent 'zeppelin'", query: { search: 'zeppelin' } },
    { name: "'warehouse-7 ', level error", query: { search: 'warehouse-7 ', level: 'error' } },
  ];
}

interface CaseResult {
  store: string;
  name: string;
  calls: number;
  totalCount: number;
  isCountCapped: boolean;
  p50: number;
  p99: number;
  max: number;
  timings: number[];
}

const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1] ?? 0;

async function timeCase(server: DataLabServer, token: string, store: string, each: SearchCase, calls: number) {
  const url = `${server.baseUrl}/api/ApplicationLog/GetApplicationLogs?${new URLSearchParams(each.query)}`;
  const headers = { authorization: `Bearer ${token}` };
  let body: { totalCount: number; isCountCapped: boolean } | undefined;
  const call = async () => {
    const response = await fetch(url, { headers });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${each.name}: ${response.status} ${text.slice(0, 200)}`);
    return text;
  };
  await call(); // warm-up: the first call of a plan reads the pages into the cache
  const timings: number[] = [];
  for (let i = 0; i < calls; i += 1) {
    const started = performance.now();
    const text = await call();
    timings.push(performance.now() - started);
    body ??= JSON.parse(text) as { totalCount: number; isCountCapped: boolean };
  }
  return {
    store,
    name: each.name,
    calls,
    totalCount: body?.totalCount ?? 0,
    isCountCapped: body?.isCountCapped ?? false,
    p50: round(median(timings), 1),
    p99: round(p99(timings), 1),
    max: round(max(timings), 1),
    timings,
  } satisfies CaseResult;
}

/** The store's one-time setup (migrations, demo seed) by the real server, then the records, then the server again. */
async function prepare(store: 'postgres' | 'sqlite', rows: number, dataDir: string, env: Record<string, string>) {
  const base = { dataDir, logLevel: 'warn', stdout: join(dataDir, 'server.log'), env } as const;
  const first = await startDataLab(base);
  await stop(first.child);
  const start = new Date(Date.now() - DAYS * 86_400_000);
  const filling = performance.now();
  if (store === 'postgres') {
    const client = new pg.Client({ connectionString: env['DATABASE_URL'] });
    await client.connect();
    try {
      await client.query(postgresFill(rows, start));
      await client.query('analyze application_logs');
    } finally {
      await client.end();
    }
  } else {
    const db = new DatabaseSync(join(dataDir, 'datalab.sqlite'));
    try {
      db.exec('begin');
      db.exec(sqliteFill(rows, start));
      db.exec('commit');
      db.exec('analyze');
    } finally {
      db.close();
    }
  }
  print(`  ${store}: ${rows} records written in ${((performance.now() - filling) / 1000).toFixed(1)} s`);
  return startDataLab(base);
}

const LEVELS_FROM: Record<string, string[]> = { warn: ['warn', 'error'], error: ['error'] };

/** The page and count queries of a case as the repository builds them (text, level, page), explained on the data. */
async function explain(databaseUrl: string, each: SearchCase): Promise<string[]> {
  const { search = '', level, page = '1' } = each.query;
  const values: unknown[] = [`%${search.toLowerCase()}%`];
  let where = `lower(l.message) like $1 escape '\\'`;
  if (level) {
    values.push(LEVELS_FROM[level]);
    where += ` and l.level = any($2)`;
  }
  const offset = (Number(page) - 1) * 20;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const pageSql = (extra: string) => `explain (analyze, buffers) select l.id, l.created_at, l.level,
       substr(l.message, 1, 501)${extra} from application_logs l left join users u on u.id = l.user_id
       where ${where} order by l.created_at desc, l.id desc limit 20 offset ${offset}`;
    const countSql = `explain (analyze, buffers) select count(*) from (select l.id from application_logs l
       where ${where} limit ${LOG_COUNT_LIMIT + 1}) as matches`;
    const lines = async (text: string) =>
      (await client.query(text, values)).rows.map((row: Record<string, string>) => row['QUERY PLAN']!);
    // As the service does (application-logs/service.ts): a text expected in few records is read from its matches,
    // and that page query counts them too (a window over the matches); otherwise the page walks the time order and
    // a capped count, by scanning rather than through the trigram bitmap, runs beside it.
    const estimate = await client.query(
      `explain (format json) select 1 from application_logs where lower(message) like $1 escape '\\'`,
      [values[0]],
    );
    const expected = (estimate.rows[0] as { 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] })['QUERY PLAN'][0]!.Plan[
      'Plan Rows'
    ];
    if (expected <= FEW_MATCHES) {
      await client.query('begin');
      await client.query('set local enable_indexscan = off');
      const page = await lines(pageSql(', count(*) over () as match_count'));
      await client.query('rollback');
      return [`-- page and count: ${each.name}, from the matches (${expected} expected)`, ...page];
    }
    await client.query('begin');
    await client.query('set local enable_bitmapscan = off');
    const count = await lines(countSql);
    await client.query('rollback');
    const page = await lines(pageSql(''));
    return [
      `-- page: ${each.name}, in time order (${expected} expected)`,
      ...page,
      `-- count: ${each.name}, up to ${LOG_COUNT_LIMIT + 1}`,
      ...count,
    ];
  } finally {
    await client.end();
  }
}

async function createPostgresDatabase() {
  const name = `bench_app_logs_${randomBytes(4).toString('hex')}`;
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

async function runStore(store: 'postgres' | 'sqlite', options: { rows: number; calls: number; plans: string[] }) {
  const dataDir = scratchDir(`app-logs-${store}`);
  const database = store === 'postgres' ? await createPostgresDatabase() : undefined;
  // Retention off: the records span the whole retention period, and the bench must not race the sweeper. Load
  // shedding off: on SQLite (synchronous) one slow search holds the event loop past the default limit, and the call
  // right after it would be refused (503) instead of timed.
  const env = {
    APP_LOG_RETENTION_DAYS: '3650',
    APP_LOG_RETENTION_MAX_ROWS: '0',
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...(database ? { DATABASE_URL: database.url } : {}),
  };
  let server: DataLabServer | undefined;
  try {
    server = await prepare(store, options.rows, dataDir, env);
    const token = await adminToken(server);
    const results: CaseResult[] = [];
    const cases = searchCases(new Date());
    for (const each of cases) results.push(await timeCase(server, token, store, each, options.calls));
    // Periods are left out of the plans (the page query's `created_at >=` is the only difference).
    if (database) {
      for (const each of cases.filter((one) => !one.query['from']))
        options.plans.push(...(await explain(database.url, each)));
    }
    return results;
  } finally {
    if (server) await stop(server.child);
    await database?.drop();
    removeScratchDir(dataDir);
  }
}

export const appLogs: Bench = {
  name: 'app-logs',
  async run(options: BenchOptions): Promise<BenchResult> {
    const rows = intOption(options, 'rows', 1_000_000, 10_000_000);
    const calls = intOption(options, 'calls', 20, 1000);
    const stores = (options['store'] ?? 'postgres,sqlite').split(',') as ('postgres' | 'sqlite')[];
    const plans: string[] = [];
    const results: CaseResult[] = [];
    for (const store of stores) results.push(...(await runStore(store, { rows, calls, plans })));

    printTable(
      `GetApplicationLogs over ${rows} records, ${calls} calls per case (ms, to the last byte)`,
      ['store', 'case', 'matches', 'p50', 'p99', 'max'],
      results.map((r) => [r.store, r.name, `${r.totalCount}${r.isCountCapped ? '+' : ''}`, r.p50, r.p99, r.max]),
    );
    if (plans.length > 0) print(`\nPostgreSQL plans:\n${plans.join('\n')}`);

    const verdicts: Verdict[] = stores.map((store) => {
      const all = results.filter((r) => r.store === store).flatMap((r) => r.timings);
      const figure = round(p99(all), 1);
      return {
        target: `GetApplicationLogs, ${rows.toLocaleString('en')} records, text filter: p99 ≤ ${TARGET_MS} ms (${store}${store === 'postgres' ? ', verdict' : ', reported'})`,
        measured: `p99 ${figure} ms over ${all.length} calls of every case`,
        pass: store === 'postgres' ? figure <= TARGET_MS : undefined,
      };
    });
    return {
      name: 'app-logs',
      verdicts,
      notes: [
        `${rows} records, ${calls} timed calls per case after one warm-up call, one caller; the verdict is the p99 of every call of every case`,
      ],
      data: { rows, calls, results: results.map(({ timings: _timings, ...rest }) => rest), plans },
    };
  },
};
