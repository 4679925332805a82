import { queryOptions, useQuery } from '@tanstack/react-query';
import { getTokenDataRoles } from '@datalab/contract/api/tokens';
import { apiCall } from '../../../lib/api-client.ts';
import { tokenKeys } from '../keys.ts';

export function fetchTokenDataRoles(id: number, signal?: AbortSignal) {
  return apiCall(getTokenDataRoles, { params: { id }, signal });
}

export function tokenDataRolesQueryOptions(id: number) {
  return queryOptions({ queryKey: tokenKeys.dataRoles(id), queryFn: ({ signal }) => fetchTokenDataRoles(id, signal) });
}

/** A token's roles, each with what it is worth now (its owner's current role narrows it). */
export function useTokenDataRoles(id: number) {
  return useQuery(tokenDataRolesQueryOptions(id));
}
