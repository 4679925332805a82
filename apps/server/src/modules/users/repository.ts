import type { Database } from '../../db/database.ts';
import type { NewUser, User } from '../../db/schema.ts';

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

export function touchUser(db: Database, id: number, at: string) {
  return db.updateTable('users').set({ last_seen_at: at }).where('id', '=', id).execute();
}

export function countUsers(db: Database) {
  return db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
}
