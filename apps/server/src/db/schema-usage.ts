import type { ColumnType, Generated } from 'kysely';
import type { Flag, Timestamp } from './columns.ts';

// The usage tables (modules/reporting, plugins/usage.ts): one record per call, and the rollups kept as records
// arrive (hourly and daily, per asset, per user and in total). Part of the store's schema (schema.ts re-exports it).

export interface UsageRecordsTable {
  id: Generated<number>;
  at: Timestamp;
  user_id: number | null;
  token_id: number | null;
  data_source_id: number | null;
  data_source_uid: string;
  collection_id: number | null;
  /** Where the call came from: 'data-api' (the calling layer) today; portal and downloads later. */
  channel: string;
  format: string;
  status: number;
  duration_ms: number;
  /** bigint: PostgreSQL returns it as text. */
  row_count: ColumnType<number | string, number, number>;
  byte_count: ColumnType<number | string, number, number>;
  cache_hit: Flag;
  request_id: string | null;
}

/** The sums of every usage rollup row (migration 0012). */
export interface UsageSums {
  calls: number;
  errors: number;
  cache_hits: number;
  row_count: ColumnType<number | string, number, number>;
  byte_count: ColumnType<number | string, number, number>;
  /** Calls per duration bucket (modules/reporting/histogram.ts has the bounds). */
  d00: number;
  d01: number;
  d02: number;
  d03: number;
  d04: number;
  d05: number;
  d06: number;
  d07: number;
  d08: number;
  d09: number;
  d10: number;
  d11: number;
  d12: number;
  d13: number;
  d14: number;
  d15: number;
}

/** The bucket's start: 'YYYY-MM-DDTHH:00:00.000Z' (hourly tables) or 'YYYY-MM-DDT00:00:00.000Z' (daily). */
interface UsageBucket {
  bucket: string;
}

/** Daily tables also carry the Monday (UTC) of the day's week. */
export interface UsageWeek {
  week: string;
}

/** Usage per bucket × data source × user (usage_hourly, usage_daily). */
export interface UsageRollupsTable extends UsageSums, UsageBucket {
  data_source_uid: string;
  /** The user's id; 0 for calls that act for no person (collection tokens). */
  user_key: number;
  collection_id: number | null;
}
export interface UsageDailyTable extends UsageRollupsTable, UsageWeek {}
/** Usage per bucket × data source (usage_source_hourly, usage_source_daily). */
export interface UsageSourceTable extends UsageSums, UsageBucket {
  data_source_uid: string;
  collection_id: number | null;
}
/** Usage per bucket × channel × data source (usage_channel_hourly, usage_channel_daily; migration 0021). */
export interface UsageChannelTable extends UsageSourceTable {
  channel: string;
}
/** Usage per bucket × user (usage_user_hourly, usage_user_daily). */
export interface UsageUserTable extends UsageSums, UsageBucket {
  user_key: number;
}
/** Usage per bucket (usage_total_hourly, usage_total_daily). */
export type UsageTotalTable = UsageSums & UsageBucket;
