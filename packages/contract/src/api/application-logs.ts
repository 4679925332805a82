import { z } from 'zod';
import { defineCall } from '../call.ts';
import { isoDateTime } from '../dates.ts';
import { pageOf, pageQuery } from '../paging.ts';
import { text } from '../text.ts';

// The portal reports its render failures here, so administrators see them in the application log.
export const clientErrorReport = z.object({
  message: text(2000).pipe(z.string().min(1)),
  path: text(2000),
  stack: text(20_000).optional(),
  componentStack: text(20_000).optional(),
});
export type ClientErrorReport = z.infer<typeof clientErrorReport>;

export const reportClientError = defineCall({
  method: 'POST',
  path: '/api/ApplicationLog/ClientErrors',
  tag: 'ApplicationLog',
  summary: 'Record a failure of the portal in the application log',
  body: clientErrorReport,
  response: z.object({ requestId: z.string() }),
  status: 202,
});

// The application log (GetApplicationLogs): errors, audit records and client reports, newest first, for
// administrators. The list carries what a table row shows; one record's call adds its details (the request,
// the error and its stack, an audit's values before and after).

export const logLevels = ['debug', 'info', 'warn', 'error'] as const;
export const logLevel = z.enum(logLevels);
export type LogLevel = z.infer<typeof logLevel>;

/** The categories Data Lab writes today; the filter takes any category. */
/** 'call': one record per data call (calling layer, downloads), written with its usage record. */
export const knownLogCategories = ['audit', 'request', 'client', 'call', 'connections'] as const;

/**
 * Counting matches stops here: beyond it the list says "more than" instead of scanning every record. 1,000 (not
 * 10,000): counting a common word's first 10,001 matches cost more than the whole rest of the call (decision 114).
 */
export const LOG_COUNT_LIMIT = 1_000;
/** The most characters of a message a list row carries; the record's own call gives all of it. */
export const LOG_LIST_MESSAGE_MAX = 500;

export const logPeriodMessage = 'To must not be before From';

export const applicationLogQuery = pageQuery
  .extend({
    /** The lowest level shown: `warn` shows warnings and errors. */
    level: logLevel.optional(),
    category: text(64).pipe(z.string().min(1)).optional(),
    from: isoDateTime.optional(),
    to: isoDateTime.optional(),
    /** Text the message contains, case-insensitively. */
    search: text(200).optional(),
    userId: z.coerce.number().int().positive().optional(),
    requestId: text(128).pipe(z.string().min(1)).optional(),
  })
  .superRefine((query, context) => {
    if (query.from && query.to && query.to < query.from)
      context.addIssue({ code: 'custom', path: ['to'], message: logPeriodMessage });
  });
export type ApplicationLogQuery = z.input<typeof applicationLogQuery>;

const logUser = z.object({ id: z.number().int(), name: z.string(), username: z.string().nullable() });

export const applicationLogItem = z.object({
  id: z.number().int(),
  createdAt: isoDateTime,
  level: logLevel,
  category: z.string(),
  /** At most LOG_LIST_MESSAGE_MAX characters; `messageTruncated` says when more is in the record. */
  message: z.string(),
  messageTruncated: z.boolean(),
  requestId: z.string().nullable(),
  /** The signed-in caller the record is about; null for anonymous requests and background work. */
  user: logUser.nullable(),
});
export type ApplicationLogItem = z.infer<typeof applicationLogItem>;

export const applicationLogPage = pageOf(applicationLogItem).extend({
  /** True when more records match than were counted (totalCount is then LOG_COUNT_LIMIT). */
  isCountCapped: z.boolean(),
});
export type ApplicationLogPage = z.infer<typeof applicationLogPage>;

export const applicationLogRecord = applicationLogItem.extend({
  /** What the writer attached: for requests method, url and stack; for audits actor, action, target, before, after. */
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type ApplicationLogRecord = z.infer<typeof applicationLogRecord>;

export const getApplicationLogs = defineCall({
  method: 'GET',
  path: '/api/ApplicationLog/GetApplicationLogs',
  tag: 'ApplicationLog',
  summary:
    'Application-log records, newest first, filtered by lowest level, category, period, message text, user and ' +
    `request id (canManageUsers); matches are counted up to ${LOG_COUNT_LIMIT}`,
  query: applicationLogQuery,
  response: applicationLogPage,
});

export const getApplicationLog = defineCall({
  method: 'GET',
  path: '/api/ApplicationLog/:id',
  tag: 'ApplicationLog',
  summary: 'One application-log record with its details (canManageUsers)',
  params: z.object({ id: z.coerce.number().int().positive() }),
  response: applicationLogRecord,
});
