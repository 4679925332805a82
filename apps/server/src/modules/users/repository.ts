import type { Database } from '../../db/database.ts';
import { preparedQuery } from '../../db/prepared.ts';
import { sql } from 'kysely';
import type { NewUser, User } from '../../db/schema.ts';

const userForAuthentication = preparedQuery(
  (db, id: number) =>
    db
      .selectFrom('users')
      .select(['id', 'name', 'username', 'email', 'can_manage_users', 'is_active'])
      .select((eb) => eb.selectFrom('access_version').select('version').where('access_version.id', '=', sql.lit(1)).as('access_version'))
      .where('id', '=', id),
  [0] as [number],
);

/** The columns authentication needs, read on every request so changes hold at once. */
export async function findActiveUserById(db: Database, id: number) {
  const [user] = await userForAuthentication(db, id);
  return user;
}

export function findUserByIdentity(db: Database, issuer: string, subject: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst();
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

