import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { ROOT, adminToken, type DataLabServer } from './datalab.ts';

// The calling-layer workload: the peers' 1,000,000-row `orders` in a database of the machine's PostgreSQL, and
// the data assets over it, made through the management API with a signed-in administrator's token.

export interface PgTarget {
  host: string;
  port: number;
  user: string;
  database: string;
}

export const LOAD_SQL = resolve(ROOT, 'bench/peers/orders.sql');

export function psql(target: PgTarget, args: string[], database = target.database) {
  const base = [
    '-h',
    target.host,
    '-p',
    String(target.port),
    '-U',
    target.user,
    '-d',
    database,
    '-X',
    '-v',
    'ON_ERROR_STOP=1',
  ];
  const run = spawnSync('psql', [...base, ...args], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`psql ${args.join(' ')} failed: ${run.stderr || run.error?.message}`);
  return run.stdout;
}

/** Creates the database and loads `orders` (≈ 5 s) unless it already holds the 1,000,000 rows. */
/** The account the bench's connections sign in with: it may only read (Data Lab refuses a superuser). */
export const BENCH_READER = 'datalab_bench_reader';

/** Creates the reader role once and lets it read the bench database's tables. */
export function ensureReader(target: PgTarget): void {
  const known = psql(target, ['-Atc', `select 1 from pg_roles where rolname = '${BENCH_READER}'`], 'postgres');
  if (known.trim() !== '1') psql(target, ['-c', `create role ${BENCH_READER} login`], 'postgres');
  psql(target, ['-c', `grant select on all tables in schema public to ${BENCH_READER}`]);
}

export function ensureOrders(target: PgTarget): string {
  const exists = psql(target, ['-Atc', `select 1 from pg_database where datname = '${target.database}'`], 'postgres');
  if (exists.trim() !== '1') psql(target, ['-c', `create database "${target.database}"`], 'postgres');
  try {
    return loadOrders(target);
  } finally {
    ensureReader(target);
  }
}

function loadOrders(target: PgTarget): string {
  // Two steps: PostgreSQL plans a count over a missing table even in a CASE branch that is never taken.
  const hasTable = psql(target, ['-Atc', "select to_regclass('orders') is not null"]).trim() === 't';
  const count = hasTable ? psql(target, ['-Atc', 'select count(*) from orders']) : '0';
  if (Number(count.trim()) === 1_000_000) return 'already loaded';
  psql(target, ['-q', '-f', LOAD_SQL]);
  return `loaded from ${LOAD_SQL}`;
}

export const Q100_SQL = 'select * from orders where customer_id = :customer_id order by id';
export const EXPORT_SQL = 'select * from orders order by id';

const neutralised = (column: string) =>
  `case when ascii(q.${column}::text) in (61, 43, 45, 64, 9, 13) then '''' || q.${column}::text ` +
  `else q.${column}::text end as ${column}`;
/**
 * What the server's COPY path runs for EXPORT_SQL (engine postgres-copy.ts): text cells that a spreadsheet would
 * run as a formula get a leading quote, in SQL. A second floor: the same work in PostgreSQL, with no server.
 */
export const NEUTRALISED_EXPORT_SQL =
  `select q.id, q.customer_id, ${neutralised('region')}, q.amount, q.created_at, ${neutralised('note')} ` +
  `from (${EXPORT_SQL}) as q limit 1000000`;

export interface CallingAssets {
  cacheOff: string;
  cacheOn: string;
  exportPlain: string;
  exportMasked: string;
}

async function call(
  server: DataLabServer,
  token: string,
  path: string,
  body: unknown,
): Promise<{ id: number; uid: string }> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as { id: number; uid: string };
}

/** A collection, a PostgreSQL connection (pool of 10) and `count` Q100 assets with the cache off (bench recording). */
export async function createQ100Assets(
  server: DataLabServer,
  target: PgTarget,
  count: number,
  /** More fields of each asset's body (the MCP bench makes them available to AI agents). */
  extra: Record<string, unknown> = {},
): Promise<{ collectionUid: string; uids: string[] }> {
  ensureReader(target);
  const token = await adminToken(server);
  const collection = await call(server, token, '/api/DataSourceCollection', { name: 'Bench Q100', description: '' });
  const connection = await call(server, token, '/api/SqlConnection', {
    collectionUid: collection.uid,
    name: 'bench orders',
    kind: 'postgres',
    host: target.host,
    port: target.port,
    database: target.database,
    username: BENCH_READER,
    poolMax: 10,
    acquireTimeoutMs: 10_000,
  });
  const uids: string[] = [];
  for (let i = 1; i <= count; i += 1) {
    const asset = await call(server, token, '/api/SqlDataSource', {
      collectionUid: collection.uid,
      connectionId: connection.id,
      name: `Q100 cache off ${i}`,
      rowCap: 1000,
      timeoutMs: 30_000,
      sql: Q100_SQL,
      parameters: [{ name: 'customer_id', type: 'integer', required: true }],
      cacheTtlSeconds: 0,
      ...extra,
    });
    uids.push(asset.uid);
  }
  return { collectionUid: collection.uid, uids };
}

/** A collection, a PostgreSQL connection (pool of 10, as the bare route) and the four assets of the bench. */
export async function createAssets(
  server: DataLabServer,
  target: PgTarget,
  cacheTtlSeconds: number,
): Promise<CallingAssets> {
  ensureReader(target);
  const token = await adminToken(server);
  const collection = await call(server, token, '/api/DataSourceCollection', { name: 'Bench orders', description: '' });
  const connection = await call(server, token, '/api/SqlConnection', {
    collectionUid: collection.uid,
    name: 'bench orders',
    kind: 'postgres',
    host: target.host,
    port: target.port,
    database: target.database,
    username: BENCH_READER,
    poolMax: 10,
    acquireTimeoutMs: 10_000,
  });
  const asset = async (name: string, extra: Record<string, unknown>) =>
    (
      await call(server, token, '/api/SqlDataSource', {
        collectionUid: collection.uid,
        connectionId: connection.id,
        name,
        rowCap: 1000,
        timeoutMs: 30_000,
        maxExportRows: 1_000_000,
        ...extra,
      })
    ).uid;
  const q100 = { sql: Q100_SQL, parameters: [{ name: 'customer_id', type: 'integer', required: true }] };
  return {
    cacheOff: await asset('Q100 cache off', { ...q100, cacheTtlSeconds: 0 }),
    cacheOn: await asset('Q100 cache on', { ...q100, cacheTtlSeconds }),
    exportPlain: await asset('All orders', { sql: EXPORT_SQL }),
    exportMasked: await asset('All orders, note masked', {
      sql: EXPORT_SQL,
      transformations: [{ name: 'Mask', rules: [{ type: 'mask', column: 'note', mode: 'full' }] }],
    }),
  };
}
