import type { UserGroupDetail } from '@datalab/contract/api/user-groups';
import type { SortDirection } from '@datalab/contract/paging';
import type { Database } from '../../db/database.ts';
import { nameConflict, notFound } from '../../lib/errors.ts';
import { changeAccess, type Actor } from '../access/change-access.service.ts';
import { collectionsOwnedThrough, keepingOwners, refusingSelfRaise } from '../access/invariants.service.ts';
import { presentSummary } from './presenter.ts';
import {
  childrenOf,
  deleteGroupRow,
  findGroup,
  findGroupByName,
  findUserName,
  groupRolesForAudit,
  groupsWithCounts,
  insertGroup,
  isMember,
  listGroupPage,
  membersOf,
  parentsOf,
  setMembership,
  updateGroupRow,
} from './repository.ts';

// User groups: naming, membership and deletion. Nesting is in nesting-service.ts. Only holders of
// canManageUsers reach these (declared on the routes).

export async function groupOr404(db: Database, id: number) {
  const group = await findGroup(db, id);
  if (!group) throw notFound('User group', id);
  return group;
}

export async function groupDetail(db: Database, id: number): Promise<UserGroupDetail> {
  const row = await groupsWithCounts(db).where('user_groups.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('User group', id);
  const [parents, children] = await Promise.all([parentsOf(db, id), childrenOf(db, id)]);
  return { ...presentSummary(row), parents, children: children.map((c) => ({ id: c.id, name: c.name })) };
}

export async function listGroups(
  db: Database,
  options: {
    search?: string | undefined;
    page: number;
    pageSize: number;
    sortBy: 'name' | 'memberCount' | 'createdAt';
    sortDirection: SortDirection;
  },
) {
  const { rows, total } = await listGroupPage(db, options);
  return { items: rows.map(presentSummary), totalCount: total, page: options.page, pageSize: options.pageSize };
}

async function assertNameFree(db: Database, name: string, exceptId?: number) {
  const existing = await findGroupByName(db, name);
  if (existing && existing.id !== exceptId) throw nameConflict('User group', name.trim());
}

// Creating and renaming go through changeAccess too: COLLECTION_CREATOR_GROUPS names groups.
export async function createGroup(actor: Actor, input: { name: string; description: string }) {
  const id = await changeAccess(actor, async (trx) => {
    await assertNameFree(trx, input.name);
    const row = await insertGroup(trx, { ...input, at: new Date().toISOString() });
    await actor.audit(
      { action: 'userGroup.create', target: { type: 'userGroup', id: row.id, name: input.name }, after: input },
      trx,
    );
    return row.id;
  });
  return groupDetail(actor.db, id);
}

export async function renameGroup(actor: Actor, id: number, input: { name: string; description: string }) {
  await changeAccess(actor, async (trx) => {
    const group = await groupOr404(trx, id);
    await assertNameFree(trx, input.name, id);
    await updateGroupRow(trx, id, { ...input, at: new Date().toISOString() });
    const before = { name: group.name, description: group.description };
    await actor.audit(
      { action: 'userGroup.update', target: { type: 'userGroup', id, name: input.name }, before, after: input },
      trx,
    );
  });
  return groupDetail(actor.db, id);
}

export async function deleteGroup(actor: Actor, id: number) {
  await changeAccess(actor, async (trx) => {
    const detail = await groupDetail(trx, id);
    const [members, roles] = await Promise.all([membersOf(trx, id), groupRolesForAudit(trx, id)]);
    // Ownership can come through this group (or a group it is nested in): keep every collection owned.
    await keepingOwners(trx, await collectionsOwnedThrough(trx, [id]), () => deleteGroupRow(trx, id));
    const before = { ...detail, members: members.map((m) => m.id), roles };
    await actor.audit(
      { action: 'userGroup.delete', target: { type: 'userGroup', id, name: detail.name }, before },
      trx,
    );
  });
  return { id, deleted: true as const };
}

/** Adds or removes a member. Adding may not raise the actor's own role; removing keeps every collection owned. */
export async function changeMembership(actor: Actor, groupId: number, userId: number, member: boolean) {
  await changeAccess(actor, async (trx) => {
    const group = await groupOr404(trx, groupId);
    const user = await findUserName(trx, userId);
    if (!user) throw notFound('User', userId);
    if ((await isMember(trx, groupId, userId)) === member) return;
    const change = () => setMembership(trx, groupId, userId, member);
    if (member) await refusingSelfRaise(trx, actor.user.id, change);
    else await keepingOwners(trx, await collectionsOwnedThrough(trx, [groupId]), change);
    await actor.audit(
      {
        action: member ? 'userGroup.addMember' : 'userGroup.removeMember',
        target: { type: 'userGroup', id: groupId, name: group.name },
        before: { member: !member, user: { id: user.id, name: user.name } },
        after: { member, user: { id: user.id, name: user.name } },
      },
      trx,
    );
  });
  return membersOf(actor.db, groupId);
}

/** Read straight from the store: routes and plugins reach the repository through this service. */
export { childrenOf, membersOf, searchGroupRefs } from './repository.ts';
