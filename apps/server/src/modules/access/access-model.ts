import { roleRank } from '@datalab/contract/api/data-roles';
import { MAX_GROUP_DEPTH } from '@datalab/contract/api/user-groups';
import type { Database } from '../../db/database.ts';
import {
  allGroupEdges,
  allGroupRoles,
  bumpAccessVersion,
  directGroupIdsOf,
  directRolesOf,
  groupIdsByNameKey,
  readAccessVersion,
} from './repository.ts';

// The access model held in memory, one snapshot per access version (see access_version): the group
// graph and every group's roles, loaded whole; each user's groups (direct and through nesting) and
// strongest role per collection, worked out on first use. Every change to roles, memberships, nesting
// or collections bumps the version in its own transaction, and every request reads the version with
// its user, so a snapshot is never used after a change, on any instance.

export interface UserAccess {
  /** Every group the user belongs to, directly or through nesting. */
  groups: ReadonlySet<number>;
  /** collection id → the strongest rank the user holds there. */
  ranks: ReadonlyMap<number, number>;
  /** Member (directly or through nesting) of a group named in COLLECTION_CREATOR_GROUPS. */
  mayCreateCollections: boolean;
  /** Member (directly or through nesting) of a group named in DIGITAL_LAB_GROUPS. */
  isDigitalLabPartner: boolean;
  /** A partner and nothing else: every group they belong to is a Digital Lab group, and no role above Reader. */
  isDigitalLabOnly: boolean;
}

/** Groups named in the configuration, by name: COLLECTION_CREATOR_GROUPS and DIGITAL_LAB_GROUPS. */
export interface GroupNames {
  creatorGroups?: readonly string[];
  digitalLabGroups?: readonly string[];
}

interface Snapshot {
  version: number;
  parents: Map<number, number[]>;
  /** Groups whose members may create collections (COLLECTION_CREATOR_GROUPS, matched by name). */
  creatorGroups: ReadonlySet<number>;
  /** Groups whose members are Digital Lab partners (DIGITAL_LAB_GROUPS, matched by name). */
  digitalLabGroups: ReadonlySet<number>;
  groupRoles: Map<number, [collectionId: number, rank: number][]>;
  users: Map<number, Promise<UserAccess>>;
}

/** Users whose access is kept per snapshot; past this the per-user part starts over. */
const USERS_PER_SNAPSHOT = 50_000;

/** The ids of the groups named (case-insensitively, as group names are unique). */
async function groupIdsNamed(db: Database, names: readonly string[]): Promise<ReadonlySet<number>> {
  if (names.length === 0) return new Set();
  const rows = await groupIdsByNameKey(
    db,
    names.map((n) => n.trim().toLowerCase()),
  );
  return new Set(rows.map((g) => g.id));
}

async function loadSnapshot(db: Database, version: number, names: GroupNames): Promise<Snapshot> {
  const [edges, roles, creatorGroups, digitalLabGroups] = await Promise.all([
    allGroupEdges(db),
    allGroupRoles(db),
    groupIdsNamed(db, names.creatorGroups ?? []),
    groupIdsNamed(db, names.digitalLabGroups ?? []),
  ]);
  const parents = new Map<number, number[]>();
  for (const { parent_id, child_id } of edges) parents.set(child_id, [...(parents.get(child_id) ?? []), parent_id]);
  const groupRoles = new Map<number, [number, number][]>();
  for (const { group_id, collection_id, role } of roles) {
    const list = groupRoles.get(group_id) ?? [];
    list.push([collection_id, roleRank[role]]);
    groupRoles.set(group_id, list);
  }
  return { version, parents, groupRoles, creatorGroups, digitalLabGroups, users: new Map() };
}

async function loadUserAccess(db: Database, snapshot: Snapshot, userId: number): Promise<UserAccess> {
  const [memberships, direct] = await Promise.all([directGroupIdsOf(db, userId), directRolesOf(db, userId)]);
  // A member of a group is a member of every group containing it, up to the depth limit.
  const groups = new Set<number>();
  let frontier = memberships.map((m) => m.group_id);
  for (let depth = 0; frontier.length > 0 && depth <= MAX_GROUP_DEPTH; depth += 1) {
    const next: number[] = [];
    for (const group of frontier) {
      if (groups.has(group)) continue;
      groups.add(group);
      next.push(...(snapshot.parents.get(group) ?? []));
    }
    frontier = next;
  }
  const ranks = new Map<number, number>();
  const grant = (collectionId: number, rank: number) => {
    if ((ranks.get(collectionId) ?? 0) < rank) ranks.set(collectionId, rank);
  };
  for (const { collection_id, role } of direct) grant(collection_id, roleRank[role]);
  for (const group of groups)
    for (const [collectionId, rank] of snapshot.groupRoles.get(group) ?? []) grant(collectionId, rank);
  const mayCreateCollections = [...groups].some((group) => snapshot.creatorGroups.has(group));
  const isDigitalLabPartner = [...groups].some((group) => snapshot.digitalLabGroups.has(group));
  const isDigitalLabOnly =
    isDigitalLabPartner &&
    !mayCreateCollections &&
    [...groups].every((group) => snapshot.digitalLabGroups.has(group)) &&
    [...ranks.values()].every((rank) => rank <= roleRank.Reader);
  return { groups, ranks, mayCreateCollections, isDigitalLabPartner, isDigitalLabOnly };
}

/**
 * On a store only this process can open (the embedded SQLite store holds an exclusive lock), the
 * version is also kept in memory, bumped by the same calls that bump it in the store, so a request
 * needs no query to know it; user rows are then cached per version too.
 */
export class AccessModelCache {
  readonly #db: Database;
  #snapshot: Promise<Snapshot> | undefined;
  #version = -1;
  #local: number | undefined;
  #accounts: { version: number; rows: Map<number, Promise<unknown>> } = { version: -1, rows: new Map() };
  readonly #groupNames: GroupNames;

  constructor(db: Database, options: { localVersion?: number } & GroupNames = {}) {
    this.#db = db;
    this.#local = options.localVersion;
    this.#groupNames = { creatorGroups: options.creatorGroups ?? [], digitalLabGroups: options.digitalLabGroups ?? [] };
  }

  /** The current version when this process alone writes the store; undefined when it must be read. */
  localVersion(): number | undefined {
    return this.#local;
  }

  /**
   * Part of every transaction that changes users, roles, memberships, nesting or collections. Services
   * call it through `changeAccess` (change-access.ts), which cannot forget it; tests that write the
   * store directly call it themselves.
   */
  async bump(db: Database): Promise<void> {
    await bumpAccessVersion(db);
    if (this.#local !== undefined) this.#local += 1;
  }

  /** A user's row as of `version`, loaded once per version (local versions only). */
  account<T>(userId: number, version: number, load: () => Promise<T>): Promise<T> {
    if (this.#accounts.version !== version) this.#accounts = { version, rows: new Map() };
    let row = this.#accounts.rows.get(userId) as Promise<T> | undefined;
    if (!row) {
      if (this.#accounts.rows.size >= USERS_PER_SNAPSHOT) this.#accounts.rows.clear();
      row = load();
      const rows = this.#accounts.rows;
      rows.set(userId, row);
      row.catch(() => rows.delete(userId));
    }
    return row;
  }

  /** Drops one user's cached row (their profile changed at sign-in). */
  forgetAccount(userId: number): void {
    this.#accounts.rows.delete(userId);
  }

  async #snapshotFor(version: number): Promise<Snapshot> {
    // A newer snapshot than the request's version is still correct for it; an older one is not.
    if (!this.#snapshot || this.#version < version) {
      this.#version = version;
      this.#snapshot = loadSnapshot(this.#db, version, this.#groupNames);
      this.#snapshot.catch(() => {
        if (this.#version === version) {
          this.#snapshot = undefined;
          this.#version = -1;
        }
      });
    }
    return this.#snapshot;
  }

  async forUser(userId: number, version: number): Promise<UserAccess> {
    const snapshot = await this.#snapshotFor(version);
    let access = snapshot.users.get(userId);
    if (!access) {
      if (snapshot.users.size >= USERS_PER_SNAPSHOT) snapshot.users.clear();
      access = loadUserAccess(this.#db, snapshot, userId);
      snapshot.users.set(userId, access);
      access.catch(() => snapshot.users.delete(userId));
    }
    return access;
  }
}

/** The access version as the store has it now (authentication reads it at start; the query is the repository's). */
export { readAccessVersion };
