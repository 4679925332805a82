import { queryOptions, useQuery } from '@tanstack/react-query';
import { getGroupHierarchy } from '@datalab/contract/api/user-groups';
import { apiCall } from '../../../lib/api-client.ts';
import { userGroupKeys } from '../keys.ts';

export function fetchGroupHierarchy(id: number, signal?: AbortSignal) {
  return apiCall(getGroupHierarchy, { params: { id }, signal });
}

export function groupHierarchyQueryOptions(id: number) {
  return queryOptions({
    queryKey: userGroupKeys.hierarchy(id),
    queryFn: ({ signal }) => fetchGroupHierarchy(id, signal),
  });
}

/** The groups above a group (containing it) and below it (nested in it). */
export function useGroupHierarchy(id: number) {
  return useQuery(groupHierarchyQueryOptions(id));
}
