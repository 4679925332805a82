import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getUsers } from '@datalab/contract/api/users';
import { apiCall } from '../../../lib/api-client.ts';
import { userKeys, type UserListQuery } from '../keys.ts';

export function fetchUsers({ search, page, pageSize, sortBy, sortDirection }: UserListQuery, signal?: AbortSignal) {
  return apiCall(getUsers, { query: { search: search || undefined, page, pageSize, sortBy, sortDirection }, signal });
}

export function usersQueryOptions(query: UserListQuery) {
  return queryOptions({
    queryKey: userKeys.list(query),
    queryFn: ({ signal }) => fetchUsers(query, signal),
    placeholderData: keepPreviousData,
  });
}

/** Everyone who has signed in, searched by name, username or e-mail (canManageUsers). */
export function useUsers(query: UserListQuery) {
  return useQuery(usersQueryOptions(query));
}
