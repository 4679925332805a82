import { queryOptions, useQuery } from '@tanstack/react-query';
import { getDataSourcesOfCollection } from '@datalab/contract/api/data-sources';
import { apiCall } from '../../../lib/api-client.ts';
import { dataSourceKeys } from '../keys.ts';

export function fetchCollectionDataSources(collectionUid: string, signal?: AbortSignal) {
  return apiCall(getDataSourcesOfCollection, { query: { collectionUid }, signal });
}

export function collectionDataSourcesQueryOptions(collectionUid: string) {
  return queryOptions({
    queryKey: dataSourceKeys.ofCollection(collectionUid),
    queryFn: ({ signal }) => fetchCollectionDataSources(collectionUid, signal),
  });
}

/** The data assets of one collection. */
export function useCollectionDataSources(collectionUid: string) {
  return useQuery(collectionDataSourcesQueryOptions(collectionUid));
}
