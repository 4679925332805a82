import type { SortDirection } from '@datalab/contract/paging';
import type { UserGroupsOfUser, UserListItem } from '@datalab/contract/api/users';
import { messages } from '@datalab/contract/messages';
import type { Database } from '../../db/database.ts';
import { AppError, forbidden, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../lib/auth-user.ts';
import { changeAccess, type Actor } from '../access/change-access.service.ts';
import { userGroupPaths } from '../access/group-graph.service.ts';
import { presentPickerItem, presentUser } from './presenter.ts';
import {
  countActiveAdministrators,
  directGroupsOfUsers,
  findUserById,
  listUserPage,
  suggestActiveUsers,
  updateUserFlags,
  type UserSortColumn,
} from './repository.ts';

// Users: listing, pickers, system permissions and deactivation. Who may call is declared per route;
// the rules here are the ones about oneself and the last administrator.

export const lastAdministratorMessage = messages.atLeastOne('user with canManageUsers');

const lastAdministrator = (field: string) =>
  new AppError({
    status: 400,
    code: 'validation',
    title: lastAdministratorMessage,
    errors: { [field]: [lastAdministratorMessage] },
  });

export async function listUsers(
  db: Database,
  options: {
    search?: string | undefined;
    page: number;
    pageSize: number;
    sortBy: UserSortColumn;
    sortDirection: SortDirection;
  },
) {
  const { rows, total } = await listUserPage(db, options);
  const memberships = await directGroupsOfUsers(
    db,
    rows.map((u) => u.id),
  );
  return {
    items: rows.map((row) => presentUser(row, memberships)),
    totalCount: total,
    page: options.page,
    pageSize: options.pageSize,
  };
}

/** Pickers: name and username; e-mail and groups only for those who manage users. */
export async function suggestUsers(db: Database, caller: AuthUser, search: string, limit: number) {
  const rows = await suggestActiveUsers(db, search, limit);
  const memberships = caller.canManageUsers
    ? await directGroupsOfUsers(
        db,
        rows.map((u) => u.id),
      )
    : undefined;
  return rows.map((row) => presentPickerItem(row, memberships));
}

async function presentOne(db: Database, userId: number): Promise<UserListItem> {
  const user = await findUserById(db, userId);
  if (!user) throw notFound('User', userId);
  return presentUser(user, await directGroupsOfUsers(db, [user.id]));
}

/** Nobody raises their own permissions; giving one up is allowed, within the last-administrator rule. */
export async function setSystemPermissions(actor: Actor, userId: number, canManageUsers: boolean) {
  if (userId === actor.user.id && canManageUsers) throw forbidden();
  await changeAccess(actor, async (trx) => {
    const user = await findUserById(trx, userId);
    if (!user) throw notFound('User', userId);
    if (Boolean(user.can_manage_users) === canManageUsers) return;
    await updateUserFlags(trx, userId, { can_manage_users: canManageUsers });
    if ((await countActiveAdministrators(trx)) === 0) throw lastAdministrator('canManageUsers');
    await actor.audit(
      {
        action: 'user.systemPermissions',
        target: { type: 'user', id: user.id, name: user.name },
        before: { canManageUsers: Boolean(user.can_manage_users) },
        after: { canManageUsers },
      },
      trx,
    );
  });
  return presentOne(actor.db, userId);
}

/**
 * Deactivates or reactivates a user. Their roles and memberships stay (the audit trail names them);
 * a deactivated user's tokens are refused at the next request. Not oneself; not the last administrator.
 */
export async function setActive(actor: Actor, userId: number, active: boolean) {
  if (userId === actor.user.id) throw forbidden();
  await changeAccess(actor, async (trx) => {
    const user = await findUserById(trx, userId);
    if (!user) throw notFound('User', userId);
    if (Boolean(user.is_active) === active) return;
    await updateUserFlags(trx, userId, { is_active: active });
    if ((await countActiveAdministrators(trx)) === 0) throw lastAdministrator('active');
    await actor.audit(
      {
        action: active ? 'user.reactivate' : 'user.deactivate',
        target: { type: 'user', id: user.id, name: user.name },
        before: { active: !active },
        after: { active },
      },
      trx,
    );
  });
  return presentOne(actor.db, userId);
}

/** A user's groups, direct and through nesting, each with the shortest path that makes them a member. */
export async function groupsOfUser(db: Database, userId: number): Promise<UserGroupsOfUser> {
  const user = await findUserById(db, userId);
  if (!user) throw notFound('User', userId);
  const { paths, names } = await userGroupPaths(db, userId);
  const named = (id: number) => ({ id, name: names.get(id) ?? String(id) });
  const groups = [...paths].map(([id, path]) => ({
    group: named(id),
    direct: path.length === 1,
    path: path.map(named),
  }));
  groups.sort((a, b) => a.path.length - b.path.length || a.group.name.localeCompare(b.group.name));
  return { user: { id: user.id, name: user.name, username: user.username }, groups };
}

/** Read straight from the store: routes and plugins reach the repository through this service. */
export { findActiveUserById, findUserByIdentity } from './repository.ts';
