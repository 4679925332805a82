import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createAppLog, type AppLog } from '../modules/application-logs/writer.service.ts';

// Application-log records live in the metadata store (product §12), where the log screen reads them.
// Pino's stream is for operators; these records are for administrators. No record keeps a token secret: message and
// details are redacted by the writer (modules/application-logs/writer.service.ts), whoever wrote them (a client error
// report, a failed request's URL, a connection test). Retention: plugins/app-log-retention.ts.

declare module 'fastify' {
  interface FastifyInstance {
    appLog: AppLog;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    app.decorate('appLog', createAppLog(app.db));
  },
  { name: 'app-log', dependencies: ['db'] },
);
