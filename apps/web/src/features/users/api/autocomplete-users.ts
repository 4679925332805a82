import { queryOptions, useQuery } from '@tanstack/react-query';
import { autocompleteUsers, USER_AUTOCOMPLETE_MIN_SEARCH } from '@datalab/contract/api/users';
import { apiCall } from '../../../lib/api-client.ts';
import { userKeys } from '../keys.ts';

export const USER_SUGGESTION_LIMIT = 10;

export function fetchUserSuggestions(search: string, signal?: AbortSignal) {
  return apiCall(autocompleteUsers, { query: { search, limit: USER_SUGGESTION_LIMIT }, signal });
}

export function userSuggestionsQueryOptions(search: string) {
  return queryOptions({
    queryKey: userKeys.suggestions(search),
    queryFn: ({ signal }) => fetchUserSuggestions(search, signal),
    staleTime: 60_000,
    // The server answers 400 to shorter searches (it lists nobody to a one-letter probe).
    enabled: search.length >= USER_AUTOCOMPLETE_MIN_SEARCH,
  });
}

/** Users matching a search, for pickers (administrators and collection Owners). */
export function useUserSuggestions(search: string) {
  return useQuery(userSuggestionsQueryOptions(search));
}
