import type { Insertable, Kysely, Transaction } from 'kysely';
import {
  GRAIN_KEYS,
  SUM_COLUMNS,
  rollupTable,
  type Grain,
  type Period,
} from '../../db/migrations/20261125_0012_usage_rollups.ts';
import type { DB, UsageRecordsTable } from '../../db/schema.ts';
import { insertJsonRows, type BulkColumn } from './bulk.ts';
import { BUCKET_COLUMNS, bucketIndex } from './histogram.ts';

// Keeps the usage rollups (migration 0012) as records arrive: a batch of records is summed in memory once per
// table (4 grains × hour and day), then each key is upserted once, in the transaction that appends the records.
// Keys are written in sorted order so that two instances upserting overlapping keys take their row locks in the
// same order (no deadlock on PostgreSQL); each table's rows go in one statement (bulk.ts).

type RecordRow = Insertable<UsageRecordsTable>;

export interface RollupRow {
  bucket: string;
  data_source_uid: string;
  user_key: number;
  collection_id: number | null;
  calls: number;
  errors: number;
  cache_hits: number;
  row_count: number;
  byte_count: number;
  counts: number[];
}

/** The hour of an ISO timestamp: 'YYYY-MM-DDTHH:00:00.000Z'. */
export const hourOf = (at: string) => `${at.slice(0, 13)}:00:00.000Z`;
/** The day of an ISO timestamp: 'YYYY-MM-DDT00:00:00.000Z'. */
export const dayOf = (at: string) => `${at.slice(0, 10)}T00:00:00.000Z`;

/** The Monday (UTC) of the week holding a day, in the day's form. */
export function weekOf(at: string): string {
  const day = new Date(dayOf(at));
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString();
}

const maxOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/** Adds `from` (one record's figures, or a finer row) into `into`. */
function addInto(into: RollupRow, from: RollupRow) {
  into.collection_id = maxOf(into.collection_id, from.collection_id);
  into.calls += from.calls;
  into.errors += from.errors;
  into.cache_hits += from.cache_hits;
  into.row_count += from.row_count;
  into.byte_count += from.byte_count;
  for (let i = 0; i < into.counts.length; i += 1) into.counts[i]! += from.counts[i]!;
}

/** Sums rows per (bucket, the grain's keys); `bucketOf` maps a row's bucket to the coarser one. */
export function sumRows(rows: Iterable<RollupRow>, grain: Grain, bucketOf: (bucket: string) => string): RollupRow[] {
  const sums = new Map<string, RollupRow>();
  for (const row of rows) {
    const bucket = bucketOf(row.bucket);
    const uid = grain === 'source' || grain === 'fine' ? row.data_source_uid : '';
    const user = grain === 'user' || grain === 'fine' ? row.user_key : 0;
    const key = `${bucket}\u0000${uid}\u0000${user}`;
    let sum = sums.get(key);
    if (!sum) {
      sum = { ...row, bucket, data_source_uid: uid, user_key: user, collection_id: null, counts: [...row.counts] };
      sum.collection_id = row.collection_id;
      sums.set(key, sum);
    } else addInto(sum, row);
  }
  return [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/** One row per record, in the fine grain's shape (the hour as its bucket). */
function recordRows(records: readonly RecordRow[]): RollupRow[] {
  return records.map((record) => {
    const counts = new Array<number>(BUCKET_COLUMNS.length).fill(0);
    counts[bucketIndex(record.duration_ms)] = 1;
    return {
      bucket: hourOf(record.at),
      data_source_uid: record.data_source_uid,
      user_key: record.user_id ?? 0,
      // A call refused before its asset was found carries no collection; any call of the same uid that found it does.
      collection_id: record.collection_id ?? null,
      calls: 1,
      errors: record.status >= 400 ? 1 : 0,
      cache_hits: record.cache_hit === 1 || record.cache_hit === true ? 1 : 0,
      row_count: Number(record.row_count),
      byte_count: Number(record.byte_count),
      counts,
    };
  });
}

/** A batch of records summed for every rollup table: the fine hours once, every other table from them. */
export function aggregate(records: readonly RecordRow[]): { grain: Grain; period: Period; rows: RollupRow[] }[] {
  const same = (bucket: string) => bucket;
  const fineHourly = sumRows(recordRows(records), 'fine', same);
  const fineDaily = sumRows(fineHourly, 'fine', dayOf);
  const sourceHourly = sumRows(fineHourly, 'source', same);
  const sourceDaily = sumRows(fineDaily, 'source', same);
  return [
    { grain: 'fine', period: 'hourly', rows: fineHourly },
    { grain: 'fine', period: 'daily', rows: fineDaily },
    { grain: 'source', period: 'hourly', rows: sourceHourly },
    { grain: 'source', period: 'daily', rows: sourceDaily },
    { grain: 'user', period: 'hourly', rows: sumRows(fineHourly, 'user', same) },
    { grain: 'user', period: 'daily', rows: sumRows(fineDaily, 'user', same) },
    { grain: 'total', period: 'hourly', rows: sumRows(sourceHourly, 'total', same) },
    { grain: 'total', period: 'daily', rows: sumRows(sourceDaily, 'total', same) },
  ];
}

/** A table's columns in insert order, and the value of each for a row. */
function columnsOf(grain: Grain, period: Period): [BulkColumn, (row: RollupRow) => unknown][] {
  const text = (name: string): BulkColumn => ({ name, type: 'text' });
  const int = (name: string): BulkColumn => ({ name, type: 'integer' });
  const columns: [BulkColumn, (row: RollupRow) => unknown][] = [[text('bucket'), (row) => row.bucket]];
  if (period === 'daily') columns.push([text('week'), (row) => weekOf(row.bucket)]);
  if (grain === 'source' || grain === 'fine') columns.push([text('data_source_uid'), (row) => row.data_source_uid]);
  if (grain === 'user' || grain === 'fine') columns.push([int('user_key'), (row) => row.user_key]);
  if (grain === 'source' || grain === 'fine') columns.push([int('collection_id'), (row) => row.collection_id]);
  columns.push(
    [int('calls'), (row) => row.calls],
    [int('errors'), (row) => row.errors],
    [int('cache_hits'), (row) => row.cache_hits],
    [{ name: 'row_count', type: 'bigint' }, (row) => row.row_count],
    [{ name: 'byte_count', type: 'bigint' }, (row) => row.byte_count],
  );
  BUCKET_COLUMNS.forEach((column, i) => columns.push([int(column), (row) => row.counts[i] ?? 0]));
  return columns;
}

/** Adds the rows to one table: new keys inserted, known ones summed (collection: the latest known). */
async function upsert(trx: Transaction<DB>, grain: Grain, period: Period, rows: RollupRow[]) {
  const table = rollupTable(grain, period);
  const columns = columnsOf(grain, period);
  const sums = SUM_COLUMNS.map((column) => `${column} = ${table}.${column} + excluded.${column}`);
  if (grain === 'source' || grain === 'fine') {
    sums.push(`collection_id = coalesce(excluded.collection_id, ${table}.collection_id)`);
  }
  const conflict = `on conflict (${['bucket', ...GRAIN_KEYS[grain]].join(', ')}) do update set ${sums.join(', ')}`;
  const values = rows.map((row) => columns.map(([, value]) => value(row)));
  await insertJsonRows(
    trx as unknown as Kysely<never>,
    table,
    columns.map(([column]) => column),
    values,
    conflict,
  );
}

/** Adds a batch of records (about to be inserted in the same transaction) to every rollup table. */
export async function addToRollups(trx: Transaction<DB>, records: readonly RecordRow[]): Promise<void> {
  for (const { grain, period, rows } of aggregate(records)) await upsert(trx, grain, period, rows);
}
