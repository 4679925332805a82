import { queryOptions, useQuery } from '@tanstack/react-query';
import { getDataSourcesOfCollection } from '@datalab/contract/api/data-sources';
import { apiCall } from '../../../lib/api-client.ts';
import { assetEditorKeys } from '../keys.ts';

export function fetchSourceAssets(collectionUid: string, signal?: AbortSignal) {
  return apiCall(getDataSourcesOfCollection, { query: { collectionUid }, signal });
}

export function sourceAssetsQueryOptions(collectionUid: string) {
  return queryOptions({
    queryKey: assetEditorKeys.sources(collectionUid),
    queryFn: ({ signal }) => fetchSourceAssets(collectionUid, signal),
    staleTime: 60_000,
  });
}

/** The collection's assets, any of which (but the one edited) may feed a parameter's values. */
export function useSourceAssets(collectionUid: string) {
  return useQuery(sourceAssetsQueryOptions(collectionUid));
}
