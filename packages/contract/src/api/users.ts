import { z } from 'zod';
import { defineCall } from '../call.ts';
import { text } from '../text.ts';
import { isoDateTime } from '../dates.ts';
import { pageOf, pageQuery, sortQuery } from '../paging.ts';
import { permissions } from './account.ts';
import { groupRef, userRef } from './data-roles.ts';

export const userListItem = z.object({
  id: z.number().int(),
  name: z.string(),
  username: z.string().nullable(),
  email: z.string().nullable(),
  permissions,
  isActive: z.boolean(),
  lastSeenAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  /** Groups the user is a direct member of. */
  groups: z.array(groupRef),
});
export type UserListItem = z.infer<typeof userListItem>;

export const userSuggestion = z.object({
  id: z.number().int(),
  name: z.string(),
  username: z.string().nullable(),
  email: z.string().nullable(),
});

/** A picker's match: name and username; e-mail and direct groups only for holders of canManageUsers. */
export const userPickerItem = z.object({
  id: z.number().int(),
  name: z.string(),
  username: z.string().nullable(),
  email: z.string().nullable().optional(),
  groups: z.array(groupRef).optional(),
});
export type UserPickerItem = z.infer<typeof userPickerItem>;

export const USER_AUTOCOMPLETE_MAX = 20;
export const USER_AUTOCOMPLETE_MIN_SEARCH = 2;

export const userSortColumns = ['name', 'username', 'email', 'createdAt', 'lastSeenAt'] as const;

export const getUsers = defineCall({
  method: 'GET',
  path: '/api/User',
  tag: 'User',
  summary: 'Users, searched by name, username or email, sorted by an allow-listed column (canManageUsers)',
  query: pageQuery.extend({ search: text(200).optional() }).extend(sortQuery(userSortColumns, 'name').shape),
  response: pageOf(userListItem),
});

export const autocompleteUsers = defineCall({
  method: 'GET',
  path: '/api/User/Autocomplete',
  tag: 'User',
  summary:
    'Up to `limit` (at most 20) active users matching a search of at least 2 characters, for pickers ' +
    '(canManageUsers or a collection Owner); e-mail and groups only for canManageUsers',
  query: z.object({
    search: text(200).pipe(z.string().min(USER_AUTOCOMPLETE_MIN_SEARCH)),
    limit: z.coerce.number().int().min(1).max(USER_AUTOCOMPLETE_MAX).default(10),
  }),
  response: z.array(userPickerItem),
});

export const putSystemPermissions = defineCall({
  method: 'PUT',
  path: '/api/User/:id/SystemPermissions',
  tag: 'User',
  summary: "Change a user's system permissions (canManageUsers); the last administrator keeps them",
  params: z.object({ id: z.coerce.number().int().positive() }),
  body: z.object({ canManageUsers: z.boolean() }),
  response: userListItem,
});

export const putUserActive = defineCall({
  method: 'PUT',
  path: '/api/User/:id/Active',
  tag: 'User',
  summary:
    'Deactivate or reactivate a user (canManageUsers): a deactivated user cannot sign in and their tokens are ' +
    'refused; their roles and memberships are kept. Not oneself, and not the last administrator',
  params: z.object({ id: z.coerce.number().int().positive() }),
  body: z.object({ active: z.boolean() }),
  response: userListItem,
});

/** A group a user belongs to, directly or through nesting, with one path that makes them a member. */
export const userGroupMembership = z.object({
  group: groupRef,
  direct: z.boolean(),
  /** From this group down to the user's direct group (Staff › Analysts); just the group when direct. */
  path: z.array(groupRef),
});
export type UserGroupMembership = z.infer<typeof userGroupMembership>;

export const userGroupsOfUser = z.object({ user: userRef, groups: z.array(userGroupMembership) });
export type UserGroupsOfUser = z.infer<typeof userGroupsOfUser>;

export const getUserGroupsOfUser = defineCall({
  method: 'GET',
  path: '/api/User/:id/Groups',
  tag: 'User',
  summary:
    "A user's groups, direct and through nesting, each with the path it comes through (canManageUsers, or oneself)",
  params: z.object({ id: z.coerce.number().int().positive() }),
  response: userGroupsOfUser,
});
