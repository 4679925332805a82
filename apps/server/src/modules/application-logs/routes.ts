import { getApplicationLog, getApplicationLogs, reportClientError } from '@datalab/contract/api/application-logs';
import type { FastifyInstance } from 'fastify';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { payloadTooLarge, rateLimited } from '../../lib/errors.ts';
import { route } from '../../routing/route.ts';
import { getLog, listLogs } from './service.ts';

// Anyone signed in can write to the application log here, so each address gets a small budget and
// a report a small size: a broken page in a loop, or a script, cannot flood the log.

export const CLIENT_ERROR_BODY_LIMIT = 64 * 1024;
export const CLIENT_ERRORS_PER_MINUTE = 10;

export default async function applicationLogRoutes(parent: FastifyInstance) {
  await parent.register(clientErrorRoutes);
  await parent.register(logReadingRoutes);
}

async function logReadingRoutes(app: FastifyInstance) {
  route(app, getApplicationLogs, { permission: 'canManageUsers' }, async ({ query }) => listLogs(app.db, query));
  route(app, getApplicationLog, { permission: 'canManageUsers' }, async ({ params }) => getLog(app.db, params.id));
}

async function clientErrorRoutes(app: FastifyInstance) {
  const bodyLimit = Math.min(CLIENT_ERROR_BODY_LIMIT, app.initialConfig.bodyLimit ?? CLIENT_ERROR_BODY_LIMIT);
  const limiter = app.createRateLimiter({ keyPrefix: 'client-errors', points: CLIENT_ERRORS_PER_MINUTE, duration: 60 });
  app.addHook('onRequest', async (request) => {
    if (Number(request.headers['content-length'] ?? 0) > bodyLimit) throw payloadTooLarge(bodyLimit);
    try {
      await limiter.consume(request.ip);
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) throw rateLimited(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)));
      throw refusal;
    }
  });
  // A body sent without a length is cut at the same limit while it is read.
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit },
    app.getDefaultJsonParser('error', 'error'),
  );

  route(app, reportClientError, { signedIn: true }, async ({ request, user, body }) => {
    await app.appLog.write({
      level: 'error',
      category: 'client',
      message: body.message,
      requestId: request.id,
      userId: user.id,
      details: { path: body.path, stack: body.stack, componentStack: body.componentStack },
    });
    return { requestId: request.id };
  });
}
