import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getDataSourceMetricsSummaries } from '@datalab/contract/api/reporting';
import { apiCall } from '../../../lib/api-client.ts';
import { scopeParams, usageKeys, type UsageQuery } from '../keys.ts';

export function fetchDataSourceMetricsSummaries(query: UsageQuery, signal?: AbortSignal) {
  const { scope, ...rest } = query;
  return apiCall(getDataSourceMetricsSummaries, { query: { ...rest, ...scopeParams(scope) }, signal });
}

export function dataSourceMetricsSummariesQueryOptions(query: UsageQuery) {
  return queryOptions({
    queryKey: usageKeys.dataSources(query),
    queryFn: ({ signal }) => fetchDataSourceMetricsSummaries(query, signal),
    // Another page of the table, or another period: the figures shown stay until the new ones arrive.
    placeholderData: keepPreviousData,
    // Records arrive in batches every second or so: a minute-old report is fresh enough.
    staleTime: 60_000,
  });
}

/** Usage per data source over the period (most called first), with the scope's totals and series. */
export function useDataSourceMetricsSummaries(query: UsageQuery) {
  return useQuery(dataSourceMetricsSummariesQueryOptions(query));
}
