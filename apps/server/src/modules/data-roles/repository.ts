import type { Database } from '../../db/database.ts';
import type { RoleName } from '../../db/schema.ts';
import { userGroupsQuery } from '../access/repository.ts';

export function userRolesOnCollection(db: Database, collectionId: number) {
  return db
    .selectFrom('collection_user_roles')
    .innerJoin('users', 'users.id', 'collection_user_roles.user_id')
    .select(['users.id', 'users.name', 'users.username', 'collection_user_roles.role'])
    .where('collection_user_roles.collection_id', '=', collectionId)
    .orderBy('users.name')
    .execute();
}

export function groupRolesOnCollection(db: Database, collectionId: number) {
  return db
    .selectFrom('collection_group_roles')
    .innerJoin('user_groups', 'user_groups.id', 'collection_group_roles.group_id')
    .select(['user_groups.id', 'user_groups.name', 'collection_group_roles.role'])
    .where('collection_group_roles.collection_id', '=', collectionId)
    .orderBy('user_groups.name')
    .execute();
}

/** Every grant that reaches a user: their own, and those of all groups they belong to (with nesting). */
export function grantsReachingUser(db: Database, userId: number) {
  const direct = db
    .selectFrom('collection_user_roles')
    .innerJoin('collections', 'collections.id', 'collection_user_roles.collection_id')
    .select(['collections.id as collection_id', 'collections.uid', 'collections.name as collection_name', 'collection_user_roles.role'])
    .select((eb) => [eb.val<number | null>(null).as('group_id'), eb.val<string | null>(null).as('group_name')])
    .where('collection_user_roles.user_id', '=', userId);
  const viaGroups = db
    .selectFrom('collection_group_roles')
    .innerJoin('collections', 'collections.id', 'collection_group_roles.collection_id')
    .innerJoin('user_groups', 'user_groups.id', 'collection_group_roles.group_id')
    .select(['collections.id as collection_id', 'collections.uid', 'collections.name as collection_name', 'collection_group_roles.role'])
    .select(['user_groups.id as group_id', 'user_groups.name as group_name'])
    .where('collection_group_roles.group_id', 'in', userGroupsQuery(db, userId));
  return direct.unionAll(viaGroups).execute();
}

export function groupRoles(db: Database, groupId: number) {
  return db
    .selectFrom('collection_group_roles')
    .innerJoin('collections', 'collections.id', 'collection_group_roles.collection_id')
    .select(['collections.uid', 'collections.name', 'collection_group_roles.role'])
    .where('collection_group_roles.group_id', '=', groupId)
    .orderBy('collections.name_key')
    .execute();
}

type Subject = { kind: 'user'; id: number } | { kind: 'group'; id: number };

export async function currentRole(db: Database, collectionId: number, subject: Subject): Promise<RoleName | null> {
  const row =
    subject.kind === 'user'
      ? await db.selectFrom('collection_user_roles').select('role').where('collection_id', '=', collectionId).where('user_id', '=', subject.id).executeTakeFirst()
      : await db.selectFrom('collection_group_roles').select('role').where('collection_id', '=', collectionId).where('group_id', '=', subject.id).executeTakeFirst();
  return row?.role ?? null;
}

export async function setRole(db: Database, collectionId: number, subject: Subject, role: RoleName | null, at: string) {
  if (subject.kind === 'user') {
    await db.deleteFrom('collection_user_roles').where('collection_id', '=', collectionId).where('user_id', '=', subject.id).execute();
    if (role) await db.insertInto('collection_user_roles').values({ collection_id: collectionId, user_id: subject.id, role, created_at: at }).execute();
  } else {
    await db.deleteFrom('collection_group_roles').where('collection_id', '=', collectionId).where('group_id', '=', subject.id).execute();
    if (role) await db.insertInto('collection_group_roles').values({ collection_id: collectionId, group_id: subject.id, role, created_at: at }).execute();
  }
}

/** Owners of a collection: users with a direct Owner role, and groups holding Owner. */
export async function ownerCount(db: Database, collectionId: number): Promise<number> {
  const [users, groups] = await Promise.all([
    db.selectFrom('collection_user_roles').select((eb) => eb.fn.countAll<number>().as('n')).where('collection_id', '=', collectionId).where('role', '=', 'Owner').executeTakeFirstOrThrow(),
    db.selectFrom('collection_group_roles').select((eb) => eb.fn.countAll<number>().as('n')).where('collection_id', '=', collectionId).where('role', '=', 'Owner').executeTakeFirstOrThrow(),
  ]);
  return Number(users.n) + Number(groups.n);
}
