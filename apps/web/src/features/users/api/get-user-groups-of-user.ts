import { queryOptions, useQuery } from '@tanstack/react-query';
import { getUserGroupsOfUser } from '@datalab/contract/api/users';
import { apiCall } from '../../../lib/api-client.ts';
import { userKeys } from '../keys.ts';

export function fetchUserGroupsOfUser(userId: number, signal?: AbortSignal) {
  return apiCall(getUserGroupsOfUser, { params: { id: userId }, signal });
}

export function userGroupsOfUserQueryOptions(userId: number) {
  return queryOptions({
    queryKey: userKeys.groupsOf(userId),
    queryFn: ({ signal }) => fetchUserGroupsOfUser(userId, signal),
  });
}

/** A user's groups, direct and through nesting, each with the path that makes them a member. */
export function useUserGroupsOfUser(userId: number) {
  return useQuery(userGroupsOfUserQueryOptions(userId));
}
