import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getAllTokens } from '@datalab/contract/api/tokens';
import { apiCall } from '../../../lib/api-client.ts';
import { tokenKeys, type TokenListQuery } from '../keys.ts';

export function fetchTokens(query: TokenListQuery, signal?: AbortSignal) {
  return apiCall(getAllTokens, { query, signal });
}

export function tokensQueryOptions(query: TokenListQuery) {
  return queryOptions({
    queryKey: tokenKeys.list(query),
    queryFn: ({ signal }) => fetchTokens(query, signal),
    placeholderData: keepPreviousData,
  });
}

/** Every token the caller may manage (their own, their collections'; all for administrators), a page at a time. */
export function useTokens(query: TokenListQuery) {
  return useQuery(tokensQueryOptions(query));
}
