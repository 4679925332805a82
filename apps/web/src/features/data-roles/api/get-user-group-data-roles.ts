import { queryOptions, useQuery } from '@tanstack/react-query';
import { getUserGroupDataRoles } from '@datalab/contract/api/data-roles';
import { apiCall } from '../../../lib/api-client.ts';
import { dataRoleKeys } from '../keys.ts';

export function fetchUserGroupDataRoles(groupId: number, signal?: AbortSignal) {
  return apiCall(getUserGroupDataRoles, { params: { id: groupId }, signal });
}

export function userGroupDataRolesQueryOptions(groupId: number) {
  return queryOptions({
    queryKey: dataRoleKeys.group(groupId),
    queryFn: ({ signal }) => fetchUserGroupDataRoles(groupId, signal),
  });
}

/** The roles a group holds on collections (canManageUsers). */
export function useUserGroupDataRoles(groupId: number) {
  return useQuery(userGroupDataRolesQueryOptions(groupId));
}
