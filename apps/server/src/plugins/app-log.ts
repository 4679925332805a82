import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/database.ts';
import type { ApplicationLogsTable } from '../db/schema.ts';
import { insertLog } from '../modules/application-logs/repository.ts';

// Application-log records live in the metadata store (DESIGN §3), where the log screen reads them.
// Pino's stream is for operators; these records are for administrators. Retention: plugins/app-log-retention.ts.

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
          message: entry.message,
          request_id: entry.requestId ?? null,
          user_id: entry.userId ?? null,
          details: entry.details ? JSON.stringify(entry.details) : null,
        });
      },
    };
    app.decorate('appLog', appLog);
  },
  { name: 'app-log', dependencies: ['db'] },
);
