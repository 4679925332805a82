import { z } from 'zod';
import { defineCall } from '../call.ts';
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
