import { redactDeep, redactSecrets } from '@datalab/contract/redact';
import type { Database } from '../../db/database.ts';
import type { ApplicationLogsTable } from '../../db/schema.ts';
import { insertLog } from './repository.ts';

// Writing application-log records (product §12); plugins/app-log.ts hands one writer to the app as `app.appLog`.
// No record keeps a token secret: message and details are redacted here, whoever wrote them.

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

/** The writer over the app's store (or the transaction a caller passes). */
export function createAppLog(store: Database): AppLog {
  return {
    async write(entry, db = store) {
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
}
