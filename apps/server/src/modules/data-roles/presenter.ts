import {
  roleOfRank,
  roleRank,
  type CollectionDataRoles,
  type DataRole,
  type UserDataRoles,
} from '@datalab/contract/api/data-roles';

// Shapes data-role replies: group paths as named references, strongest role first-class.

type Names = ReadonlyMap<number, string>;

export const namedPath = (path: readonly number[], names: Names) =>
  path.map((id) => ({ id, name: names.get(id) ?? String(id) }));

export interface Grant {
  collection_id: number;
  uid: string;
  collection_name: string;
  role: DataRole;
  group_id: number | null;
}

/** A user's roles per collection: the strongest, the direct one, and each granting group with its path. */
export function presentUserRoles(
  grants: readonly Grant[],
  paths: ReadonlyMap<number, number[]>,
  names: Names,
): UserDataRoles['roles'] {
  const byCollection = new Map<number, UserDataRoles['roles'][number]>();
  for (const grant of grants) {
    const entry = byCollection.get(grant.collection_id) ?? {
      collection: { uid: grant.uid, name: grant.collection_name },
      role: grant.role,
      directRole: null,
      viaGroups: [],
    };
    if (grant.group_id === null) entry.directRole = grant.role;
    else if (!entry.viaGroups.some((g) => g.id === grant.group_id)) {
      const path = namedPath(paths.get(grant.group_id) ?? [grant.group_id], names);
      entry.viaGroups.push({
        id: grant.group_id,
        name: names.get(grant.group_id) ?? String(grant.group_id),
        role: grant.role,
        path,
      });
    }
    entry.role = roleOfRank(Math.max(roleRank[entry.role], roleRank[grant.role])) ?? grant.role;
    byCollection.set(grant.collection_id, entry);
  }
  return [...byCollection.values()].sort((a, b) => a.collection.name.localeCompare(b.collection.name));
}

export function presentCollectionRoles(
  collection: { uid: string; name: string },
  users: readonly { id: number; name: string; username: string | null; role: DataRole }[],
  groups: readonly { id: number; name: string; role: DataRole }[],
  indirectUsers: CollectionDataRoles['indirectUsers'],
): CollectionDataRoles {
  return {
    collection: { uid: collection.uid, name: collection.name },
    users: users.map(({ role, ...user }) => ({ user, role })),
    groups: groups.map(({ role, ...group }) => ({ group, role })),
    indirectUsers,
  };
}
