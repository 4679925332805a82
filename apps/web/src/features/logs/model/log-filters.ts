import { paths } from '@datalab/contract/paths';
import { logLevels, type ApplicationLogQuery, type LogLevel } from '@datalab/contract/api/application-logs';

// The log screen's filters live in the URL (?level=warn&category=audit&from=…&requestId=…), like every list
// screen's, so Back, reloads and links (a request id in the drawer) keep them. `search` and `page` are the
// search widget's own parameters (components/search/use-search-state.ts).

export const filterNames = ['level', 'category', 'from', 'to', 'userId', 'userName', 'requestId'] as const;
export type FilterName = (typeof filterNames)[number];

export interface LogFilters {
  level: LogLevel | undefined;
  category: string | undefined;
  /** ISO date-times (UTC). */
  from: string | undefined;
  to: string | undefined;
  userId: number | undefined;
  /** Shown for the picked user; the server filters by id only. */
  userName: string | undefined;
  requestId: string | undefined;
}

const isoOrUndefined = (value: string | null) =>
  value !== null && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : undefined;

export function readLogFilters(params: URLSearchParams): LogFilters {
  const userId = Number(params.get('userId'));
  return {
    level: logLevels.find((level) => level === params.get('level')),
    category: params.get('category') || undefined,
    from: isoOrUndefined(params.get('from')),
    to: isoOrUndefined(params.get('to')),
    userId: Number.isInteger(userId) && userId > 0 ? userId : undefined,
    userName: params.get('userName') || undefined,
    requestId: params.get('requestId') || undefined,
  };
}

/** True when any filter besides the text search is set. */
export function hasLogFilters(filters: LogFilters): boolean {
  return filterNames.some((name) => filters[name] !== undefined);
}

/** The URL with some filters changed (undefined or '' removes one); a changed filter starts again at page 1. */
export function withLogFilters(
  params: URLSearchParams,
  changes: Partial<Record<FilterName | 'record', string | number | undefined>>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined || value === '') next.delete(name);
    else next.set(name, String(value));
  }
  if (Object.keys(changes).some((name) => name !== 'record')) next.delete('page');
  return next;
}

/** What GetApplicationLogs is asked. */
export function logQuery(filters: LogFilters, search: string, page: number, pageSize: number): ApplicationLogQuery {
  return {
    page,
    pageSize,
    level: filters.level,
    category: filters.category,
    from: filters.from,
    to: filters.to,
    search: search || undefined,
    userId: filters.userId,
    requestId: filters.requestId,
  };
}

/** The log screen showing one request's records, and nothing else. */
export function requestRecordsPath(requestId: string): string {
  return `${paths.logManagement}?${new URLSearchParams({ requestId })}`;
}

/** `datetime-local` text (the browser's time zone) for an ISO date-time, and back. */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** The input names a minute; `endOfMinute` makes an upper bound include all of it. */
export function fromLocalInput(text: string, options: { endOfMinute?: boolean } = {}): string | undefined {
  if (!text) return undefined;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return undefined;
  return new Date(date.getTime() + (options.endOfMinute ? 59_999 : 0)).toISOString();
}
