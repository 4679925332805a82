import { sql } from 'kysely';
import { MAX_GROUP_DEPTH } from '@datalab/contract/api/user-groups';
import type { Database } from '../../db/database.ts';
import type { RoleName } from '../../db/schema.ts';

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

export const roleFromRank = (rank: number | null | undefined): RoleName | null =>
  rank === 3 ? 'Owner' : rank === 2 ? 'Editor' : rank === 1 ? 'Reader' : null;
