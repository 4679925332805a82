import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getUserMetricsSummaries } from '@datalab/contract/api/reporting';
import { apiCall } from '../../../lib/api-client.ts';
import { scopeParams, usageKeys, type UsageQuery } from '../keys.ts';

export function fetchUserMetricsSummaries(query: UsageQuery, signal?: AbortSignal) {
  const { scope, ...rest } = query;
  return apiCall(getUserMetricsSummaries, { query: { ...rest, ...scopeParams(scope) }, signal });
}

export function userMetricsSummariesQueryOptions(query: UsageQuery) {
  return queryOptions({
    queryKey: usageKeys.users(query),
    queryFn: ({ signal }) => fetchUserMetricsSummaries(query, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** Usage per user over the period (most active first); collection tokens' calls count under no person. */
export function useUserMetricsSummaries(query: UsageQuery) {
  return useQuery(userMetricsSummariesQueryOptions(query));
}
