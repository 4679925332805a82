import { roleRank } from '@datalab/contract/api/data-roles';
import type { Database } from '../../db/database.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import { graphOf, withAncestors, withDescendants } from './group-graph.service.ts';
import { lastOwnerMessage } from './policy.ts';
import {
  collectionsOwnedByGroups,
  grantsReachingUser,
  groupsWithMembers,
  loadGroupGraph,
  ownerGrants,
} from './repository.ts';

// Rules that span rows, checked inside the changing transaction (change-access.ts serialises those).

/**
 * Of the given collections, those no person owns: an Owner is a user with the role directly, or a
 * member (directly or through nesting) of a group holding it. A group nobody is in owns nothing.
 */
export async function ownerlessCollections(db: Database, collectionIds: readonly number[]): Promise<Set<number>> {
  const grants = await ownerGrants(db, collectionIds);
  const owned = new Set(grants.users.map((g) => g.collection_id));
  const pending = grants.groups.filter((g) => !owned.has(g.collection_id));
  if (pending.length > 0) {
    const graph = graphOf((await loadGroupGraph(db)).edges);
    const inside = new Map(pending.map((g) => [g.group_id, withDescendants([g.group_id], graph)]));
    const populated = await groupsWithMembers(db, [...new Set([...inside.values()].flatMap((set) => [...set]))]);
    for (const grant of pending)
      if ([...(inside.get(grant.group_id) ?? [])].some((g) => populated.has(g))) owned.add(grant.collection_id);
  }
  return new Set(collectionIds.filter((id) => !owned.has(id)));
}

/** Collections whose ownership a change to these groups' members or nesting can take away. */
export async function collectionsOwnedThrough(db: Database, groupIds: readonly number[]): Promise<number[]> {
  const graph = graphOf((await loadGroupGraph(db)).edges);
  const rows = await collectionsOwnedByGroups(db, [...withAncestors(groupIds, graph)]);
  return [...new Set(rows.map((r) => r.collection_id))];
}

/** Runs `change`; refuses it (400, 'At least one Owner is required') if it leaves one of `collectionIds` ownerless. */
export async function keepingOwners<T>(
  db: Database,
  collectionIds: readonly number[],
  change: () => Promise<T>,
): Promise<T> {
  const before = await ownerlessCollections(db, collectionIds);
  const result = await change();
  const after = await ownerlessCollections(db, collectionIds);
  if ([...after].some((id) => !before.has(id))) {
    throw new AppError({
      status: 400,
      code: 'validation',
      title: lastOwnerMessage,
      errors: { role: [lastOwnerMessage] },
    });
  }
  return result;
}

async function effectiveRanks(db: Database, userId: number): Promise<Map<number, number>> {
  const ranks = new Map<number, number>();
  for (const grant of await grantsReachingUser(db, userId)) {
    ranks.set(grant.collection_id, Math.max(ranks.get(grant.collection_id) ?? 0, roleRank[grant.role]));
  }
  return ranks;
}

/**
 * Runs `change`; refuses it (403) if it raises the actor's own EFFECTIVE role on any existing
 * collection, whether by a direct grant, a grant to a group they are in, joining a group or nesting one.
 */
export async function refusingSelfRaise<T>(db: Database, actorId: number, change: () => Promise<T>): Promise<T> {
  const before = await effectiveRanks(db, actorId);
  const result = await change();
  const after = await effectiveRanks(db, actorId);
  for (const [collectionId, rank] of after) if (rank > (before.get(collectionId) ?? 0)) throw forbidden();
  return result;
}
