import { queryOptions, useQuery } from '@tanstack/react-query';
import { getUserDataRoles } from '@datalab/contract/api/data-roles';
import { apiCall } from '../../../lib/api-client.ts';
import { dataRoleKeys } from '../keys.ts';

export function fetchUserDataRoles(userId: number, signal?: AbortSignal) {
  return apiCall(getUserDataRoles, { params: { id: userId }, signal });
}

export function userDataRolesQueryOptions(userId: number) {
  return queryOptions({
    queryKey: dataRoleKeys.user(userId),
    queryFn: ({ signal }) => fetchUserDataRoles(userId, signal),
  });
}

/** A user's effective roles, each with its direct role and the groups it comes through (self or canManageUsers). */
export function useUserDataRoles(userId: number) {
  return useQuery(userDataRolesQueryOptions(userId));
}
