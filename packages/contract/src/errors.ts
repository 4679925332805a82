import { z } from 'zod';

// Reply shapes of product §16. Every non-2xx reply of /api is one of these.

export const errorsMap = z.record(z.string(), z.array(z.string()));
export type ErrorsMap = z.infer<typeof errorsMap>;

export const problem = z.object({
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  code: z.string().optional(),
  requestId: z.string().optional(),
});
export type Problem = z.infer<typeof problem>;

export const validationProblem = problem.extend({
  status: z.literal(400),
  errors: errorsMap,
});
export type ValidationProblem = z.infer<typeof validationProblem>;

/** Stable codes carried by `code`, so clients need not parse titles. */
export const errorCodes = [
  'validation',
  'unauthenticated',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'rate_limited',
  'upstream',
  'upstream_timeout',
  'unavailable',
  'internal',
] as const;
export type ErrorCode = (typeof errorCodes)[number];
