import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getAllDataSources } from '@datalab/contract/api/data-sources';
import { apiCall } from '../../../lib/api-client.ts';
import { dataSourceKeys, type DataSourceListQuery } from '../keys.ts';

export function fetchDataSources(query: DataSourceListQuery, signal?: AbortSignal) {
  const { search, page, pageSize, collectionUid, kind } = query;
  return apiCall(getAllDataSources, {
    query: { search: search || undefined, page, pageSize, collectionUid, kind },
    signal,
  });
}

export function dataSourcesQueryOptions(query: DataSourceListQuery) {
  return queryOptions({
    queryKey: dataSourceKeys.list(query),
    queryFn: ({ signal }) => fetchDataSources(query, signal),
    placeholderData: keepPreviousData,
  });
}

/** Every data asset the caller can call, a page at a time. */
export function useDataSources(query: DataSourceListQuery) {
  return useQuery(dataSourcesQueryOptions(query));
}
