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
  estimateMessageMatches,
  findLog,
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

/** One page: from the matches when PostgreSQL expects few of them, else in time order (SQLite always). */
async function readPage(db: Database, filter: LogFilter, page: { limit: number; offset: number }) {
  const expected = filter.search ? await estimateMessageMatches(db, filter.search) : undefined;
  return expected !== undefined && expected <= FEW_MATCHES
    ? listLogPageFromMatches(db, filter, page, LOG_LIST_MESSAGE_MAX)
    : listLogPage(db, filter, page, LOG_LIST_MESSAGE_MAX);
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
  const [rows, counted] = await Promise.all([
    readPage(db, filter, { limit: options.pageSize, offset }),
    countLogs(db, filter, LOG_COUNT_LIMIT + 1),
  ]);
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
