import {
  LOG_COUNT_LIMIT,
  LOG_LIST_MESSAGE_MAX,
  logLevels,
  type ApplicationLogPage,
  type ApplicationLogRecord,
  type LogLevel,
} from '@datalab/contract/api/application-logs';
import type { Database } from '../../db/database.ts';
import { notFound } from '../../lib/errors.ts';
import { presentLogItem, presentLogRecord } from './presenter.ts';
import {
  countLogs,
  countLogsByScanning,
  estimateMessageMatches,
  findLog,
  findLogMatches,
  isPostgres,
  listLogPage,
  listLogPageFromMatches,
  type LogFilter,
} from './repository.ts';

// Reading the application log (administrators; the route declares it). Writing is plugins/app-log.ts,
// removing old records plugins/app-log-retention.ts.

export interface LogListOptions {
  page: number;
  pageSize: number;
  level?: LogLevel | undefined;
  category?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  search?: string | undefined;
  userId?: number | undefined;
  requestId?: string | undefined;
}

/**
 * Below this many records holding the searched text, a page is read from the matches (repository.ts): sorting
 * them costs less than walking the time order past records that do not match.
 */
export const FEW_MATCHES = 20_000;

type PageRange = { limit: number; offset: number };

/**
 * One page and how many records match, counted up to `countLimit` (LOG_COUNT_LIMIT + 1).
 * - PostgreSQL, a text it expects in few records: the page from the matches, which counts them too.
 * - PostgreSQL otherwise: the page in time order and, beside it, a capped count that scans for a common text rather
 *   than building its whole trigram bitmap.
 * - SQLite: one pass (by the filters' best index, else the table; no text index, no sort) finds up to `countLimit`
 *   matches. Fewer are all of them: the page is cut from them. Otherwise many match, and the page is read walking
 *   the time order, which soon finds them. A rare or absent text is thus one scan, not a walk of every record in
 *   time order plus a count scan.
 */
async function readPage(db: Database, filter: LogFilter, page: PageRange, countLimit: number) {
  if (!isPostgres(db)) return readFromMatches(db, filter, page, countLimit);
  if (!filter.search) return readInTimeOrder(db, filter, page, countLimit);
  const expected = await estimateMessageMatches(db, filter.search);
  if (expected !== undefined && expected > FEW_MATCHES) return readInTimeOrder(db, filter, page, countLimit, true);
  const rows = await listLogPageFromMatches(db, filter, page, LOG_LIST_MESSAGE_MAX);
  const first = rows[0];
  if (first) return { rows, counted: Number(first.match_count) };
  // No row to carry the count: nothing matches, or the page lies past the last match.
  return { rows, counted: page.offset === 0 ? 0 : await countLogs(db, filter, countLimit) };
}

async function readInTimeOrder(db: Database, filter: LogFilter, page: PageRange, countLimit: number, scan = false) {
  const [rows, counted] = await Promise.all([
    listLogPage(db, filter, page, LOG_LIST_MESSAGE_MAX),
    scan ? countLogsByScanning(db, filter, countLimit) : countLogs(db, filter, countLimit),
  ]);
  return { rows, counted };
}

async function readFromMatches(db: Database, filter: LogFilter, page: PageRange, countLimit: number) {
  const matches = await findLogMatches(db, filter, countLimit);
  if (matches.length >= countLimit) {
    return { rows: await listLogPage(db, filter, page, LOG_LIST_MESSAGE_MAX, true), counted: matches.length };
  }
  const ids = matches
    .sort((a, b) => (a.created_at === b.created_at ? b.id - a.id : a.created_at < b.created_at ? 1 : -1))
    .slice(page.offset, page.offset + page.limit)
    .map((match) => match.id);
  const rows =
    ids.length === 0 ? [] : await listLogPage(db, { ids }, { limit: ids.length, offset: 0 }, LOG_LIST_MESSAGE_MAX);
  return { rows, counted: matches.length };
}

/** The levels at or above `lowest`. */
export function levelsFrom(lowest: LogLevel): LogLevel[] {
  return logLevels.slice(logLevels.indexOf(lowest));
}

export async function listLogs(db: Database, options: LogListOptions): Promise<ApplicationLogPage> {
  const filter: LogFilter = {
    levels: options.level && options.level !== 'debug' ? levelsFrom(options.level) : undefined,
    category: options.category,
    from: options.from?.toISOString(),
    to: options.to?.toISOString(),
    search: options.search || undefined,
    userId: options.userId,
    requestId: options.requestId,
  };
  const offset = (options.page - 1) * options.pageSize;
  const { rows, counted } = await readPage(db, filter, { limit: options.pageSize, offset }, LOG_COUNT_LIMIT + 1);
  const isCountCapped = counted > LOG_COUNT_LIMIT;
  return {
    items: rows.map(presentLogItem),
    // A page beyond the counted ones still shows where it is.
    totalCount: isCountCapped ? Math.max(LOG_COUNT_LIMIT, offset + rows.length) : counted,
    isCountCapped,
    page: options.page,
    pageSize: options.pageSize,
  };
}

export async function getLog(db: Database, id: number): Promise<ApplicationLogRecord> {
  const row = await findLog(db, id);
  if (!row) throw notFound('Application log', id);
  return presentLogRecord(row);
}
