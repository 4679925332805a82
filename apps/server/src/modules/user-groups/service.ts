import { MAX_GROUP_DEPTH, type HierarchyNode, type UserGroupDetail, type UserGroupSummary } from '@datalab/contract/api/user-groups';
import { messages } from '@datalab/contract/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { AppError, nameConflict, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { audit } from '../audit/audit.ts';
import { lockFor } from '../../db/locks.ts';
import { childrenOf, findGroup, findGroupByName, groupsWithCounts, membersOf, nameKey, parentsOf, reachableEdges } from './repository.ts';

type GroupRow = Awaited<ReturnType<ReturnType<typeof groupsWithCounts>['execute']>>[number];

export const presentSummary = (row: GroupRow): UserGroupSummary => ({
  id: row.id,
  name: row.name,
  description: row.description,
  memberCount: Number(row.member_count),
  childCount: Number(row.child_count),
  parentCount: Number(row.parent_count),
  createdAt: new Date(row.created_at),
});

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

export async function listGroups(db: Database, options: { search?: string | undefined; page: number; pageSize: number }) {
  let query = groupsWithCounts(db);
  let total = db.selectFrom('user_groups');
  if (options.search) {
    const pattern = `%${options.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where('user_groups.name_key', 'like', sql<string>`${pattern} escape '\\'`);
    total = total.where('user_groups.name_key', 'like', sql<string>`${pattern} escape '\\'`);
  }
  const [rows, count] = await Promise.all([
    query.orderBy('user_groups.name_key').limit(options.pageSize).offset((options.page - 1) * options.pageSize).execute(),
    total.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(presentSummary), totalCount: Number(count.n), page: options.page, pageSize: options.pageSize };
}

export async function createGroup(app: FastifyInstance, request: FastifyRequest, actor: AuthUser, input: { name: string; description: string }) {
  const id = await app.db.transaction().execute(async (trx) => {
    if (await findGroupByName(trx, input.name)) throw nameConflict('User group', input.name);
    const at = new Date().toISOString();
    const row = await trx
      .insertInto('user_groups')
      .values({ name: input.name, name_key: nameKey(input.name), description: input.description, created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await audit(app, request, actor, { action: 'userGroup.create', target: { type: 'userGroup', id: row.id, name: input.name }, after: input }, trx);
    return row.id;
  });
  return groupDetail(app.db, id);
}

export async function deleteGroup(app: FastifyInstance, request: FastifyRequest, actor: AuthUser, id: number) {
  await app.db.transaction().execute(async (trx) => {
    const detail = await groupDetail(trx, id);
    const [members, roles] = await Promise.all([
      membersOf(trx, id),
      trx.selectFrom('collection_group_roles').innerJoin('collections', 'collections.id', 'collection_group_roles.collection_id').select(['collections.uid', 'collection_group_roles.role']).where('group_id', '=', id).execute(),
    ]);
    await trx.deleteFrom('user_groups').where('id', '=', id).execute();
    await app.access.bump(trx);
    await audit(app, request, actor, {
      action: 'userGroup.delete',
      target: { type: 'userGroup', id, name: detail.name },
      before: { ...detail, members: members.map((m) => m.id), roles },
    }, trx);
  });
  return { id, deleted: true as const };
}

export async function changeMembership(app: FastifyInstance, request: FastifyRequest, actor: AuthUser, groupId: number, userId: number, member: boolean) {
  await app.db.transaction().execute(async (trx) => {
    const group = await groupOr404(trx, groupId);
    const user = await trx.selectFrom('users').select(['id', 'name']).where('id', '=', userId).executeTakeFirst();
    if (!user) throw notFound('User', userId);
    const existing = await trx.selectFrom('user_group_members').select('user_id').where('group_id', '=', groupId).where('user_id', '=', userId).executeTakeFirst();
    if (Boolean(existing) === member) return;
    if (member) await trx.insertInto('user_group_members').values({ group_id: groupId, user_id: userId, created_at: new Date().toISOString() }).execute();
    else await trx.deleteFrom('user_group_members').where('group_id', '=', groupId).where('user_id', '=', userId).execute();
    await app.access.bump(trx);
    await audit(app, request, actor, {
      action: member ? 'userGroup.addMember' : 'userGroup.removeMember',
      target: { type: 'userGroup', id: groupId, name: group.name },
      before: { member: !member, user: { id: user.id, name: user.name } },
      after: { member, user: { id: user.id, name: user.name } },
    }, trx);
  });
  return membersOf(app.db, groupId);
}

const maxDepthReached = (detail: string) =>
  new AppError({ status: 400, code: 'validation', title: messages.maxDepthReached, detail, errors: { childId: [messages.maxDepthReached] } });

/** Longest chain of groups, counted in groups, from `edges` starting at `start`. */
function longestChain(start: number, edges: { parent_id: number; child_id: number }[], direction: 'up' | 'down'): number {
  const next = new Map<number, number[]>();
  for (const e of edges) {
    const [from, to] = direction === 'up' ? [e.child_id, e.parent_id] : [e.parent_id, e.child_id];
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const walk = (id: number, seen: Set<number>): number => {
    let best = 0;
    for (const to of next.get(id) ?? []) if (!seen.has(to)) best = Math.max(best, walk(to, new Set(seen).add(to)));
    return best + 1;
  };
  return walk(start, new Set([start]));
}

export async function changeNesting(app: FastifyInstance, request: FastifyRequest, actor: AuthUser, parentId: number, childId: number, nested: boolean) {
  await app.db.transaction().execute(async (trx) => {
    await lockFor(trx, 'user-group-nesting');
    const parent = await groupOr404(trx, parentId);
    const child = await groupOr404(trx, childId);
    const existing = await trx.selectFrom('user_group_children').select('child_id').where('parent_id', '=', parentId).where('child_id', '=', childId).executeTakeFirst();
    if (Boolean(existing) === nested) return;
    if (nested) {
      if (parentId === childId) throw maxDepthReached(`A group cannot contain itself.`);
      const [up, down] = await Promise.all([reachableEdges(trx, parentId, 'up'), reachableEdges(trx, childId, 'down')]);
      if (up.some((e) => e.parent_id === childId) || down.some((e) => e.child_id === parentId)) {
        throw maxDepthReached(`${child.name} already contains ${parent.name}: nesting it there would make a cycle.`);
      }
      const depth = longestChain(parentId, up, 'up') + longestChain(childId, down, 'down');
      if (depth > MAX_GROUP_DEPTH) {
        throw maxDepthReached(`Groups nest at most ${MAX_GROUP_DEPTH} deep; this would make a chain of ${depth}.`);
      }
      await trx.insertInto('user_group_children').values({ parent_id: parentId, child_id: childId, created_at: new Date().toISOString() }).execute();
    } else {
      await trx.deleteFrom('user_group_children').where('parent_id', '=', parentId).where('child_id', '=', childId).execute();
    }
    await app.access.bump(trx);
    await audit(app, request, actor, {
      action: nested ? 'userGroup.nest' : 'userGroup.unnest',
      target: { type: 'userGroup', id: parentId, name: parent.name },
      before: { child: { id: child.id, name: child.name }, nested: !nested },
      after: { child: { id: child.id, name: child.name }, nested },
    }, trx);
  });
  return (await childrenOf(app.db, parentId)).map(presentSummary);
}

function trees(root: number, edges: { parent_id: number; child_id: number; parent_name: string; child_name: string }[], direction: 'up' | 'down'): HierarchyNode[] {
  const names = new Map<number, string>();
  const next = new Map<number, number[]>();
  for (const e of edges) {
    names.set(e.parent_id, e.parent_name);
    names.set(e.child_id, e.child_name);
    const [from, to] = direction === 'up' ? [e.child_id, e.parent_id] : [e.parent_id, e.child_id];
    if (!(next.get(from) ?? []).includes(to)) next.set(from, [...(next.get(from) ?? []), to]);
  }
  const build = (id: number, seen: Set<number>): HierarchyNode => ({
    id,
    name: names.get(id) ?? String(id),
    children: (next.get(id) ?? []).filter((to) => !seen.has(to)).map((to) => build(to, new Set(seen).add(to))).sort((a, b) => a.name.localeCompare(b.name)),
  });
  return build(root, new Set([root])).children;
}

export async function hierarchy(db: Database, id: number) {
  const group = await groupOr404(db, id);
  const [up, down] = await Promise.all([reachableEdges(db, id, 'up'), reachableEdges(db, id, 'down')]);
  return { group: { id: group.id, name: group.name }, ancestors: trees(id, up, 'up'), descendants: trees(id, down, 'down') };
}
