import { queryOptions, useQuery } from '@tanstack/react-query';
import { getNestingCandidates } from '@datalab/contract/api/user-groups';
import { apiCall } from '../../../lib/api-client.ts';
import { userGroupKeys } from '../keys.ts';

export const NESTING_CANDIDATE_LIMIT = 10;

export function fetchNestingCandidates(groupId: number, search: string, signal?: AbortSignal) {
  return apiCall(getNestingCandidates, {
    params: { id: groupId },
    query: { search, limit: NESTING_CANDIDATE_LIMIT },
    signal,
  });
}

export function nestingCandidatesQueryOptions(groupId: number, search: string) {
  return queryOptions({
    queryKey: userGroupKeys.nestingCandidates(groupId, search),
    queryFn: ({ signal }) => fetchNestingCandidates(groupId, search, signal),
  });
}

/** Groups that may be nested in this one: never one that would make a cycle or a chain too deep. */
export function useNestingCandidates(groupId: number, search: string) {
  return useQuery(nestingCandidatesQueryOptions(groupId, search));
}
