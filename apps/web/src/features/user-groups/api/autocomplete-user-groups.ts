import { queryOptions, useQuery } from '@tanstack/react-query';
import { autocompleteUserGroups } from '@datalab/contract/api/user-groups';
import { apiCall } from '../../../lib/api-client.ts';
import { userGroupKeys } from '../keys.ts';

export const GROUP_SUGGESTION_LIMIT = 10;

export function fetchUserGroupSuggestions(search: string, signal?: AbortSignal) {
  return apiCall(autocompleteUserGroups, { query: { search, limit: GROUP_SUGGESTION_LIMIT }, signal });
}

export function userGroupSuggestionsQueryOptions(search: string) {
  return queryOptions({
    queryKey: userGroupKeys.suggestions(search),
    queryFn: ({ signal }) => fetchUserGroupSuggestions(search, signal),
    staleTime: 60_000,
  });
}

/** Groups matching a search, for pickers (administrators and collection Owners). */
export function useUserGroupSuggestions(search: string) {
  return useQuery(userGroupSuggestionsQueryOptions(search));
}
