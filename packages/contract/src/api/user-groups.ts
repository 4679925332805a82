import { z } from 'zod';
import { defineCall } from '../call.ts';
import { nameText, text } from '../text.ts';
import { isoDateTime } from '../dates.ts';
import { pageOf, pageQuery, sortQuery } from '../paging.ts';
import { groupRef } from './data-roles.ts';
import { userSuggestion } from './users.ts';

/** Nesting depth limit: a chain of at most this many groups ('Max depth reached'). */
export const MAX_GROUP_DEPTH = 6;

export const userGroupSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  memberCount: z.number().int(),
  childCount: z.number().int(),
  parentCount: z.number().int(),
  createdAt: isoDateTime,
});
export type UserGroupSummary = z.infer<typeof userGroupSummary>;

export const userGroupDetail = userGroupSummary.extend({
  parents: z.array(groupRef),
  children: z.array(groupRef),
});
export type UserGroupDetail = z.infer<typeof userGroupDetail>;

/**
 * A tree with references: each group is expanded once; where it appears again (diamond-shaped
 * nesting) it is a reference (`isReference`, no children), so the reply grows with the groups and
 * nestings, not with the number of paths.
 */
export interface HierarchyNode {
  id: number;
  name: string;
  children: HierarchyNode[];
  isReference?: boolean | undefined;
}
export const hierarchyNode: z.ZodType<HierarchyNode> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    children: z.array(hierarchyNode),
    isReference: z.boolean().optional(),
  }),
);

export const userGroupHierarchy = z.object({
  group: groupRef,
  /** Groups that contain this one, nearest first, as trees upwards. */
  ancestors: z.array(hierarchyNode),
  /** Groups this one contains, as trees downwards. */
  descendants: z.array(hierarchyNode),
});
export type UserGroupHierarchy = z.infer<typeof userGroupHierarchy>;

const idParam = z.object({ id: z.coerce.number().int().positive() });
const memberParams = z.object({ id: z.coerce.number().int().positive(), userId: z.coerce.number().int().positive() });
const childParams = z.object({ id: z.coerce.number().int().positive(), childId: z.coerce.number().int().positive() });

export const userGroupSortColumns = ['name', 'memberCount', 'createdAt'] as const;

const groupName = nameText(100);
const groupDescription = text(2000).default('');

export const getUserGroups = defineCall({
  method: 'GET',
  path: '/api/UserGroup',
  tag: 'UserGroup',
  summary: 'User groups, searched by name, sorted by an allow-listed column',
  query: pageQuery.extend({ search: text(200).optional() }).extend(sortQuery(userGroupSortColumns, 'name').shape),
  response: pageOf(userGroupSummary),
});

export const postUserGroup = defineCall({
  method: 'POST',
  path: '/api/UserGroup',
  tag: 'UserGroup',
  summary: 'Create a user group',
  body: z.object({ name: groupName, description: groupDescription }),
  response: userGroupDetail,
  status: 201,
});

export const putUserGroup = defineCall({
  method: 'PUT',
  path: '/api/UserGroup/:id',
  tag: 'UserGroup',
  summary: 'Rename and describe a user group (409 when another group has the name)',
  params: idParam,
  body: z.object({ name: groupName, description: groupDescription }),
  response: userGroupDetail,
});

export const getUserGroup = defineCall({
  method: 'GET',
  path: '/api/UserGroup/:id',
  tag: 'UserGroup',
  summary: 'One user group',
  params: idParam,
  response: userGroupDetail,
});

export const deleteUserGroup = defineCall({
  method: 'DELETE',
  path: '/api/UserGroup/:id',
  tag: 'UserGroup',
  summary: 'Delete a user group with its memberships, nesting and roles',
  params: idParam,
  response: z.object({ id: z.number().int(), deleted: z.literal(true) }),
});

export const autocompleteUserGroups = defineCall({
  method: 'GET',
  path: '/api/UserGroup/Autocomplete',
  tag: 'UserGroup',
  summary: 'Up to `limit` groups matching a search, for pickers',
  query: z.object({ search: text(200).default(''), limit: z.coerce.number().int().min(1).max(50).default(10) }),
  response: z.array(groupRef),
});

export const getChildGroups = defineCall({
  method: 'GET',
  path: '/api/UserGroup/:id/UserGroups',
  tag: 'UserGroup',
  summary: 'Groups nested directly in a group',
  params: idParam,
  response: z.array(userGroupSummary),
});

export const getGroupUsers = defineCall({
  method: 'GET',
  path: '/api/UserGroup/:id/Users',
  tag: 'UserGroup',
  summary: 'Direct members of a group',
  params: idParam,
  response: z.array(userSuggestion),
});

export const addGroupUser = defineCall({
  method: 'POST',
  path: '/api/UserGroup/:id/User/:userId',
  tag: 'UserGroup',
  summary: 'Add a user to a group',
  params: memberParams,
  response: z.array(userSuggestion),
});

export const removeGroupUser = defineCall({
  method: 'DELETE',
  path: '/api/UserGroup/:id/User/:userId',
  tag: 'UserGroup',
  summary: 'Remove a user from a group',
  params: memberParams,
  response: z.array(userSuggestion),
});

export const addChildGroup = defineCall({
  method: 'POST',
  path: '/api/UserGroup/:id/UserGroup/:childId',
  tag: 'UserGroup',
  summary: 'Nest a group in this one (no cycles, bounded depth)',
  params: childParams,
  response: z.array(userGroupSummary),
});

export const removeChildGroup = defineCall({
  method: 'DELETE',
  path: '/api/UserGroup/:id/UserGroup/:childId',
  tag: 'UserGroup',
  summary: 'Take a nested group out of this one',
  params: childParams,
  response: z.array(userGroupSummary),
});

export const getGroupHierarchy = defineCall({
  method: 'GET',
  path: '/api/UserGroup/:id/Hierarchy',
  tag: 'UserGroup',
  summary: 'Ancestors and descendants of a group',
  params: idParam,
  response: userGroupHierarchy,
});

export const getNestingCandidates = defineCall({
  method: 'GET',
  path: '/api/UserGroup/:id/NestingCandidates',
  tag: 'UserGroup',
  summary:
    'Up to `limit` groups that can be nested in this one: never one that would make a cycle, exceed the ' +
    'depth limit or is nested there already',
  params: idParam,
  query: z.object({ search: text(200).default(''), limit: z.coerce.number().int().min(1).max(50).default(10) }),
  response: z.array(groupRef),
});
