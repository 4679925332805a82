import type { UserListItem } from '@datalab/contract/api/users';
import { messages } from '@datalab/contract/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { User } from '../../db/schema.ts';
import { lockFor } from '../../db/locks.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { audit } from '../audit/audit.ts';

const likePattern = (search: string) => `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function searchUsers(db: Database, search: string | undefined) {
  let query = db.selectFrom('users');
  if (search) {
    const pattern = likePattern(search);
    query = query.where((eb) =>
      eb.or(
        (['name', 'username', 'email'] as const).map((column) => eb(eb.fn('lower', [column]), 'like', sql<string>`${pattern} escape '\\'`)),
      ),
    );
  }
  return query;
}

async function present(db: Database, users: User[]): Promise<UserListItem[]> {
  const ids = users.map((u) => u.id);
  const memberships = ids.length
    ? await db
        .selectFrom('user_group_members')
        .innerJoin('user_groups', 'user_groups.id', 'user_group_members.group_id')
        .select(['user_group_members.user_id', 'user_groups.id', 'user_groups.name'])
        .where('user_group_members.user_id', 'in', ids)
        .orderBy('user_groups.name')
        .execute()
    : [];
  return users.map((u) => ({
    id: u.id,
    name: u.name,
    username: u.username,
    email: u.email,
    permissions: { canManageUsers: Boolean(u.can_manage_users) },
    isActive: Boolean(u.is_active),
    lastSeenAt: u.last_seen_at === null ? null : new Date(u.last_seen_at),
    createdAt: new Date(u.created_at),
    groups: memberships.filter((m) => m.user_id === u.id).map((m) => ({ id: m.id, name: m.name })),
  }));
}

export async function listUsers(db: Database, options: { search?: string | undefined; page: number; pageSize: number }) {
  const query = searchUsers(db, options.search);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy(sql`lower(name)`).orderBy('id').limit(options.pageSize).offset((options.page - 1) * options.pageSize).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: await present(db, rows), totalCount: Number(count.n), page: options.page, pageSize: options.pageSize };
}

export function suggestUsers(db: Database, search: string, limit: number) {
  return searchUsers(db, search || undefined)
    .select(['id', 'name', 'username', 'email'])
    .where('is_active', '=', 1)
    .orderBy(sql`lower(name)`)
    .limit(limit)
    .execute();
}

/** Owners of some collection pick users and groups to grant roles to. */
export async function ownsAnyCollection(db: Database, userId: number) {
  const row = await db.selectFrom('collection_user_roles').select('collection_id').where('user_id', '=', userId).where('role', '=', 'Owner').limit(1).executeTakeFirst();
  return row !== undefined;
}

export const lastAdministratorMessage = messages.atLeastOne('user with canManageUsers');

export async function setSystemPermissions(app: FastifyInstance, request: FastifyRequest, actor: AuthUser, userId: number, canManageUsers: boolean) {
  // Nobody raises their own permissions; giving one up is allowed, within the last-administrator rule.
  if (userId === actor.id && canManageUsers) throw forbidden();
  const updated = await app.db.transaction().execute(async (trx) => {
    await lockFor(trx, 'system-permissions');
    const user = await trx.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
    if (!user) throw notFound('User', userId);
    if (Boolean(user.can_manage_users) === canManageUsers) return user;
    await trx.updateTable('users').set({ can_manage_users: canManageUsers, updated_at: new Date().toISOString() }).where('id', '=', userId).execute();
    await app.access.bump(trx);
    const remaining = await trx.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('can_manage_users', '=', 1).where('is_active', '=', 1).executeTakeFirstOrThrow();
    if (Number(remaining.n) === 0) {
      throw new AppError({ status: 400, code: 'validation', title: lastAdministratorMessage, errors: { canManageUsers: [lastAdministratorMessage] } });
    }
    await audit(app, request, actor, {
      action: 'user.systemPermissions',
      target: { type: 'user', id: user.id, name: user.name },
      before: { canManageUsers: Boolean(user.can_manage_users) },
      after: { canManageUsers },
    }, trx);
    return { ...user, can_manage_users: canManageUsers ? 1 : 0 };
  });
  const [item] = await present(app.db, [updated]);
  if (!item) throw notFound('User', userId);
  return item;
}
