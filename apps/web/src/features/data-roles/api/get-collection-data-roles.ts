import { queryOptions, useQuery } from '@tanstack/react-query';
import { getCollectionDataRoles } from '@datalab/contract/api/data-roles';
import { apiCall } from '../../../lib/api-client.ts';
import { dataRoleKeys } from '../keys.ts';

export function fetchCollectionDataRoles(uid: string, signal?: AbortSignal) {
  return apiCall(getCollectionDataRoles, { params: { id: uid }, signal });
}

export function collectionDataRolesQueryOptions(uid: string) {
  return queryOptions({
    queryKey: dataRoleKeys.collection(uid),
    queryFn: ({ signal }) => fetchCollectionDataRoles(uid, signal),
  });
}

/** Who holds which role on a collection: for its Owners and administrators only (others get 403). */
export function useCollectionDataRoles(uid: string) {
  return useQuery(collectionDataRolesQueryOptions(uid));
}
