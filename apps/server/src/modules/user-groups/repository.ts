import { sql } from 'kysely';
import { MAX_GROUP_DEPTH } from '@datalab/contract/api/user-groups';
import type { Database } from '../../db/database.ts';

export const nameKey = (name: string) => name.trim().toLowerCase();

export function groupsWithCounts(db: Database) {
  return db
    .selectFrom('user_groups')
    .selectAll('user_groups')
    .select((eb) => [
      eb.selectFrom('user_group_members as m').whereRef('m.group_id', '=', 'user_groups.id').select(eb.fn.countAll<number>().as('n')).as('member_count'),
      eb.selectFrom('user_group_children as c').whereRef('c.parent_id', '=', 'user_groups.id').select(eb.fn.countAll<number>().as('n')).as('child_count'),
      eb.selectFrom('user_group_children as p').whereRef('p.child_id', '=', 'user_groups.id').select(eb.fn.countAll<number>().as('n')).as('parent_count'),
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

/** Edges reachable from a group going up (ancestors) or down (descendants), within the depth limit. */
export async function reachableEdges(db: Database, id: number, direction: 'up' | 'down') {
  const [from, to] = direction === 'up' ? (['child_id', 'parent_id'] as const) : (['parent_id', 'child_id'] as const);
  const rows = await db
    .withRecursive('walk(parent_id, child_id, depth)', (qb) =>
      qb
        .selectFrom('user_group_children')
        .select(['parent_id', 'child_id', sql<number>`1`.as('depth')])
        .where(from, '=', id)
        .union((qb2) =>
          qb2
            .selectFrom('user_group_children as e')
            .innerJoin('walk', `walk.${to}`, `e.${from}`)
            .select(['e.parent_id', 'e.child_id', sql<number>`walk.depth + 1`.as('depth')])
            .where('walk.depth', '<', MAX_GROUP_DEPTH + 1),
        ),
    )
    .selectFrom('walk')
    .innerJoin('user_groups as p', 'p.id', 'walk.parent_id')
    .innerJoin('user_groups as c', 'c.id', 'walk.child_id')
    .select(['walk.parent_id', 'walk.child_id', 'walk.depth', 'p.name as parent_name', 'c.name as child_name'])
    .execute();
  return rows.map((row) => ({ ...row, depth: Number(row.depth) }));
}
