import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { redactDeep, redactSecrets } from '@datalab/contract/redact';
import type { Database } from '../db/database.ts';
import type { ApplicationLogsTable } from '../db/schema.ts';
import { insertLog } from '../modules/application-logs/repository.ts';

// Application-log records live in the metadata store (product §12), where the log screen reads them.
// Pino's stream is for operators; these records are for administrators. No record keeps a token secret: message and
// details are redacted here, whoever wrote them (a client error report, a failed request's URL, a connection test). Retention: plugins/app-log-retention.ts.

export interface AppLogEntry {
  level: ApplicationLogsTable['level'];
  category: string;
  message: string;
  requestId?: string | null;
  userId?: number | null;
  details?: Record<string, unknown>;
}

export interface AppLog {
  write(entry: AppLogEntry, db?: Database): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    appLog: AppLog;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const appLog: AppLog = {
      async write(entry, db = app.db) {
        await insertLog(db, {
          created_at: new Date().toISOString(),
          level: entry.level,
          category: entry.category,
          message: redactSecrets(entry.message),
          request_id: entry.requestId ?? null,
          user_id: entry.userId ?? null,
          details: entry.details ? JSON.stringify(redactDeep(entry.details)) : null,
        });
      },
    };
    app.decorate('appLog', appLog);
  },
  { name: 'app-log', dependencies: ['db'] },
);
