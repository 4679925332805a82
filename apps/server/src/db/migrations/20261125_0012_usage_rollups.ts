import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

// Frozen. Usage rollups (product §15 "Usage"): the usage records summed per hour and per day, at four grains, so
// that each summary reads the coarsest rows that answer it (modules/reporting/repository.ts):
//
// - usage_total_{hourly,daily}:  bucket                            — all-scope totals and series
// - usage_source_{hourly,daily}: bucket × data source (+ its collection) — collection/asset totals, data-source items
// - usage_user_{hourly,daily}:   bucket × user                      — all-scope user items, all-scope distinct users
// - usage_{hourly,daily}:        bucket × data source × user        — read only through a collection or data-source
//   index: distinct users and user items of one collection or asset, distinct users of a page of data sources.
//
// The recorder (plugins/usage.ts) upserts every table from one in-memory aggregation of its batch, in the
// transaction that appends the records; this migration backfills them from the records already stored, set-based.
//
// - user_key: the user's id, or 0 for calls that act for no person (collection tokens). A NULL in a unique key
//   would make every such row distinct, so the key holds a sentinel (ids start at 1 in both stores).
// - d00 … d15: how many calls took at most 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000,
//   60000 ms, and longer (each call counts in the first bucket its duration fits). Percentiles come from summed
//   buckets. This is the one definition: modules/reporting/histogram.ts re-exports it.
// - week (daily tables): the Monday (UTC) of the day's ISO week, so weekly series group on a column.

export const DURATION_BOUNDS_MS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000, 60000];
export const BUCKET_COLUMNS = [
  'd00',
  'd01',
  'd02',
  'd03',
  'd04',
  'd05',
  'd06',
  'd07',
  'd08',
  'd09',
  'd10',
  'd11',
  'd12',
  'd13',
  'd14',
  'd15',
] as const;

/** The sums every rollup row carries, in this order. */
export const SUM_COLUMNS = ['calls', 'errors', 'cache_hits', 'row_count', 'byte_count', ...BUCKET_COLUMNS] as const;

export type Grain = 'total' | 'source' | 'user' | 'fine';
export type Period = 'hourly' | 'daily';

/** The key of each grain after `bucket`, as the primary key orders it (the fine one is read by data source). */
export const GRAIN_KEYS: Record<Grain, readonly ('data_source_uid' | 'user_key')[]> = {
  total: [],
  source: ['data_source_uid'],
  user: ['user_key'],
  fine: ['data_source_uid', 'user_key'],
};

export function rollupTable(grain: Grain, period: Period): string {
  return grain === 'fine' ? `usage_${period}` : `usage_${grain}_${period}`;
}

const GRAINS: Grain[] = ['total', 'source', 'user', 'fine'];
const PERIODS: Period[] = ['hourly', 'daily'];

/**
 * Secondary indexes: [name suffix, columns, only on this period] per grain (the primary key is the other access
 * path). The `week` ones let weekly distinct-user counts read the index alone, never the wide rows.
 */
const INDEXES: Record<Grain, [string, string[], Period?][]> = {
  total: [],
  source: [
    ['collection', ['collection_id', 'bucket']],
    ['data_source', ['data_source_uid', 'bucket']],
  ],
  user: [
    ['user', ['user_key', 'bucket']],
    ['week', ['week', 'user_key'], 'daily'],
  ],
  fine: [
    ['collection', ['collection_id', 'bucket', 'user_key']],
    ['week', ['data_source_uid', 'week', 'user_key'], 'daily'],
  ],
};

function primaryKey(grain: Grain): string[] {
  // The fine table is only read for one data source (or a page of them) or one collection: uid first.
  return grain === 'fine' ? ['data_source_uid', 'bucket', 'user_key'] : ['bucket', ...GRAIN_KEYS[grain]];
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const grain of GRAINS) {
    for (const period of PERIODS) {
      const table = rollupTable(grain, period);
      let create = db.schema.createTable(table).addColumn('bucket', 'text', (col) => col.notNull());
      if (period === 'daily') create = create.addColumn('week', 'text', (col) => col.notNull());
      for (const key of GRAIN_KEYS[grain]) {
        create = create.addColumn(key, key === 'user_key' ? 'integer' : 'text', (col) => col.notNull());
      }
      if (grain === 'source' || grain === 'fine') create = create.addColumn('collection_id', 'integer');
      for (const column of SUM_COLUMNS) {
        const type = column === 'row_count' || column === 'byte_count' ? 'bigint' : 'integer';
        create = create.addColumn(column, type, (col) => col.notNull());
      }
      await create.addPrimaryKeyConstraint(`${table}_key`, primaryKey(grain) as never).execute();
    }
  }
  await createRollupIndexes(db);
  await backfillUsageRollups(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const grain of GRAINS)
    for (const period of PERIODS) await db.schema.dropTable(rollupTable(grain, period)).execute();
}

/** Creates the secondary indexes (bench/reporting.ts drops them around a bulk backfill). */
export async function createRollupIndexes(db: Kysely<unknown>): Promise<void> {
  for (const grain of GRAINS) {
    for (const period of PERIODS) {
      const table = rollupTable(grain, period);
      for (const [suffix, columns, only] of INDEXES[grain]) {
        if (only && only !== period) continue;
        await db.schema.createIndex(`${table}_${suffix}_index`).ifNotExists().on(table).columns(columns).execute();
      }
    }
  }
}

export async function dropRollupIndexes(db: Kysely<unknown>): Promise<void> {
  for (const grain of GRAINS) {
    for (const period of PERIODS) {
      const table = rollupTable(grain, period);
      for (const [suffix, , only] of INDEXES[grain]) {
        if (!only || only === period) await db.schema.dropIndex(`${table}_${suffix}_index`).ifExists().execute();
      }
    }
  }
}

function durationBuckets(): RawBuilder<unknown>[] {
  return BUCKET_COLUMNS.map((column, i) => {
    const upper = DURATION_BOUNDS_MS[i];
    const lower = i === 0 ? undefined : DURATION_BOUNDS_MS[i - 1];
    const fits =
      lower === undefined
        ? sql`duration_ms <= ${sql.lit(upper)}`
        : upper === undefined
          ? sql`duration_ms > ${sql.lit(lower)}`
          : sql`duration_ms > ${sql.lit(lower)} and duration_ms <= ${sql.lit(upper)}`;
    return sql`sum(case when ${fits} then 1 else 0 end)`;
  });
}

/** The Monday of a 'YYYY-MM-DD…' text's week, as 'YYYY-MM-DDT00:00:00.000Z'. */
function weekOf(db: Kysely<unknown>, day: RawBuilder<unknown>): RawBuilder<string> {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? sql`to_char(date_trunc('week', cast(substr(${day}, 1, 10) as date)), 'YYYY-MM-DD') || 'T00:00:00.000Z'`
    : sql`date(substr(${day}, 1, 10), 'weekday 0', '-6 days') || 'T00:00:00.000Z'`;
}

const refs = (columns: readonly string[]) => columns.map((column) => sql.ref(column));

/**
 * Sums rollup rows of `from` into the empty table of a coarser grain or period: `bucket` is the new bucket
 * expression, the grain's keys are kept, the rest summed.
 */
async function rollUp(db: Kysely<unknown>, from: string, grain: Grain, period: Period, bucket: RawBuilder<string>) {
  const keys = GRAIN_KEYS[grain];
  // A call refused before its asset was found carries no collection; any call of the same uid that found it does.
  const ids = grain === 'source' || grain === 'fine' ? [['collection_id', sql`max(collection_id)`] as const] : [];
  const week = period === 'daily' ? [['week', weekOf(db, sql`bucket`)] as const] : [];
  const target = ['bucket', ...week.map(([c]) => c), ...keys, ...ids.map(([c]) => c), ...SUM_COLUMNS];
  const groups = [bucket, ...week.map(([, e]) => e), ...refs(keys)];
  await sql`
    insert into ${sql.table(rollupTable(grain, period))} (${sql.join(refs(target))})
    select ${sql.join([...groups, ...ids.map(([, e]) => e), ...SUM_COLUMNS.map((c) => sql`sum(${sql.ref(c)})`)])}
    from ${sql.table(from)}
    group by ${sql.join(groups)}`.execute(db);
}

/**
 * Sums every usage record into the empty rollup tables: the fine hours from the records (the one pass over them),
 * everything else from those. Also used by bench/reporting.ts to build the rollups of its generated records.
 */
export async function backfillUsageRollups(db: Kysely<unknown>): Promise<void> {
  const hour = sql<string>`substr(at, 1, 13) || ':00:00.000Z'`;
  await sql`
    insert into usage_hourly (bucket, data_source_uid, user_key, collection_id, ${sql.join(refs(SUM_COLUMNS))})
    select ${hour}, data_source_uid, coalesce(user_id, 0), max(collection_id), count(*),
           sum(case when status >= 400 then 1 else 0 end), sum(cache_hit), sum(row_count), sum(byte_count),
           ${sql.join(durationBuckets())}
    from usage_records
    group by ${hour}, data_source_uid, coalesce(user_id, 0)`.execute(db);
  const same = sql<string>`bucket`;
  const day = sql<string>`substr(bucket, 1, 10) || 'T00:00:00.000Z'`;
  await rollUp(db, 'usage_hourly', 'fine', 'daily', day);
  for (const grain of ['source', 'user'] as const) {
    await rollUp(db, 'usage_hourly', grain, 'hourly', same);
    await rollUp(db, 'usage_daily', grain, 'daily', same);
  }
  await rollUp(db, 'usage_source_hourly', 'total', 'hourly', same);
  await rollUp(db, 'usage_source_daily', 'total', 'daily', same);
}
