import { queryOptions, useQuery } from '@tanstack/react-query';
import { getChildGroups } from '@datalab/contract/api/user-groups';
import { apiCall } from '../../../lib/api-client.ts';
import { userGroupKeys } from '../keys.ts';

export function fetchChildGroups(id: number, signal?: AbortSignal) {
  return apiCall(getChildGroups, { params: { id }, signal });
}

export function childGroupsQueryOptions(id: number) {
  return queryOptions({ queryKey: userGroupKeys.children(id), queryFn: ({ signal }) => fetchChildGroups(id, signal) });
}

/** The groups nested directly in a group. */
export function useChildGroups(id: number) {
  return useQuery(childGroupsQueryOptions(id));
}
