import { z } from 'zod';
import { credentialsSchema } from './credentials.ts';
import { headersSchema } from './template.ts';

// A Web API connection's settings. The credentials' secrets are only ever put on requests to the base URL's origin.

export const httpSettingsSchema = z.object({
  baseUrl: z
    .url({ protocol: /^https?$/ })
    .refine((u) => !u.includes('#'), 'The base URL cannot have a fragment')
    .refine((u) => {
      const url = new URL(u);
      return url.username === '' && url.password === '';
    }, 'The base URL cannot carry a user name or password; use a credential'),
  /** Sent with every request (a data source's headers override them). */
  headers: headersSchema.default({}),
  /** Hosts reachable even when internal: 'host' (any port) or 'host:port'. */
  allowedHosts: z.array(z.string().min(1).max(300)).max(50).default([]),
  credentials: credentialsSchema.default([]),
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
  /** Paging stops after this many rows. */
  maxRows: z.number().int().min(1).max(10_000_000).default(100_000),
  maxPages: z.number().int().min(1).max(100_000).default(1_000),
  /** Concurrent runs (and sockets per upstream origin); more wait at the gate. */
  maxConnections: z.number().int().min(1).max(100).default(10),
  acquireTimeoutMs: z.number().int().min(1).max(60_000).default(2_000),
  /** Retries of GET, HEAD, PUT, DELETE and OPTIONS after a connect error or a 502/503/504. */
  retries: z.number().int().min(0).max(5).default(2),
  retryDelayMs: z.number().int().min(0).max(5_000).default(100),
  breaker: z
    .object({
      failureThreshold: z.number().int().min(1).max(1_000).default(5),
      cooldownMs: z.number().int().min(100).max(600_000).default(30_000),
    })
    .default({ failureThreshold: 5, cooldownMs: 30_000 }),
});

export type HttpSettings = z.input<typeof httpSettingsSchema>;
export type ParsedHttpSettings = z.output<typeof httpSettingsSchema>;
