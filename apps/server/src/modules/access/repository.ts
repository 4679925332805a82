import { sql } from 'kysely';
import { MAX_GROUP_DEPTH } from '@datalab/contract/api/user-groups';
import type { Database } from '../../db/database.ts';

// Queries of the access model. A member of a group is a member of every group that contains it,
// so a user's groups are their direct groups and all their ancestors (bounded by the depth limit).

/** Every group the user belongs to, directly or through nesting. */
export function userGroupsQuery(db: Database, userId: number) {
  return db
    .withRecursive('member_of(group_id, depth)', (qb) =>
      qb
        .selectFrom('user_group_members')
        .select(['group_id', sql<number>`0`.as('depth')])
        .where('user_id', '=', userId)
        .union((qb2) =>
          qb2
            .selectFrom('user_group_children')
            .innerJoin('member_of', 'member_of.group_id', 'user_group_children.child_id')
            .select(['user_group_children.parent_id as group_id', sql<number>`member_of.depth + 1`.as('depth')])
            .where('member_of.depth', '<', MAX_GROUP_DEPTH),
        ),
    )
    .selectFrom('member_of')
    .select('group_id')
    .distinct();
}

/** Every grant that reaches a user, read from the store (inside a changing transaction, it sees the change). */
export function grantsReachingUser(db: Database, userId: number) {
  const direct = db
    .selectFrom('collection_user_roles')
    .innerJoin('collections', 'collections.id', 'collection_user_roles.collection_id')
    .select([
      'collections.id as collection_id',
      'collections.uid',
      'collections.name as collection_name',
      'collection_user_roles.role',
    ])
    .select((eb) => [eb.val<number | null>(null).as('group_id'), eb.val<string | null>(null).as('group_name')])
    .where('collection_user_roles.user_id', '=', userId);
  const viaGroups = db
    .selectFrom('collection_group_roles')
    .innerJoin('collections', 'collections.id', 'collection_group_roles.collection_id')
    .innerJoin('user_groups', 'user_groups.id', 'collection_group_roles.group_id')
    .select([
      'collections.id as collection_id',
      'collections.uid',
      'collections.name as collection_name',
      'collection_group_roles.role',
    ])
    .select(['user_groups.id as group_id', 'user_groups.name as group_name'])
    .where('collection_group_roles.group_id', 'in', userGroupsQuery(db, userId));
  return direct.unionAll(viaGroups).execute();
}

/** The whole nesting graph and every group's name (small: groups are made by administrators). */
export async function loadGroupGraph(db: Database) {
  const [edges, groups] = await Promise.all([
    db.selectFrom('user_group_children').select(['parent_id', 'child_id']).execute(),
    db.selectFrom('user_groups').select(['id', 'name']).execute(),
  ]);
  return { edges, names: new Map(groups.map((g) => [g.id, g.name])) };
}

export function directGroupsOf(db: Database, userId: number) {
  return db.selectFrom('user_group_members').select('group_id').where('user_id', '=', userId).execute();
}

/** Owner grants on the given collections: users directly, and groups. */
export function ownerGrants(db: Database, collectionIds: readonly number[]) {
  if (collectionIds.length === 0) return Promise.resolve({ users: [], groups: [] });
  return Promise.all([
    db
      .selectFrom('collection_user_roles')
      .select(['collection_id', 'user_id'])
      .where('role', '=', 'Owner')
      .where('collection_id', 'in', [...collectionIds])
      .execute(),
    db
      .selectFrom('collection_group_roles')
      .select(['collection_id', 'group_id'])
      .where('role', '=', 'Owner')
      .where('collection_id', 'in', [...collectionIds])
      .execute(),
  ]).then(([users, groups]) => ({ users, groups }));
}

/** Collections where one of the groups holds Owner. */
export function collectionsOwnedByGroups(db: Database, groupIds: readonly number[]) {
  if (groupIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('collection_group_roles')
    .select('collection_id')
    .where('role', '=', 'Owner')
    .where('group_id', 'in', [...groupIds])
    .execute();
}

/** Groups (of those given) that have at least one direct member. */
export async function groupsWithMembers(db: Database, groupIds: readonly number[]): Promise<Set<number>> {
  if (groupIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('user_group_members')
    .select('group_id')
    .distinct()
    .where('group_id', 'in', [...groupIds])
    .execute();
  return new Set(rows.map((r) => r.group_id));
}

/** The ids of the groups with these name keys (lower-cased names). */
export const groupIdsByNameKey = (db: Database, nameKeys: readonly string[]) =>
  db.selectFrom('user_groups').select('id').where('name_key', 'in', nameKeys).execute();

/** Every nesting edge (a child group in a parent group). */
export const allGroupEdges = (db: Database) =>
  db.selectFrom('user_group_children').select(['parent_id', 'child_id']).execute();

/** Every role a group holds on a collection. */
export const allGroupRoles = (db: Database) =>
  db.selectFrom('collection_group_roles').select(['group_id', 'collection_id', 'role']).execute();

/** The groups a user is a direct member of. */
export const directGroupIdsOf = (db: Database, userId: number) =>
  db.selectFrom('user_group_members').select('group_id').where('user_id', '=', userId).execute();

/** The roles a user holds on collections in their own name. */
export const directRolesOf = (db: Database, userId: number) =>
  db.selectFrom('collection_user_roles').select(['collection_id', 'role']).where('user_id', '=', userId).execute();

/** The access model's version: one row that every change to access bumps (access-model.ts). */
export async function readAccessVersion(db: Database): Promise<number> {
  const row = await db.selectFrom('access_version').select('version').where('id', '=', 1).executeTakeFirst();
  return Number(row?.version ?? 0);
}

export async function bumpAccessVersion(db: Database): Promise<void> {
  await db
    .updateTable('access_version')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .execute();
}
