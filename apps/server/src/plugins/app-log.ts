import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/database.ts';
import type { ApplicationLogsTable } from '../db/schema.ts';
import { deleteLogsBefore, insertLog } from '../modules/application-logs/repository.ts';

// Application-log records live in the metadata store (DESIGN §3), where the log screen reads them.
// Pino's stream is for operators; these records are for administrators.

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
  purgeExpired(now?: Date): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    appLog: AppLog;
  }
}

const DAY_MS = 86_400_000;

export default fp(
  async (app: FastifyInstance) => {
    const retentionMs = app.config.appLogRetentionDays * DAY_MS;
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
      async purgeExpired(now = new Date()) {
        const result = await deleteLogsBefore(app.db, new Date(now.getTime() - retentionMs).toISOString());
        return Number(result.numDeletedRows);
      },
    };
    app.decorate('appLog', appLog);

    const timer = setInterval(() => {
      appLog
        .purgeExpired()
        .catch((error: unknown) => app.log.error({ err: error }, 'application log retention failed'));
    }, DAY_MS / 24);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'app-log', dependencies: ['db'] },
);
