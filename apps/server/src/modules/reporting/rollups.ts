import type { Kysely, Transaction } from 'kysely';
import {
  GRAIN_KEYS,
  SUM_COLUMNS,
  rollupTable,
  type Grain,
  type Period,
} from '../../db/migrations/20261125_0012_usage_rollups.ts';
import type { DB } from '../../db/schema.ts';
import { insertRows, type BulkColumn } from './bulk.repository.ts';
import { BUCKET_COLUMNS, bucketIndex } from './histogram.ts';
import type { RecordRow } from './usage-rows.ts';

// Keeps the usage rollups (migrations 0012 and 0021). The recorder (plugins/usage.ts) adds each batch of records it
// has written to a RollupBuffer: in memory, per (hour, data source, user, channel) — the fine hourly grain and the
// channel — summed across batches. Every USAGE_ROLLUP_FLUSH_MS (and at shutdown) the buffer's rows are summed once
// per table (4 grains × hour and day, and the channel tables: hour/day × channel × data source; the other tables
// sum the channels together) and each key is upserted once, in one transaction: a key called a thousand times in the interval
// costs one upsert, not one per batch. Keys are written in sorted order so that two instances upserting
// overlapping keys take their row locks in the same order (no deadlock on PostgreSQL); each table's rows go in
// one statement (bulk.repository.ts).

/** The grains of migration 0012, and 'channel' (bucket × channel × data source, migration 0021). */
type RollupGrain = Grain | 'channel';

const tableOf = (grain: RollupGrain, period: Period) =>
  grain === 'channel' ? `usage_channel_${period}` : rollupTable(grain, period);

const keysOf = (grain: RollupGrain): readonly string[] =>
  grain === 'channel' ? ['channel', 'data_source_uid'] : GRAIN_KEYS[grain];

const hasSource = (grain: RollupGrain) => grain === 'source' || grain === 'fine' || grain === 'channel';

export interface RollupRow {
  bucket: string;
  /** The usage records' channel ('data-api', 'mcp', 'download'); '' once summed over channels. */
  channel: string;
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

const fineKey = (row: RollupRow) =>
  `${row.bucket}\u0000${row.data_source_uid}\u0000${row.user_key}\u0000${row.channel}`;

/** Sums rows per (bucket, the grain's keys); `bucketOf` maps a row's bucket to the coarser one. */
export function sumRows(
  rows: Iterable<RollupRow>,
  grain: RollupGrain,
  bucketOf: (bucket: string) => string,
): RollupRow[] {
  const sums = new Map<string, RollupRow>();
  for (const row of rows) {
    const bucket = bucketOf(row.bucket);
    const uid = hasSource(grain) ? row.data_source_uid : '';
    const user = grain === 'user' || grain === 'fine' ? row.user_key : 0;
    const channel = grain === 'channel' ? row.channel : '';
    const key = `${bucket}\u0000${uid}\u0000${user}\u0000${channel}`;
    let sum = sums.get(key);
    if (!sum) {
      sum = {
        ...row,
        bucket,
        channel,
        data_source_uid: uid,
        user_key: user,
        collection_id: null,
        counts: [...row.counts],
      };
      sum.collection_id = row.collection_id;
      sums.set(key, sum);
    } else addInto(sum, row);
  }
  return [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/** Fine hourly rows summed for every rollup table: every other table from them. */
export function aggregateFine(
  fineHourly: readonly RollupRow[],
): { grain: RollupGrain; period: Period; rows: RollupRow[] }[] {
  const same = (bucket: string) => bucket;
  const fineDaily = sumRows(fineHourly, 'fine', dayOf);
  const sourceHourly = sumRows(fineHourly, 'source', same);
  const sourceDaily = sumRows(fineDaily, 'source', same);
  const channelHourly = sumRows(fineHourly, 'channel', same);
  return [
    { grain: 'fine', period: 'hourly', rows: sumRows(fineHourly, 'fine', same) },
    { grain: 'fine', period: 'daily', rows: fineDaily },
    { grain: 'source', period: 'hourly', rows: sourceHourly },
    { grain: 'source', period: 'daily', rows: sourceDaily },
    { grain: 'user', period: 'hourly', rows: sumRows(fineHourly, 'user', same) },
    { grain: 'user', period: 'daily', rows: sumRows(fineDaily, 'user', same) },
    { grain: 'total', period: 'hourly', rows: sumRows(sourceHourly, 'total', same) },
    { grain: 'total', period: 'daily', rows: sumRows(sourceDaily, 'total', same) },
    { grain: 'channel', period: 'hourly', rows: channelHourly },
    { grain: 'channel', period: 'daily', rows: sumRows(channelHourly, 'channel', dayOf) },
  ];
}

/** A table's columns in insert order, and the value of each for a row. */
function columnsOf(grain: RollupGrain, period: Period): [BulkColumn, (row: RollupRow) => unknown][] {
  const text = (name: string): BulkColumn => ({ name, type: 'text' });
  const int = (name: string): BulkColumn => ({ name, type: 'integer' });
  const columns: [BulkColumn, (row: RollupRow) => unknown][] = [[text('bucket'), (row) => row.bucket]];
  if (period === 'daily') columns.push([text('week'), (row) => weekOf(row.bucket)]);
  if (grain === 'channel') columns.push([text('channel'), (row) => row.channel]);
  if (hasSource(grain)) columns.push([text('data_source_uid'), (row) => row.data_source_uid]);
  if (grain === 'user' || grain === 'fine') columns.push([int('user_key'), (row) => row.user_key]);
  if (hasSource(grain)) columns.push([int('collection_id'), (row) => row.collection_id]);
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
async function upsert(trx: Transaction<DB>, grain: RollupGrain, period: Period, rows: RollupRow[]) {
  const table = tableOf(grain, period);
  const columns = columnsOf(grain, period);
  const sums = SUM_COLUMNS.map((column) => `${column} = ${table}.${column} + excluded.${column}`);
  if (hasSource(grain)) {
    sums.push(`collection_id = coalesce(excluded.collection_id, ${table}.collection_id)`);
  }
  const conflict = `on conflict (${['bucket', ...keysOf(grain)].join(', ')}) do update set ${sums.join(', ')}`;
  const values = rows.map((row) => columns.map(([, value]) => value(row)));
  await insertRows(
    trx as unknown as Kysely<never>,
    table,
    columns.map(([column]) => column),
    values,
    conflict,
  );
}

/** Adds fine hourly rows (RollupBuffer.take) to every rollup table, in the caller's transaction. */
export async function addToRollups(trx: Transaction<DB>, fineHourly: readonly RollupRow[]): Promise<void> {
  for (const { grain, period, rows } of aggregateFine(fineHourly)) await upsert(trx, grain, period, rows);
}

/**
 * Rollup increments not yet written, summed per fine hourly key and channel (hour, data source, user, channel). They are counters:
 * rows taken for a write that then fails are put back (summed again) and go with the next write.
 */
export class RollupBuffer {
  #rows = new Map<string, RollupRow>();

  /** Keys waiting (memory is bounded by the caller). */
  get size(): number {
    return this.#rows.size;
  }

  /** Adds records that are now stored. */
  addRecords(records: readonly RecordRow[]): void {
    for (const record of records) {
      const bucket = hourOf(record.at);
      const user = record.user_id ?? 0;
      const key = `${bucket}\u0000${record.data_source_uid}\u0000${user}\u0000${record.channel}`;
      let row = this.#rows.get(key);
      if (!row) {
        row = {
          bucket,
          channel: record.channel,
          data_source_uid: record.data_source_uid,
          user_key: user,
          collection_id: null,
          calls: 0,
          errors: 0,
          cache_hits: 0,
          row_count: 0,
          byte_count: 0,
          counts: new Array<number>(BUCKET_COLUMNS.length).fill(0),
        };
        this.#rows.set(key, row);
      }
      // A call refused before its asset was found carries no collection; any call of the same uid that found it does.
      row.collection_id = maxOf(row.collection_id, record.collection_id ?? null);
      row.calls += 1;
      if (record.status >= 400) row.errors += 1;
      if (record.cache_hit === 1 || record.cache_hit === true) row.cache_hits += 1;
      row.row_count += Number(record.row_count);
      row.byte_count += Number(record.byte_count);
      row.counts[bucketIndex(record.duration_ms)]! += 1;
    }
  }

  /** Everything waiting, emptied. */
  take(): RollupRow[] {
    const rows = [...this.#rows.values()];
    this.#rows = new Map();
    return rows;
  }

  /** Puts back rows whose write failed (summed with whatever arrived meanwhile). */
  restore(rows: readonly RollupRow[]): void {
    for (const row of rows) {
      const key = fineKey(row);
      const known = this.#rows.get(key);
      if (known) addInto(known, row);
      else this.#rows.set(key, { ...row, counts: [...row.counts] });
    }
  }
}
