import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { AppLog } from '../application-logs/writer.service.ts';
import type { AuthUser } from '../../lib/auth-user.ts';

// Every change to collections, roles, memberships and permissions is written to the application
// log: who, what, and the values before and after. Written in the change's own transaction, so an
// audit record exists exactly when the change does.

export interface AuditEntry {
  action: string;
  target: { type: string; id: string | number; name?: string };
  before?: unknown;
  after?: unknown;
}

/** Writes one audit record for the request's actor, inside the given transaction. */
export type AuditWriter = (entry: AuditEntry, db: Database) => Promise<void>;

export function auditWriter(appLog: AppLog, requestId: string, actor: AuthUser): AuditWriter {
  return (entry, db) =>
    appLog.write(
      {
        level: 'info',
        category: 'audit',
        message: `${entry.action} ${entry.target.type} ${entry.target.name ?? entry.target.id}`,
        requestId,
        userId: actor.id,
        details: {
          actor: { id: actor.id, name: actor.name, username: actor.username },
          action: entry.action,
          target: entry.target,
          before: entry.before ?? null,
          after: entry.after ?? null,
        },
      },
      db,
    );
}

export async function audit(
  app: FastifyInstance,
  request: FastifyRequest,
  actor: AuthUser,
  entry: AuditEntry,
  db: Database,
) {
  await auditWriter(app.appLog, request.id, actor)(entry, db);
}
