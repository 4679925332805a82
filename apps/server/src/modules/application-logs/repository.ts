import { PostgresAdapter, sql } from 'kysely';
import type { LogLevel } from '@datalab/contract/api/application-logs';
import type { Database } from '../../db/database.ts';
import { likeContains } from '../../db/like.ts';
import type { NewApplicationLog } from '../../db/schema.ts';

export function insertLog(db: Database, entry: NewApplicationLog) {
  return db.insertInto('application_logs').values(entry).execute();
}

export interface LogFilter {
  levels?: readonly LogLevel[] | undefined;
  category?: string | undefined;
  /** ISO text, inclusive. */
  from?: string | undefined;
  /** ISO text, inclusive. */
  to?: string | undefined;
  search?: string | undefined;
  userId?: number | undefined;
  requestId?: string | undefined;
}

function filtered(db: Database, filter: LogFilter) {
  let query = db.selectFrom('application_logs');
  if (filter.levels) query = query.where('application_logs.level', 'in', [...filter.levels]);
  if (filter.category) query = query.where('application_logs.category', '=', filter.category);
  if (filter.from) query = query.where('application_logs.created_at', '>=', filter.from);
  if (filter.to) query = query.where('application_logs.created_at', '<=', filter.to);
  if (filter.userId !== undefined) query = query.where('application_logs.user_id', '=', filter.userId);
  if (filter.requestId) query = query.where('application_logs.request_id', '=', filter.requestId);
  if (filter.search) {
    const pattern = likeContains(filter.search);
    query = query.where((eb) => eb(eb.fn('lower', ['application_logs.message']), 'like', pattern));
  }
  return query;
}

/** One page of records, newest first, each with a prefix of its message and the user's name. */
export function listLogPage(db: Database, filter: LogFilter, page: { limit: number; offset: number }, cut: number) {
  return filtered(db, filter)
    .leftJoin('users', 'users.id', 'application_logs.user_id')
    .select((eb) => [
      'application_logs.id',
      'application_logs.created_at',
      'application_logs.level',
      'application_logs.category',
      // One character more than is shown, so the presenter knows whether the message was cut.
      eb.fn<string>('substr', ['application_logs.message', eb.lit(1), eb.lit(cut + 1)]).as('message'),
      'application_logs.request_id',
      'application_logs.user_id',
      'users.name as user_name',
      'users.username as user_username',
    ])
    .orderBy('application_logs.created_at', 'desc')
    .orderBy('application_logs.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/**
 * PostgreSQL's estimate of the records whose message contains `search` (from the trigram index's statistics, a
 * planning step: no rows are read); undefined on SQLite, which has no such index.
 */
export async function estimateMessageMatches(db: Database, search: string): Promise<number | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const { rows } = await sql<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }>`
    explain (format json) select 1 from application_logs where lower(message) like ${likeContains(search)}`.execute(db);
  return rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'];
}

/**
 * The same page, read from the records that match (the trigram index's bitmap, then a sort) rather than by walking a
 * time-ordered index until the page is full. For a text that few records hold, the walk can read a whole filter's
 * worth of records to find none: PostgreSQL cannot see that a text and a level rarely go together (1.3 s against
 * 0.2 s measured for 'warehouse-7 ' among 60,000 errors, bench/app-logs.ts). PostgreSQL only.
 */
export function listLogPageFromMatches(
  db: Database,
  filter: LogFilter,
  page: { limit: number; offset: number },
  cut: number,
) {
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_indexscan = off`.execute(trx);
    return listLogPage(trx, filter, page, cut);
  });
}

/** How many records match, counting at most `limit` (a text search over millions of records stops early). */
export async function countLogs(db: Database, filter: LogFilter, limit: number): Promise<number> {
  const row = await db
    .selectFrom(filtered(db, filter).select('application_logs.id').limit(limit).as('matches'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findLog(db: Database, id: number) {
  return db
    .selectFrom('application_logs')
    .leftJoin('users', 'users.id', 'application_logs.user_id')
    .selectAll('application_logs')
    .select(['users.name as user_name', 'users.username as user_username'])
    .where('application_logs.id', '=', id)
    .executeTakeFirst();
}

/** Deletes up to `batch` records older than `before`, oldest first; answers how many went. */
export async function deleteLogsBefore(db: Database, before: string, batch: number): Promise<number> {
  const result = await db
    .deleteFrom('application_logs')
    .where('id', 'in', (eb) =>
      eb.selectFrom('application_logs').select('id').where('created_at', '<', before).orderBy('id').limit(batch),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The id of the `keep`-th newest record (by id, which follows the order of writing); undefined when fewer exist. */
export async function nthNewestLogId(db: Database, keep: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('application_logs')
    .select('id')
    .orderBy('id', 'desc')
    .offset(keep - 1)
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/** Deletes up to `batch` of the oldest records with an id below `belowId`; answers how many went. */
export async function deleteLogsBelowId(db: Database, belowId: number, batch: number): Promise<number> {
  const result = await db
    .deleteFrom('application_logs')
    .where('id', 'in', (eb) =>
      eb.selectFrom('application_logs').select('id').where('id', '<', belowId).orderBy('id').limit(batch),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
