import { z } from 'zod';
import { defineCall } from '../call.ts';

// Data roles per collection (product §14), strongest first.
export const dataRoles = ['Owner', 'Editor', 'Reader'] as const;
export const dataRole = z.enum(dataRoles);
export type DataRole = z.infer<typeof dataRole>;

/** Higher is stronger. */
export const roleRank: Record<DataRole, number> = { Owner: 3, Editor: 2, Reader: 1 };

export function roleOfRank(rank: number | null | undefined): DataRole | null {
  return dataRoles.find((role) => roleRank[role] === rank) ?? null;
}

export function strongestRole(roles: Iterable<DataRole | null | undefined>): DataRole | null {
  let best: DataRole | null = null;
  for (const role of roles) if (role && (!best || roleRank[role] > roleRank[best])) best = role;
  return best;
}

export const collectionRef = z.object({ uid: z.string(), name: z.string() });
export const userRef = z.object({ id: z.number().int(), name: z.string(), username: z.string().nullable() });
export const groupRef = z.object({ id: z.number().int(), name: z.string() });

/** A role a user holds on a collection, and where it comes from. */
export const effectiveRole = z.object({
  collection: collectionRef,
  role: dataRole,
  directRole: dataRole.nullable(),
  /**
   * Groups (direct or through nesting) that give the user a role here, with that role and the path it
   * comes through: from the granting group down to the user's direct group (Staff › Analysts).
   */
  viaGroups: z.array(groupRef.extend({ role: dataRole, path: z.array(groupRef) })),
});

export const userDataRoles = z.object({
  user: userRef,
  roles: z.array(effectiveRole),
});
export type UserDataRoles = z.infer<typeof userDataRoles>;

export const groupDataRoles = z.object({
  group: groupRef,
  roles: z.array(z.object({ collection: collectionRef, role: dataRole })),
});
export type GroupDataRoles = z.infer<typeof groupDataRoles>;

/** Grant (role) or withdraw (role null) on one collection. */
export const setDataRole = z.object({
  collectionUid: z.string().trim().min(1),
  role: dataRole.nullable(),
});
export type SetDataRole = z.infer<typeof setDataRole>;

export const collectionDataRoles = z.object({
  collection: collectionRef,
  users: z.array(z.object({ user: userRef, role: dataRole })),
  groups: z.array(z.object({ group: groupRef, role: dataRole })),
  /**
   * Users who reach a role through groups, one entry per user and granting group: the path runs from
   * the granting group down to the user's direct group.
   */
  indirectUsers: z.array(z.object({ user: userRef, role: dataRole, path: z.array(groupRef) })),
});
export type CollectionDataRoles = z.infer<typeof collectionDataRoles>;

const idParam = z.object({ id: z.coerce.number().int().positive() });

export const getUserDataRoles = defineCall({
  method: 'GET',
  path: '/api/DataRole/:id/UserDataRoles',
  tag: 'DataRole',
  summary: "A user's roles on collections: effective, with their direct role and the groups they come through",
  params: idParam,
  response: userDataRoles,
});

export const putUserDataRoles = defineCall({
  method: 'PUT',
  path: '/api/DataRole/:id/UserDataRoles',
  tag: 'DataRole',
  summary: "Grant or withdraw a user's direct role on a collection",
  params: idParam,
  body: setDataRole,
  response: userDataRoles,
});

export const getUserGroupDataRoles = defineCall({
  method: 'GET',
  path: '/api/DataRole/:id/UserGroupDataRoles',
  tag: 'DataRole',
  summary: "A user group's roles on collections",
  params: idParam,
  response: groupDataRoles,
});

export const putUserGroupDataRoles = defineCall({
  method: 'PUT',
  path: '/api/DataRole/:id/UserGroupDataRoles',
  tag: 'DataRole',
  summary: "Grant or withdraw a user group's role on a collection",
  params: idParam,
  body: setDataRole,
  response: groupDataRoles,
});

export const getCollectionDataRoles = defineCall({
  method: 'GET',
  path: '/api/DataRole/:id/DataSourceCollectionDataRoles',
  tag: 'DataRole',
  summary: 'Who holds which role on a collection ({id} is the collection uid)',
  params: z.object({ id: z.string().min(1) }),
  response: collectionDataRoles,
});
