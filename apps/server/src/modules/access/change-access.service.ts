import type { Database } from '../../db/database.ts';
import { lockFor } from '../../db/locks.ts';
import type { AuthUser } from '../../lib/auth-user.ts';
import type { AuditWriter } from '../audit/audit.ts';
import type { AccessModelCache } from './access-model.ts';

// The one way to change grants, memberships, nesting, collections or users: the change, its audit
// record and the access-version bump run in one transaction, so no writer can forget the bump
// (on the embedded store a missed bump would leave every cached access model stale).

/** What a service needs to change the access model on someone's behalf; no Fastify in sight. */
export interface Actor {
  db: Database;
  access: AccessModelCache;
  user: AuthUser;
  audit: AuditWriter;
}

/**
 * Runs `change` in a transaction that also bumps the access version, after the change succeeded.
 * Changes are serialised (one lock), so rules that span rows (the last Owner, the last
 * administrator, no cycles) hold when two arrive at once.
 */
export async function changeAccess<T>(
  actor: Pick<Actor, 'db' | 'access'>,
  change: (trx: Database) => Promise<T>,
): Promise<T> {
  return actor.db.transaction().execute(async (trx) => {
    await lockFor(trx, 'access-model');
    const result = await change(trx);
    await actor.access.bump(trx);
    return result;
  });
}
