import type { Database } from '../../db/database.ts';
import type { RoleName } from '../../db/schema.ts';

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
      ? await db
          .selectFrom('collection_user_roles')
          .select('role')
          .where('collection_id', '=', collectionId)
          .where('user_id', '=', subject.id)
          .executeTakeFirst()
      : await db
          .selectFrom('collection_group_roles')
          .select('role')
          .where('collection_id', '=', collectionId)
          .where('group_id', '=', subject.id)
          .executeTakeFirst();
  return row?.role ?? null;
}

export async function setRole(db: Database, collectionId: number, subject: Subject, role: RoleName | null, at: string) {
  if (subject.kind === 'user') {
    await db
      .deleteFrom('collection_user_roles')
      .where('collection_id', '=', collectionId)
      .where('user_id', '=', subject.id)
      .execute();
    if (role)
      await db
        .insertInto('collection_user_roles')
        .values({ collection_id: collectionId, user_id: subject.id, role, created_at: at })
        .execute();
  } else {
    await db
      .deleteFrom('collection_group_roles')
      .where('collection_id', '=', collectionId)
      .where('group_id', '=', subject.id)
      .execute();
    if (role)
      await db
        .insertInto('collection_group_roles')
        .values({ collection_id: collectionId, group_id: subject.id, role, created_at: at })
        .execute();
  }
}

/** Direct members of the given groups, with the group they are in. */
export function membersOfGroups(db: Database, groupIds: readonly number[]) {
  if (groupIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('user_group_members')
    .innerJoin('users', 'users.id', 'user_group_members.user_id')
    .select(['user_group_members.group_id', 'users.id', 'users.name', 'users.username'])
    .where('user_group_members.group_id', 'in', [...groupIds])
    .execute();
}

export function findUserRefById(db: Database, id: number) {
  return db.selectFrom('users').select(['id', 'name', 'username']).where('id', '=', id).executeTakeFirst();
}

export function findGroupRefById(db: Database, id: number) {
  return db.selectFrom('user_groups').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
}
