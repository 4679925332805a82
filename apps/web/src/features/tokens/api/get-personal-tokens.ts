import { queryOptions, useQuery } from '@tanstack/react-query';
import { getAllPersonalAccessTokens } from '@datalab/contract/api/tokens';
import { apiCall } from '../../../lib/api-client.ts';
import { tokenKeys } from '../keys.ts';

export function fetchPersonalTokens(signal?: AbortSignal) {
  return apiCall(getAllPersonalAccessTokens, { signal });
}

export function personalTokensQueryOptions() {
  return queryOptions({ queryKey: tokenKeys.personal(), queryFn: ({ signal }) => fetchPersonalTokens(signal) });
}

/** The caller's own personal access tokens, newest first. */
export function usePersonalTokens() {
  return useQuery(personalTokensQueryOptions());
}
