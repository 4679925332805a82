import { z } from 'zod';

// What a Web API run sent upstream and what came back, secrets masked: shown by Try, the connection tests and the
// calling layer's developer view (EXCHANGE_HEADER). Part of the Web API contract (web-api.ts re-exports it).

/** At most this many exchanges are sent back (a paged run may make hundreds); the rest are counted. */
export const MAX_EXCHANGES_SHOWN = 20;

/** One upstream request and its reply, secrets masked (the engine's HttpExchange). */
export const httpExchange = z.object({
  /** 'request': the data request (its redirects, pages and retries); 'token': an OAuth2 token request; 'test'. */
  kind: z.enum(['request', 'token', 'test']),
  /** 1 for the first try, 2 and more for retries. */
  attempt: z.number().int(),
  method: z.string(),
  url: z.string(),
  requestHeaders: z.record(z.string(), z.string()),
  /** The data request's body; never shown for a token request. */
  requestBody: z.string().optional(),
  /** Absent when no reply came (refused, unreachable, timed out). */
  status: z.number().int().optional(),
  replyHeaders: z.record(z.string(), z.string()).optional(),
  /** The start of the reply when it was an error or not JSON. */
  replyPreview: z.string().optional(),
  timings: z.object({
    dnsMs: z.number().optional(),
    /** Absent when a kept-alive connection was reused. */
    connectMs: z.number().optional(),
    headersMs: z.number().optional(),
    bodyMs: z.number().optional(),
    totalMs: z.number(),
  }),
  bytes: z.object({ sent: z.number().int(), received: z.number().int() }),
  /** Why it failed, when it did. */
  error: z.string().optional(),
});
export type HttpExchangeView = z.infer<typeof httpExchange>;

/** The exchanges of one run: the first MAX_EXCHANGES_SHOWN, and how many more there were. */
export const exchangeList = z.object({
  exchanges: z.array(httpExchange),
  exchangesOmitted: z.number().int(),
});

/**
 * The calling layer's developer view: a JSON call (/data/v1/{uid}, format json) sent with this request header
 * (value '1') answers its usual members plus `exchanges` and `exchangesOmitted` (exchangeList) — the upstream
 * requests of a Web API asset's run, secrets masked; empty for a SQL asset and for a reply served from the cache
 * (`cached: true`). Exports ignore it. Anyone who may call the asset may ask.
 */
export const EXCHANGE_HEADER = 'x-datalab-exchange';
export const callResultWithExchanges = z.object({
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.record(z.string(), z.unknown())),
  truncated: z.boolean(),
  durationMs: z.number(),
  cached: z.boolean(),
  exchanges: z.array(httpExchange),
  exchangesOmitted: z.number().int(),
});
export type CallResultWithExchanges = z.infer<typeof callResultWithExchanges>;

/** An upstream failure reported inside a reply (Try and tests), rather than as an error reply. */
export const upstreamFailure = z.object({
  /** The status the calling layer would answer: 400 (refused by the outbound guard), 502, 503 or 504. */
  status: z.number().int(),
  /** The safe message (no secret), e.g. 'The web API answered with status 500'. */
  message: z.string(),
});
