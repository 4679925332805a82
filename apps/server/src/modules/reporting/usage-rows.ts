import type { Insertable } from 'kysely';
import { redactSecrets } from '@datalab/contract/redact';
import type { ApplicationLogsTable, UsageRecordsTable } from '../../db/schema.ts';
import { encodeCallDetails } from '../application-logs/call-details.ts';
import type { BulkColumn, TableRows } from './bulk.repository.ts';
import type { UsageRecord } from '../../lib/usage-record.ts';

// What the usage recorder (plugins/usage.ts) writes for each call: its usage record and its 'call' application-log
// record, as rows of the two tables and as values in their columns' order for the bulk writers (bulk.repository.ts).

/** Rows per statement (an INSERT on SQLite, a COPY on PostgreSQL): bounds one after an outage. */
const STATEMENT_ROWS = 5_000;

export type RecordRow = Insertable<UsageRecordsTable>;
const text = (name: string): BulkColumn => ({ name, type: 'text' });
const int = (name: string): BulkColumn => ({ name, type: 'integer' });
const RECORD_COLUMNS: BulkColumn[] = [
  text('at'),
  int('user_id'),
  int('token_id'),
  int('data_source_id'),
  text('data_source_uid'),
  int('collection_id'),
  text('channel'),
  text('format'),
  int('status'),
  int('duration_ms'),
  { name: 'row_count', type: 'bigint' },
  { name: 'byte_count', type: 'bigint' },
  int('cache_hit'),
  text('request_id'),
];
const LOG_COLUMNS: BulkColumn[] = [
  text('created_at'),
  text('level'),
  text('category'),
  text('message'),
  text('request_id'),
  int('user_id'),
  text('details'),
];
const valuesOf = (row: object, columns: readonly BulkColumn[]) =>
  columns.map((column) => (row as Record<string, unknown>)[column.name] ?? null);
type LogRow = Insertable<ApplicationLogsTable>;
/**
 * A call waiting for its batch: what the route recorded and when (epoch ms), nothing more. Its rows are built when
 * the batch is written: what waits outlives young-generation collections and is promoted, so the less each call
 * holds (one small object instead of two rows and their message and details texts), the less old-generation
 * garbage recording leaves behind.
 */
export interface Pending {
  entry: UsageRecord;
  at: number;
}
/** One call's rows: its usage record and its application-log record. */
export interface Rows {
  record: RecordRow;
  log: LogRow;
}
export function toRows({ entry, at }: Pending): Rows {
  const iso = new Date(at).toISOString();
  // The uid is what the caller put in the path (`GET /data/v1/<a pasted secret>`): redacted before it is stored.
  const uid = redactSecrets(entry.dataSourceUid);
  const safe = uid === entry.dataSourceUid ? entry : { ...entry, dataSourceUid: uid };
  return { record: toRow(safe, iso), log: toLog(safe, iso) };
}
const recordValues = (calls: Rows[]) => calls.map((call) => valuesOf(call.record, RECORD_COLUMNS));
const logValues = (calls: Rows[]) => calls.map((call) => valuesOf(call.log, LOG_COLUMNS));

/**
 * A batch's writes: for each part of at most STATEMENT_ROWS calls (a batch grows after an outage), its usage records
 * then its log records.
 */
export function* batchWrites(calls: Rows[]): Generator<TableRows> {
  for (let start = 0; start < calls.length; start += STATEMENT_ROWS) {
    const part = calls.slice(start, start + STATEMENT_ROWS);
    yield { table: 'usage_records', columns: RECORD_COLUMNS, rows: recordValues(part) };
    yield { table: 'application_logs', columns: LOG_COLUMNS, rows: logValues(part) };
  }
}

function toRow(entry: UsageRecord, at: string): RecordRow {
  return {
    at,
    user_id: entry.userId,
    token_id: entry.tokenId ?? null,
    data_source_id: entry.dataSourceId,
    data_source_uid: entry.dataSourceUid,
    collection_id: entry.collectionId,
    channel: entry.channel,
    format: entry.format,
    status: entry.status,
    duration_ms: Math.round(entry.durationMs),
    row_count: Math.max(0, entry.rows),
    byte_count: entry.bytes,
    cache_hit: entry.cacheHit ? 1 : 0,
    request_id: entry.requestId,
  };
}

const levelOf = (status: number): LogRow['level'] => (status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info');

/** The call's application-log record: what an administrator reads on /management/logs. */
function toLog(entry: UsageRecord, at: string): LogRow {
  const asset = entry.dataSourceName ? `${entry.dataSourceName} (${entry.dataSourceUid})` : entry.dataSourceUid;
  const what = entry.channel === 'download' ? 'Download' : entry.channel === 'mcp' ? 'MCP tool call' : 'Call';
  const client = entry.client ? ` by ${entry.client}` : '';
  const durationMs = Math.round(entry.durationMs);
  const rows = Math.max(0, entry.rows);
  const message =
    `${what} of ${asset}${client} as ${entry.format}: ${entry.status}, ${rows} rows, ${entry.bytes} bytes ` +
    `in ${durationMs} ms${entry.cacheHit ? ', from the cache' : ''}`;
  const details = encodeCallDetails({
    channel: entry.channel,
    dataAsset: { uid: entry.dataSourceUid, name: entry.dataSourceName ?? null, id: entry.dataSourceId },
    collectionId: entry.collectionId,
    tokenId: entry.tokenId ?? null,
    format: entry.format,
    status: entry.status,
    rows,
    bytes: entry.bytes,
    durationMs,
    cacheHit: entry.cacheHit,
    ...(entry.client ? { client: entry.client } : {}),
  });
  return {
    created_at: at,
    level: levelOf(entry.status),
    category: 'call',
    message,
    request_id: entry.requestId,
    user_id: entry.userId,
    details,
  };
}
