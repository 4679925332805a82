import type { Database } from '../../db/database.ts';

// Queries of an asset's recent calls: its usage records (plugins/usage.ts), newest first, with the caller's name.

export interface RecentCallRow {
  id: number;
  at: string;
  user_id: number | null;
  user_name: string | null;
  token_id: number | null;
  status: number;
  row_count: number | string;
  byte_count: number | string;
  duration_ms: number;
  cache_hit: number;
  format: string;
}

/** The latest `take` records of one asset; only `userId`'s when given. Served by (data_source_id, at). */
export function findRecentCalls(
  db: Database,
  dataSourceId: number,
  options: { take: number; userId?: number | undefined },
): Promise<RecentCallRow[]> {
  let query = db
    .selectFrom('usage_records')
    .leftJoin('users', 'users.id', 'usage_records.user_id')
    .select([
      'usage_records.id',
      'usage_records.at',
      'usage_records.user_id',
      'users.name as user_name',
      'usage_records.token_id',
      'usage_records.status',
      'usage_records.row_count',
      'usage_records.byte_count',
      'usage_records.duration_ms',
      'usage_records.cache_hit',
      'usage_records.format',
    ])
    .where('usage_records.data_source_id', '=', dataSourceId);
  if (options.userId !== undefined) query = query.where('usage_records.user_id', '=', options.userId);
  return query.orderBy('usage_records.at', 'desc').orderBy('usage_records.id', 'desc').limit(options.take).execute();
}
