import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

// Frozen. Usage by channel (product §15 "Usage": MCP calls apart from /data/v1 and downloads): the usage records
// summed per hour and per day by channel ('data-api', 'mcp', 'download') and data source (+ its collection), the
// sums of migration 0012's rollups. The other rollups keep no channel; the reporting calls read these tables for
// their split by channel, the scope filtering on data source or collection as on usage_source_*.
//
// The recorder (plugins/usage.ts, modules/reporting/rollups.ts) upserts them with the others from the same
// in-memory aggregation; this migration backfills them from every usage record already stored (records keep their
// channel and are never purged, so the backfill is exact). Copied here, not imported: migrations import no
// application code.

const BUCKET_COLUMNS = Array.from({ length: 16 }, (_, i) => `d${String(i).padStart(2, '0')}`);
const DURATION_BOUNDS_MS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 30000, 60000];
const SUM_COLUMNS = ['calls', 'errors', 'cache_hits', 'row_count', 'byte_count', ...BUCKET_COLUMNS];
const PERIODS = ['hourly', 'daily'] as const;

const tableOf = (period: (typeof PERIODS)[number]) => `usage_channel_${period}`;
const refs = (columns: readonly string[]) => columns.map((column) => sql.ref(column));

function durationBuckets(): RawBuilder<unknown>[] {
  return BUCKET_COLUMNS.map((_, i) => {
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

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const period of PERIODS) {
    const table = tableOf(period);
    let create = db.schema.createTable(table).addColumn('bucket', 'text', (col) => col.notNull());
    if (period === 'daily') create = create.addColumn('week', 'text', (col) => col.notNull());
    create = create
      .addColumn('channel', 'text', (col) => col.notNull())
      .addColumn('data_source_uid', 'text', (col) => col.notNull())
      .addColumn('collection_id', 'integer');
    for (const column of SUM_COLUMNS) {
      const type = column === 'row_count' || column === 'byte_count' ? 'bigint' : 'integer';
      create = create.addColumn(column, type, (col) => col.notNull());
    }
    await create.addPrimaryKeyConstraint(`${table}_key`, ['bucket', 'channel', 'data_source_uid'] as never).execute();
    await db.schema.createIndex(`${table}_collection_index`).on(table).columns(['collection_id', 'bucket']).execute();
    await db.schema
      .createIndex(`${table}_data_source_index`)
      .on(table)
      .columns(['data_source_uid', 'bucket'])
      .execute();
  }
  await backfillUsageChannels(db);
}

/** Sums every usage record into the empty channel tables (also used by bench/reporting.ts for its records). */
export async function backfillUsageChannels(db: Kysely<unknown>): Promise<void> {
  const hour = sql<string>`substr(at, 1, 13) || ':00:00.000Z'`;
  await sql`
    insert into usage_channel_hourly (bucket, channel, data_source_uid, collection_id, ${sql.join(refs(SUM_COLUMNS))})
    select ${hour}, channel, data_source_uid, max(collection_id), count(*),
           sum(case when status >= 400 then 1 else 0 end), sum(cache_hit), sum(row_count), sum(byte_count),
           ${sql.join(durationBuckets())}
    from usage_records
    group by ${hour}, channel, data_source_uid`.execute(db);
  const day = sql<string>`substr(bucket, 1, 10) || 'T00:00:00.000Z'`;
  const week =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? sql`to_char(date_trunc('week', cast(substr(bucket, 1, 10) as date)), 'YYYY-MM-DD') || 'T00:00:00.000Z'`
      : sql`date(substr(bucket, 1, 10), 'weekday 0', '-6 days') || 'T00:00:00.000Z'`;
  await sql`
    insert into usage_channel_daily (bucket, week, channel, data_source_uid, collection_id,
                                     ${sql.join(refs(SUM_COLUMNS))})
    select ${day}, ${week}, channel, data_source_uid, max(collection_id),
           ${sql.join(SUM_COLUMNS.map((column) => sql`sum(${sql.ref(column)})`))}
    from usage_channel_hourly
    group by ${day}, ${week}, channel, data_source_uid`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const period of PERIODS) await db.schema.dropTable(tableOf(period)).execute();
}
