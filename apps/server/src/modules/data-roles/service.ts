import { roleRank, strongestRole, type DataRole, type GroupDataRoles, type UserDataRoles } from '@datalab/contract/api/data-roles';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.ts';
import { lockFor } from '../../db/locks.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { lastOwnerMessage } from '../access/policy.ts';
import { audit } from '../audit/audit.ts';
import { loadCollection } from '../collections/service.ts';
import { currentRole, grantsReachingUser, groupRoles, ownerCount, setRole } from './repository.ts';

export async function findUserOr404(db: Database, id: number) {
  const user = await db.selectFrom('users').select(['id', 'name', 'username']).where('id', '=', id).executeTakeFirst();
  if (!user) throw notFound('User', id);
  return user;
}

export async function findGroupOr404(db: Database, id: number) {
  const group = await db.selectFrom('user_groups').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  if (!group) throw notFound('User group', id);
  return group;
}

export async function userDataRoles(db: Database, userId: number): Promise<UserDataRoles> {
  const user = await findUserOr404(db, userId);
  const grants = await grantsReachingUser(db, userId);
  const byCollection = new Map<number, UserDataRoles['roles'][number]>();
  for (const grant of grants) {
    const entry = byCollection.get(grant.collection_id) ?? {
      collection: { uid: grant.uid, name: grant.collection_name },
      role: grant.role,
      directRole: null,
      viaGroups: [],
    };
    if (grant.group_id === null) entry.directRole = grant.role;
    else if (grant.group_name !== null && !entry.viaGroups.some((g) => g.id === grant.group_id)) entry.viaGroups.push({ id: grant.group_id, name: grant.group_name, role: grant.role });
    entry.role = strongestRole([entry.role, grant.role]) ?? grant.role;
    byCollection.set(grant.collection_id, entry);
  }
  const roles = [...byCollection.values()].sort((a, b) => a.collection.name.localeCompare(b.collection.name));
  return { user, roles };
}

export async function groupDataRoles(db: Database, groupId: number): Promise<GroupDataRoles> {
  const group = await findGroupOr404(db, groupId);
  const rows = await groupRoles(db, groupId);
  return { group, roles: rows.map((row) => ({ collection: { uid: row.uid, name: row.name }, role: row.role })) };
}

type Subject = { kind: 'user'; id: number } | { kind: 'group'; id: number };

/**
 * Grants or withdraws one role, as one transaction with its audit record. Only those who manage the
 * collection's roles may; nobody raises their own role (lowering it is allowed); the last Owner stays.
 */
export async function changeRole(
  app: FastifyInstance,
  request: FastifyRequest,
  actor: AuthUser,
  subject: Subject,
  input: { collectionUid: string; role: DataRole | null },
) {
  const target = subject.kind === 'user' ? await findUserOr404(app.db, subject.id) : await findGroupOr404(app.db, subject.id);
  const { collection } = await loadCollection(app, actor, input.collectionUid, 'manageRoles');
  await app.db.transaction().execute(async (trx) => {
    await lockFor(trx, `collection-roles:${collection.id}`);
    const before = await currentRole(trx, collection.id, subject);
    if (before === input.role) return;
    const raisesOwn = subject.kind === 'user' && subject.id === actor.id && (before === null || (input.role !== null && roleRank[input.role] > roleRank[before]));
    if (raisesOwn) throw forbidden();
    await setRole(trx, collection.id, subject, input.role, new Date().toISOString());
    await app.access.bump(trx);
    if (before === 'Owner' && (await ownerCount(trx, collection.id)) === 0) {
      throw new AppError({ status: 400, code: 'validation', title: lastOwnerMessage, errors: { role: [lastOwnerMessage] } });
    }
    await audit(
      app,
      request,
      actor,
      {
        action: input.role ? 'dataRole.grant' : 'dataRole.withdraw',
        target: { type: subject.kind === 'user' ? 'user' : 'userGroup', id: subject.id, name: target.name },
        before: { collection: collection.uid, role: before },
        after: { collection: collection.uid, role: input.role },
      },
      trx,
    );
  });
}

