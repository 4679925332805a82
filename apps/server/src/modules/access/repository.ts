import { sql } from 'kysely';
import { MAX_GROUP_DEPTH } from '@datalab/contract/api/user-groups';
import type { Database } from '../../db/database.ts';
import type { RoleName } from '../../db/schema.ts';

// Queries of the access model. A member of a group is a member of every group that contains it,
// so a user's groups are their direct groups and all their ancestors (bounded by the depth limit).

export interface RoleGrant {
  collection_id: number;
  role: RoleName;
  /** null: the user's own role; otherwise the group it comes through. */
  group_id: number | null;
}

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

/** The grants behind a user's roles, optionally on one collection. */
export async function roleGrants(db: Database, userId: number, collectionId?: number): Promise<RoleGrant[]> {
  let direct = db
    .selectFrom('collection_user_roles')
    .select(['collection_id', 'role', sql<number | null>`null`.as('group_id')])
    .where('user_id', '=', userId);
  if (collectionId !== undefined) direct = direct.where('collection_id', '=', collectionId);
  let viaGroups = db
    .selectFrom('collection_group_roles')
    .select(['collection_id', 'role', 'group_id'])
    .where('group_id', 'in', userGroupsQuery(db, userId));
  if (collectionId !== undefined) viaGroups = viaGroups.where('collection_id', '=', collectionId);
  return direct.unionAll(viaGroups).execute();
}

/** SQL rank of a role column, for max() in queries: Owner 3, Editor 2, Reader 1. */
export const roleRankSql = (column: string) =>
  sql<number>`case ${sql.ref(column)} when 'Owner' then 3 when 'Editor' then 2 else 1 end`;

export const roleFromRank = (rank: number | null | undefined): RoleName | null =>
  rank === 3 ? 'Owner' : rank === 2 ? 'Editor' : rank === 1 ? 'Reader' : null;

/** collection id → the user's strongest role there, for every collection where they hold one. */
export function effectiveRolesQuery(db: Database, userId: number) {
  const direct = db
    .selectFrom('collection_user_roles')
    .select(['collection_id', roleRankSql('role').as('rank')])
    .where('user_id', '=', userId);
  const viaGroups = db
    .selectFrom('collection_group_roles')
    .select(['collection_id', roleRankSql('role').as('rank')])
    .where('group_id', 'in', userGroupsQuery(db, userId));
  return db
    .selectFrom(direct.unionAll(viaGroups).as('grants'))
    .select(['grants.collection_id', (eb) => eb.fn.max('grants.rank').as('rank')])
    .groupBy('grants.collection_id');
}
