import { queryOptions, useQuery } from '@tanstack/react-query';
import { getUserGroup } from '@datalab/contract/api/user-groups';
import { apiCall } from '../../../lib/api-client.ts';
import { userGroupKeys } from '../keys.ts';

export function fetchUserGroup(id: number, signal?: AbortSignal) {
  // An unknown group (404) is the screen's not-found state.
  return apiCall(getUserGroup, { params: { id }, signal, quietStatuses: [404] });
}

export function userGroupQueryOptions(id: number) {
  return queryOptions({ queryKey: userGroupKeys.detail(id), queryFn: ({ signal }) => fetchUserGroup(id, signal) });
}

export function useUserGroup(id: number) {
  return useQuery(userGroupQueryOptions(id));
}
