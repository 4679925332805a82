import { z } from 'zod';
import { defineCall } from '../call.ts';
import { isoDateTime } from '../dates.ts';
import { pageOf, pageQuery } from '../paging.ts';
import { permissions } from './account.ts';
import { groupRef } from './data-roles.ts';

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

export const userSuggestion = z.object({ id: z.number().int(), name: z.string(), username: z.string().nullable(), email: z.string().nullable() });

export const getUsers = defineCall({
  method: 'GET',
  path: '/api/User',
  tag: 'User',
  summary: 'Users, searched by name, username or email (canManageUsers)',
  query: pageQuery.extend({ search: z.string().trim().max(200).optional() }),
  response: pageOf(userListItem),
});

export const autocompleteUsers = defineCall({
  method: 'GET',
  path: '/api/User/Autocomplete',
  tag: 'User',
  summary: 'Up to `limit` users matching a search, for pickers (canManageUsers or a collection Owner)',
  query: z.object({ search: z.string().trim().max(200).default(''), limit: z.coerce.number().int().min(1).max(50).default(10) }),
  response: z.array(userSuggestion),
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
