import type { CollectionDataRoles, DataRole, GroupDataRoles, UserDataRoles } from '@datalab/contract/api/data-roles';
import type { Database } from '../../db/database.ts';
import type { Collection } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { changeAccess, type Actor } from '../access/change-access.service.ts';
import { grantsOf, groupGraph, userGroupPaths, walk } from '../access/group-graph.service.ts';
import { keepingOwners, refusingSelfRaise } from '../access/invariants.service.ts';
import { callerAccess } from '../access/policy.ts';
import { namedPath, presentCollectionRoles, presentUserRoles } from './presenter.ts';
import {
  currentRole,
  findGroupRefById,
  findUserRefById,
  groupRoles,
  groupRolesOnCollection,
  membersOfGroups,
  setRole,
  userRolesOnCollection,
} from './repository.ts';

// Data roles: who holds which role on which collection, and changing that. Who may ask or change is
// declared on the routes; these functions hold the rules that span rows.

/** For a change written in another module's access transaction (a definition's apply). */
export { setRole } from './repository.ts';

export type Subject = { kind: 'user'; id: number } | { kind: 'group'; id: number };

export async function findUserOr404(db: Database, id: number) {
  const user = await findUserRefById(db, id);
  if (!user) throw notFound('User', id);
  return user;
}

export async function findGroupOr404(db: Database, id: number) {
  const group = await findGroupRefById(db, id);
  if (!group) throw notFound('User group', id);
  return group;
}

/** A user's effective roles; `visible` limits them to collections the caller may see (an Owner granting a role). */
export async function userDataRoles(
  db: Database,
  userId: number,
  visible?: (collectionId: number) => boolean,
): Promise<UserDataRoles> {
  const user = await findUserOr404(db, userId);
  const [grants, { paths, names }] = await Promise.all([grantsOf(db, userId), userGroupPaths(db, userId)]);
  return {
    user,
    roles: presentUserRoles(visible ? grants.filter((g) => visible(g.collection_id)) : grants, paths, names),
  };
}

/**
 * What a caller may see of another user's roles: everything for administrators and oneself, else the
 * collections they hold a role on.
 */
export async function visibleCollections(
  actor: Actor,
  userId: number,
): Promise<((collectionId: number) => boolean) | undefined> {
  if (actor.user.canManageUsers || actor.user.id === userId) return undefined;
  const { ranks } = await callerAccess(actor.access, actor.user);
  return (collectionId) => ranks.has(collectionId);
}

export async function groupDataRoles(db: Database, groupId: number): Promise<GroupDataRoles> {
  const group = await findGroupOr404(db, groupId);
  const rows = await groupRoles(db, groupId);
  return { group, roles: rows.map((row) => ({ collection: { uid: row.uid, name: row.name }, role: row.role })) };
}

/** Users reaching a role through groups: one entry per user and granting group, by the shortest path. */
async function indirectUsers(
  db: Database,
  groups: readonly { id: number; role: DataRole }[],
): Promise<CollectionDataRoles['indirectUsers']> {
  if (groups.length === 0) return [];
  const { graph, names } = await groupGraph(db);
  const downFrom = new Map(groups.map((g) => [g.id, walk([g.id], graph.children)]));
  const members = await membersOfGroups(db, [...new Set([...downFrom.values()].flatMap((paths) => [...paths.keys()]))]);
  const entries: CollectionDataRoles['indirectUsers'] = [];
  for (const granting of groups) {
    const paths = downFrom.get(granting.id) ?? new Map<number, number[]>();
    const best = new Map<number, { member: (typeof members)[number]; path: number[] }>();
    for (const member of members) {
      const path = paths.get(member.group_id);
      const known = best.get(member.id);
      if (path && (!known || path.length < known.path.length)) best.set(member.id, { member, path });
    }
    for (const { member, path } of best.values()) {
      const user = { id: member.id, name: member.name, username: member.username };
      entries.push({ user, role: granting.role, path: namedPath([...path].reverse(), names) });
    }
  }
  return entries.sort((a, b) => a.user.name.localeCompare(b.user.name) || a.path.length - b.path.length);
}

export async function collectionDataRoles(db: Database, collection: Collection): Promise<CollectionDataRoles> {
  const [users, groups] = await Promise.all([
    userRolesOnCollection(db, collection.id),
    groupRolesOnCollection(db, collection.id),
  ]);
  return presentCollectionRoles(collection, users, groups, await indirectUsers(db, groups));
}

/**
 * Grants or withdraws one role, as one transaction with its audit record. The route has checked the
 * actor manages the collection's roles; here: nobody raises their own effective role (lowering it is
 * allowed), and the collection keeps an Owner who is a person.
 */
export async function changeRole(actor: Actor, collection: Collection, subject: Subject, role: DataRole | null) {
  const target =
    subject.kind === 'user' ? await findUserOr404(actor.db, subject.id) : await findGroupOr404(actor.db, subject.id);
  await changeAccess(actor, async (trx) => {
    const before = await currentRole(trx, collection.id, subject);
    if (before === role) return;
    await keepingOwners(trx, [collection.id], () =>
      refusingSelfRaise(trx, actor.user.id, () => setRole(trx, collection.id, subject, role, new Date().toISOString())),
    );
    await actor.audit(
      {
        action: role ? 'dataRole.grant' : 'dataRole.withdraw',
        target: { type: subject.kind === 'user' ? 'user' : 'userGroup', id: subject.id, name: target.name },
        before: { collection: collection.uid, role: before },
        after: { collection: collection.uid, role },
      },
      trx,
    );
  });
}
