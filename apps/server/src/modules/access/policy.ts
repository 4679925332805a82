import { roleOfRank, roleRank, type DataRole } from '@datalab/contract/api/data-roles';
import { messages } from '@datalab/contract/messages';
import type { Collection } from '../../db/schema.ts';
import { type AppError, forbidden, notFound } from '../../lib/errors.ts';
import type { AuthUser } from '../../lib/auth-user.ts';
import type { AccessModelCache, UserAccess } from './access-model.ts';

// The one authorization policy (product §14, code-style habit 4). Routes declare what they need
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

const NO_GROUPS: ReadonlySet<number> = new Set();
/** A token acts for data, never as a person: it is nobody's Digital Lab partner. */
const NOT_A_PARTNER = { isDigitalLabPartner: false, isDigitalLabOnly: false } as const;

/**
 * What the caller may do, per collection: the one place where Data Lab tokens are narrowed (product §14), so every
 * check and every list of "what I can see" reads the same thing. A person: their own access (roles, groups, creator
 * groups). A personal access token: on each collection the weaker of its own role and its owner's current
 * effective role (read per access version, so a lost role, group or account holds at the next call), nothing else.
 * A collection token: Reader on its collection, nothing else.
 */
export async function callerAccess(access: AccessModelCache, user: AuthUser): Promise<UserAccess> {
  const token = user.token;
  if (!token) return access.forUser(user.id, user.accessVersion);
  if (token.kind === 'collection')
    return { groups: NO_GROUPS, ranks: token.ranks, mayCreateCollections: false, ...NOT_A_PARTNER };
  const ranks = await personalTokenRanks(access, user.id, user.accessVersion, token.ranks);
  return { groups: NO_GROUPS, ranks, mayCreateCollections: false, ...NOT_A_PARTNER };
}

/** What a personal access token is worth on each collection: the weaker of its own rank and its owner's current one. */
export async function personalTokenRanks(
  access: AccessModelCache,
  ownerId: number,
  accessVersion: number,
  tokenRanks: ReadonlyMap<number, number>,
): Promise<ReadonlyMap<number, number>> {
  const owner = await access.forUser(ownerId, accessVersion);
  const ranks = new Map<number, number>();
  for (const [collectionId, rank] of tokenRanks) {
    const ownerRank = owner.ranks.get(collectionId);
    if (ownerRank !== undefined) ranks.set(collectionId, Math.min(rank, ownerRank));
  }
  return ranks;
}

export async function effectiveRole(
  access: AccessModelCache,
  user: AuthUser,
  collectionId: number,
): Promise<DataRole | null> {
  const { ranks } = await callerAccess(access, user);
  return roleOfRank(ranks.get(collectionId));
}

/**
 * The collections on which the caller may do `action` now, among those where they hold a role (narrowed by their
 * token): what a list of the caller's own things shows, as each of those things would be authorized one by one.
 */
export async function collectionsAllowing(
  access: AccessModelCache,
  user: AuthUser,
  action: CollectionAction,
): Promise<number[]> {
  const { ranks } = await callerAccess(access, user);
  const ids: number[] = [];
  for (const [collectionId, rank] of ranks)
    if (decide(user, roleOfRank(rank), action) === 'allow') ids.push(collectionId);
  return ids;
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
  // Tokens act on data only: no system permission, whatever their owner holds.
  if (permission === 'canManageUsers' || user.token) return false;
  return holdsPermission(user, await access.forUser(user.id, user.accessVersion), permission);
}

/** hasPermission for a caller whose access (callerAccess) is already read. */
export function holdsPermission(user: AuthUser, mine: UserAccess, permission: Permission): boolean {
  if (user.canManageUsers) return true;
  if (permission === 'canManageUsers' || user.token) return false;
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
