import { queryOptions, useQuery } from '@tanstack/react-query';
import { getGroupUsers } from '@datalab/contract/api/user-groups';
import { apiCall } from '../../../lib/api-client.ts';
import { userGroupKeys } from '../keys.ts';

export function fetchGroupUsers(id: number, signal?: AbortSignal) {
  return apiCall(getGroupUsers, { params: { id }, signal });
}

export function groupUsersQueryOptions(id: number) {
  return queryOptions({ queryKey: userGroupKeys.members(id), queryFn: ({ signal }) => fetchGroupUsers(id, signal) });
}

/** The direct members of a group. */
export function useGroupUsers(id: number) {
  return useQuery(groupUsersQueryOptions(id));
}
