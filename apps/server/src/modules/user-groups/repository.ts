import { sql } from 'kysely';
import type { SortDirection } from '@datalab/contract/paging';
import type { Database } from '../../db/database.ts';
import { likeContains } from '../../db/like.ts';

// User groups: queries only.

export const nameKey = (name: string) => name.trim().toLowerCase();

export function groupsWithCounts(db: Database) {
  return db
    .selectFrom('user_groups')
    .selectAll('user_groups')
    .select((eb) => [
      eb
        .selectFrom('user_group_members as m')
        .whereRef('m.group_id', '=', 'user_groups.id')
        .select(eb.fn.countAll<number>().as('n'))
        .as('member_count'),
      eb
        .selectFrom('user_group_children as c')
        .whereRef('c.parent_id', '=', 'user_groups.id')
        .select(eb.fn.countAll<number>().as('n'))
        .as('child_count'),
      eb
        .selectFrom('user_group_children as p')
        .whereRef('p.child_id', '=', 'user_groups.id')
        .select(eb.fn.countAll<number>().as('n'))
        .as('parent_count'),
    ]);
}

export function findGroup(db: Database, id: number) {
  return db.selectFrom('user_groups').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findGroupByName(db: Database, name: string) {
  return db.selectFrom('user_groups').selectAll().where('name_key', '=', nameKey(name)).executeTakeFirst();
}

export function parentsOf(db: Database, id: number) {
  return db
    .selectFrom('user_group_children')
    .innerJoin('user_groups', 'user_groups.id', 'user_group_children.parent_id')
    .select(['user_groups.id', 'user_groups.name'])
    .where('user_group_children.child_id', '=', id)
    .orderBy('user_groups.name_key')
    .execute();
}

export function childrenOf(db: Database, id: number) {
  return groupsWithCounts(db)
    .innerJoin('user_group_children', 'user_group_children.child_id', 'user_groups.id')
    .where('user_group_children.parent_id', '=', id)
    .orderBy('user_groups.name_key')
    .execute();
}

export function membersOf(db: Database, id: number) {
  return db
    .selectFrom('user_group_members')
    .innerJoin('users', 'users.id', 'user_group_members.user_id')
    .select(['users.id', 'users.name', 'users.username', 'users.email'])
    .where('user_group_members.group_id', '=', id)
    .orderBy(sql`lower(users.name)`)
    .execute();
}

const SORT_COLUMNS = { name: 'name_key', memberCount: 'member_count', createdAt: 'created_at' } as const;

export async function listGroupPage(
  db: Database,
  options: {
    search?: string | undefined;
    page: number;
    pageSize: number;
    sortBy: keyof typeof SORT_COLUMNS;
    sortDirection: SortDirection;
  },
) {
  const search = options.search;
  const rows = db.selectFrom(groupsWithCounts(db).as('g')).selectAll('g');
  const filtered = search ? rows.where('g.name_key', 'like', likeContains(search)) : rows;
  const total = search
    ? db.selectFrom('user_groups').where('name_key', 'like', likeContains(search))
    : db.selectFrom('user_groups');
  const [page, count] = await Promise.all([
    filtered
      .orderBy(`g.${SORT_COLUMNS[options.sortBy]}`, options.sortDirection)
      .orderBy('g.id', options.sortDirection)
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize)
      .execute(),
    total.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: page, total: Number(count.n) };
}

export function searchGroupRefs(db: Database, search: string, limit?: number) {
  const query = db
    .selectFrom('user_groups')
    .select(['id', 'name'])
    .where('name_key', 'like', likeContains(search))
    .orderBy('name_key');
  return (limit === undefined ? query : query.limit(limit)).execute();
}

export function insertGroup(db: Database, values: { name: string; description: string; at: string }) {
  return db
    .insertInto('user_groups')
    .values({
      name: values.name,
      name_key: nameKey(values.name),
      description: values.description,
      created_at: values.at,
      updated_at: values.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export function updateGroupRow(db: Database, id: number, values: { name: string; description: string; at: string }) {
  return db
    .updateTable('user_groups')
    .set({ name: values.name, name_key: nameKey(values.name), description: values.description, updated_at: values.at })
    .where('id', '=', id)
    .execute();
}

export function deleteGroupRow(db: Database, id: number) {
  return db.deleteFrom('user_groups').where('id', '=', id).execute();
}

export function groupRolesForAudit(db: Database, id: number) {
  return db
    .selectFrom('collection_group_roles')
    .innerJoin('collections', 'collections.id', 'collection_group_roles.collection_id')
    .select(['collections.uid', 'collection_group_roles.role'])
    .where('group_id', '=', id)
    .execute();
}

export async function isMember(db: Database, groupId: number, userId: number) {
  return (
    (await db
      .selectFrom('user_group_members')
      .select('user_id')
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .executeTakeFirst()) !== undefined
  );
}

export async function setMembership(db: Database, groupId: number, userId: number, member: boolean): Promise<void> {
  if (member)
    await db
      .insertInto('user_group_members')
      .values({ group_id: groupId, user_id: userId, created_at: new Date().toISOString() })
      .execute();
  else
    await db.deleteFrom('user_group_members').where('group_id', '=', groupId).where('user_id', '=', userId).execute();
}

export async function setNesting(db: Database, parentId: number, childId: number, nested: boolean): Promise<void> {
  if (nested)
    await db
      .insertInto('user_group_children')
      .values({ parent_id: parentId, child_id: childId, created_at: new Date().toISOString() })
      .execute();
  else
    await db
      .deleteFrom('user_group_children')
      .where('parent_id', '=', parentId)
      .where('child_id', '=', childId)
      .execute();
}

export function findUserName(db: Database, id: number) {
  return db.selectFrom('users').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
}
