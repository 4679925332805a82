import { z } from 'zod';
import { defineCall } from '../call.ts';
import { isoDateTime } from '../dates.ts';
import { assetParams } from './asset-params.ts';

// Not in product §7 (docs/decisions.md): the developer-mode call screen's bound values, and the asset screen's recent
// calls.

/** One parameter as a call binds it: the value typed by the server's checks, never spliced into the SQL. */
export const parameterBinding = z.object({
  name: z.string(),
  /** The parameter's type ('integer', 'date', ...); a list binds every item with it. */
  type: z.string(),
  list: z.boolean(),
  /** As typed: numbers, decimals as exact text, dates as ISO text, booleans, lists; null when not given. */
  value: z.unknown(),
  /** Whether the SQL text uses it (`:name`); a parameter it does not use is checked but bound nowhere. */
  inSql: z.boolean(),
});
export type ParameterBinding = z.infer<typeof parameterBinding>;

export const postBoundValues = defineCall({
  method: 'POST',
  path: '/api/DataSource/:id/BoundValues',
  tag: 'DataSource',
  summary:
    'The values a call with this JSON body would bind, typed and checked as the calling layer does, without running anything (Reader)',
  params: assetParams,
  body: z.record(z.string(), z.unknown()),
  response: z.object({ bindings: z.array(parameterBinding) }),
});

export const MAX_RECENT_CALLS = 100;

export const recentCall = z.object({
  id: z.number().int(),
  at: isoDateTime,
  /** Null for a collection token's call (it acts for no person) or when the account no longer exists. */
  caller: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** Made with a Data Lab token rather than a portal sign-in. */
  viaToken: z.boolean(),
  status: z.number().int(),
  /** Rows written (0 for a PostgreSQL COPY export, which does not count them). */
  rows: z.number().int(),
  bytes: z.number().int(),
  durationMs: z.number().int(),
  cacheHit: z.boolean(),
  format: z.string(),
});
export type RecentCall = z.infer<typeof recentCall>;

export const getRecentCalls = defineCall({
  method: 'GET',
  path: '/api/DataSource/:id/RecentCalls',
  tag: 'DataSource',
  summary:
    "An asset's latest calls, newest first: a Reader's own; everyone's for its collection's Editors and Owners and for administrators",
  params: assetParams,
  query: z.object({ take: z.coerce.number().int().min(1).max(MAX_RECENT_CALLS).default(20) }),
  response: z.object({
    /** 'mine': the caller's own calls only; 'everyone': every caller's. */
    scope: z.enum(['mine', 'everyone']),
    items: z.array(recentCall),
  }),
});
