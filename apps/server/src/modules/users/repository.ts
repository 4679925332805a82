import type { Database } from '../../db/database.ts';
import { preparedQuery } from '../../db/prepared.ts';
import { sql } from 'kysely';
import type { NewUser, User } from '../../db/schema.ts';
import { likeContains } from '../../db/like.ts';
import type { SortDirection } from '@datalab/contract/paging';

const userForAuthentication = preparedQuery(
  (db, id: number) =>
    db
      .selectFrom('users')
      .select(['id', 'name', 'username', 'email', 'can_manage_users', 'is_active'])
      .select((eb) =>
        eb
          .selectFrom('access_version')
          .select('version')
          .where('access_version.id', '=', sql.lit(1))
          .as('access_version'),
      )
      .where('id', '=', id),
  [0] as [number],
);

/** The columns authentication needs, read on every request so changes hold at once. */
export async function findActiveUserById(db: Database, id: number) {
  const [user] = await userForAuthentication(db, id);
  return user;
}

export function findUserByIdentity(db: Database, issuer: string, subject: string): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

export async function insertUser(db: Database, user: NewUser): Promise<User> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}

export function updateUserProfile(
  db: Database,
  id: number,
  profile: { name: string; username: string | null; email: string | null; updated_at: string },
) {
  return db.updateTable('users').set(profile).where('id', '=', id).execute();
}

/** Users whose name, username or e-mail contains the search (all users without one). */
export function searchUsers(db: Database, search: string | undefined) {
  let query = db.selectFrom('users');
  if (search) {
    query = query.where((eb) =>
      eb.or(
        (['name', 'username', 'email'] as const).map((column) =>
          eb(eb.fn('lower', [column]), 'like', likeContains(search)),
        ),
      ),
    );
  }
  return query;
}

const SORT_COLUMNS = {
  name: sql`lower(name)`,
  username: sql`lower(username)`,
  email: sql`lower(email)`,
  createdAt: sql`created_at`,
  lastSeenAt: sql`last_seen_at`,
} as const;

export type UserSortColumn = keyof typeof SORT_COLUMNS;

export async function listUserPage(
  db: Database,
  options: {
    search?: string | undefined;
    page: number;
    pageSize: number;
    sortBy: UserSortColumn;
    sortDirection: SortDirection;
  },
) {
  const query = searchUsers(db, options.search);
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy(SORT_COLUMNS[options.sortBy], options.sortDirection)
      .orderBy('id', options.sortDirection)
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function suggestActiveUsers(db: Database, search: string, limit: number) {
  return searchUsers(db, search)
    .select(['id', 'name', 'username', 'email'])
    .where('is_active', '=', 1)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Direct group memberships of the given users, by group name. */
export function directGroupsOfUsers(db: Database, userIds: readonly number[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('user_group_members')
    .innerJoin('user_groups', 'user_groups.id', 'user_group_members.group_id')
    .select(['user_group_members.user_id', 'user_groups.id', 'user_groups.name'])
    .where('user_group_members.user_id', 'in', [...userIds])
    .orderBy('user_groups.name_key')
    .execute();
}

export function findUserById(db: Database, id: number): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function updateUserFlags(db: Database, id: number, flags: { can_manage_users?: boolean; is_active?: boolean }) {
  return db
    .updateTable('users')
    .set({ ...flags, updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .execute();
}

/** Active holders of canManageUsers. */
export async function countActiveAdministrators(db: Database): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('can_manage_users', '=', 1)
    .where('is_active', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function recordLastSeen(db: Database, id: number, at: string) {
  return db.updateTable('users').set({ last_seen_at: at }).where('id', '=', id).execute();
}
