import { roleOfRank, roleRank, type DataRole } from '@datalab/contract/api/data-roles';
import { messages } from '@datalab/contract/messages';
import type { Collection } from '../../db/schema.ts';
import { type AppError, forbidden, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import type { AccessModelCache } from './access-model.ts';

// The one authorization policy (DESIGN §5, STYLE.md habit 4). Routes declare what they need
// (route-access.ts) and this file decides. The facts it decides on (the user's row, their groups
// and roles) are cached per access version (access-model.ts): every change bumps the version in its
// own transaction and every request reads the version with the user, so a change of role,
// membership or permission holds from the very next request, on every instance.

export type CollectionAction = 'read' | 'call' | 'editAssets' | 'update' | 'delete' | 'manageRoles';

/** System-level abilities a route may require. */
export type Permission = 'canManageUsers' | 'canCreateCollections' | 'canPickPeople';

const REQUIRED_ROLE: Record<CollectionAction, DataRole> = {
  read: 'Reader',
  call: 'Reader',
  editAssets: 'Editor',
  update: 'Owner',
  delete: 'Owner',
  manageRoles: 'Owner',
};

/** Holders of canManageUsers see every collection and manage its roles; anything else needs a data role. */
const ADMINISTRATOR_MAY = new Set<CollectionAction>(['read', 'manageRoles']);

export type Decision = 'allow' | 'hide' | 'forbid';

/** The rule itself, free of I/O: who may do what to a collection given their effective role. */
export function decide(
  user: Pick<AuthUser, 'canManageUsers'>,
  role: DataRole | null,
  action: CollectionAction,
): Decision {
  if (role && roleRank[role] >= roleRank[REQUIRED_ROLE[action]]) return 'allow';
  if (user.canManageUsers && ADMINISTRATOR_MAY.has(action)) return 'allow';
  if (role || user.canManageUsers) return 'forbid';
  return 'hide';
}

export function can(user: Pick<AuthUser, 'canManageUsers'>, role: DataRole | null, action: CollectionAction) {
  return decide(user, role, action) === 'allow';
}

export async function effectiveRole(
  access: AccessModelCache,
  user: AuthUser,
  collectionId: number,
): Promise<DataRole | null> {
  const { ranks } = await access.forUser(user.id, user.accessVersion);
  return roleOfRank(ranks.get(collectionId));
}

/**
 * Whether the user holds a system-level ability: administrators hold all; creating collections is
 * also for members of a creator group; pickers of people and groups also for anyone who owns a
 * collection (directly or through a group), since they grant roles.
 */
export async function hasPermission(
  access: AccessModelCache,
  user: AuthUser,
  permission: Permission,
): Promise<boolean> {
  if (user.canManageUsers) return true;
  if (permission === 'canManageUsers') return false;
  const mine = await access.forUser(user.id, user.accessVersion);
  if (permission === 'canCreateCollections') return mine.mayCreateCollections;
  for (const rank of mine.ranks.values()) if (rank === roleRank.Owner) return true;
  return false;
}

/** Throws 404 when the collection is outside the caller's roles, 403 when visible but not allowed. */
export async function authorizeCollection(
  access: AccessModelCache,
  user: AuthUser,
  collection: Collection,
  action: CollectionAction,
): Promise<DataRole | null> {
  const role = await effectiveRole(access, user, collection.id);
  const decision = decide(user, role, action);
  if (decision === 'hide') throw collectionNotFound(collection.uid);
  if (decision === 'forbid') throw forbidden();
  return role;
}

export const collectionNotFound = (uid: string): AppError => notFound('Collection', uid);

export const lastOwnerMessage = messages.atLeastOne('Owner');
