import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getUserGroups } from '@datalab/contract/api/user-groups';
import { apiCall } from '../../../lib/api-client.ts';
import { userGroupKeys, type UserGroupListQuery } from '../keys.ts';

export function fetchUserGroups(
  { search, page, pageSize, sortBy, sortDirection }: UserGroupListQuery,
  signal?: AbortSignal,
) {
  return apiCall(getUserGroups, {
    query: { search: search || undefined, page, pageSize, sortBy, sortDirection },
    signal,
  });
}

export function userGroupsQueryOptions(query: UserGroupListQuery) {
  return queryOptions({
    queryKey: userGroupKeys.list(query),
    queryFn: ({ signal }) => fetchUserGroups(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useUserGroups(query: UserGroupListQuery) {
  return useQuery(userGroupsQueryOptions(query));
}
