import { reportClientError } from '@datalab/contract/api/application-logs';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/route.ts';

export default async function applicationLogRoutes(app: FastifyInstance) {
  route(app, reportClientError, async ({ request, user, body }) => {
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
