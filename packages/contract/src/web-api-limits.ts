import { z } from 'zod';

// The limits of a Web API connection, one definition for the management API (what an Owner may save) and the engine
// (what a run accepts): timeouts, reply size, pages, concurrency and retries, with their defaults.

export const webApiConnectionLimits = {
  connectTimeoutMs: z.number().int().min(100).max(60_000).default(5_000),
  /** Until the reply's headers. */
  headersTimeoutMs: z.number().int().min(100).max(300_000).default(15_000),
  /** For the whole body, once the headers are in. */
  bodyTimeoutMs: z.number().int().min(100).max(600_000).default(30_000),
  /** One reply's size, after decompression. */
  maxReplyBytes: z
    .number()
    .int()
    .min(1024)
    .max(512 * 1024 * 1024)
    .default(16 * 1024 * 1024),
  maxPages: z.number().int().min(1).max(100_000).default(1_000),
  /** Concurrent runs (and sockets per upstream origin); more wait at the gate for acquireTimeoutMs. */
  maxConnections: z.number().int().min(1).max(100).default(10),
  acquireTimeoutMs: z.number().int().min(1).max(60_000).default(2_000),
  /** Retries of GET, HEAD, PUT, DELETE and OPTIONS after a connect error or a 502/503/504. */
  retries: z.number().int().min(0).max(5).default(2),
} as const;

/** Hosts reachable even when internal: 'host' (any port) or 'host:port'. At most 50 entries. */
export const allowedHostsList = z.array(z.string().trim().min(1).max(300)).max(50);
