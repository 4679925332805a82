import { allowedHostsList, webApiConnectionLimits } from '@datalab/contract/web-api-limits';
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
  allowedHosts: allowedHostsList.default([]),
  credentials: credentialsSchema.default([]),
  ...webApiConnectionLimits,
  /** Paging stops after this many rows. */
  maxRows: z.number().int().min(1).max(10_000_000).default(100_000),
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
