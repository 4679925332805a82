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
  /** Only these records (a page already chosen by id). */
  ids?: readonly number[] | undefined;
}

/** The level and the category most records have: the partial indexes of migration 0014 leave them out. */
const COMMON_LEVEL = 'info';
const COMMON_CATEGORY = 'call';

export const isPostgres = (db: Database) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * `walkTimeOrder`: the caller knows many records match, so the page is best read walking `created_at` newest first
 * until it is full. SQLite would otherwise read two or more levels from the level index and sort every record they
 * hold (~300 ms for warnings and errors among 1,000,000 records, against ~5 ms for the walk): `+level` keeps the
 * level index out of that choice. One level is read from (level, created_at) in order, without a sort.
 */
function filtered(db: Database, filter: LogFilter, walkTimeOrder = false) {
  let query = db.selectFrom('application_logs');
  if (filter.levels) {
    const level =
      walkTimeOrder && filter.levels.length > 1 && !isPostgres(db)
        ? sql<string>`+${sql.ref('application_logs.level')}`
        : sql.ref<string>('application_logs.level');
    query = query.where(level, 'in', [...filter.levels]);
    // The level and category indexes hold only the records that are not 'info' / not calls (migration 0014): a
    // filter they can serve says so, as a literal the store matches against the index's own condition.
    if (!filter.levels.includes(COMMON_LEVEL)) query = query.where(level, '<>', sql.lit(COMMON_LEVEL));
  }
  if (filter.category) {
    query = query.where('application_logs.category', '=', filter.category);
    if (filter.category !== COMMON_CATEGORY) {
      query = query.where('application_logs.category', '<>', sql.lit(COMMON_CATEGORY));
    }
  }
  if (filter.from) query = query.where('application_logs.created_at', '>=', filter.from);
  if (filter.to) query = query.where('application_logs.created_at', '<=', filter.to);
  if (filter.userId !== undefined) query = query.where('application_logs.user_id', '=', filter.userId);
  if (filter.requestId) query = query.where('application_logs.request_id', '=', filter.requestId);
  if (filter.ids) query = query.where('application_logs.id', 'in', [...filter.ids]);
  if (filter.search) {
    const pattern = likeContains(filter.search);
    // PostgreSQL's trigram index is on lower(message). SQLite's LIKE already ignores the case of ASCII letters and
    // its lower() changes only those, so the same records match without lower(), and a scan costs a third less.
    query = isPostgres(db)
      ? query.where((eb) => eb(eb.fn('lower', ['application_logs.message']), 'like', pattern))
      : query.where('application_logs.message', 'like', pattern);
  }
  return query;
}

/** One page of records, newest first, each with a prefix of its message and the user's name. */
function pageQuery(
  db: Database,
  filter: LogFilter,
  page: { limit: number; offset: number },
  cut: number,
  walkTimeOrder = false,
) {
  return filtered(db, filter, walkTimeOrder)
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
    .offset(page.offset);
}

export function listLogPage(
  db: Database,
  filter: LogFilter,
  page: { limit: number; offset: number },
  cut: number,
  walkTimeOrder = false,
) {
  return pageQuery(db, filter, page, cut, walkTimeOrder).execute();
}

/**
 * PostgreSQL's estimate of the records whose message contains `search` (from the trigram index's statistics, a
 * planning step: no rows are read); undefined on SQLite, which has no such index.
 */
export async function estimateMessageMatches(db: Database, search: string): Promise<number | undefined> {
  if (!isPostgres(db)) return undefined;
  const { rows } = await sql<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }>`
    explain (format json) select 1 from application_logs where lower(message) like ${likeContains(search)}`.execute(db);
  return rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'];
}

/**
 * The same page, read from the records that match (the trigram index's bitmap, then a sort) rather than by walking a
 * time-ordered index until the page is full. For a text that few records hold, the walk can read a whole filter's
 * worth of records to find none: PostgreSQL cannot see that a text and a level rarely go together (1.3 s against
 * 0.2 s measured for 'warehouse-7 ' among 60,000 errors, bench/app-logs.ts). Sorting reads every match, so each row
 * also carries how many there are (`match_count`, a window over the matches before the page is cut): the page and
 * its count are one statement, one pass over the index. A page past the last match has no row to carry it.
 * PostgreSQL only.
 */
export function listLogPageFromMatches(
  db: Database,
  filter: LogFilter,
  page: { limit: number; offset: number },
  cut: number,
) {
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_indexscan = off`.execute(trx);
    return pageQuery(trx, filter, page, cut)
      .select((eb) => eb.fn.countAll<number | string>().over().as('match_count'))
      .execute();
  });
}

/**
 * Up to `limit` records that match, in the order the store finds them (no sort): their ids and times. With fewer
 * than `limit`, these are all the matches — one pass gives both the count and the records a page is cut from.
 */
export function findLogMatches(db: Database, filter: LogFilter, limit: number) {
  return filtered(db, filter).select(['application_logs.id', 'application_logs.created_at']).limit(limit).execute();
}

/** How many records match, counting at most `limit` (a text search over millions of records stops early). */
export async function countLogs(db: Database, filter: LogFilter, limit: number): Promise<number> {
  const row = await db
    .selectFrom(filtered(db, filter).select('application_logs.id').limit(limit).as('matches'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The same count, read by scanning (the table or a b-tree index) instead of through the trigram index's bitmap: for a
 * text that many records hold, the bitmap is built whole — every match, 70,000 for 'timed out' — before the first
 * is counted (~45 ms), while a scan finds the first `limit` matches after a few thousand records, as the page beside
 * it does. PostgreSQL only; the caller decides from the estimate (service.ts).
 */
export function countLogsByScanning(db: Database, filter: LogFilter, limit: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_bitmapscan = off`.execute(trx);
    return countLogs(trx, filter, limit);
  });
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
