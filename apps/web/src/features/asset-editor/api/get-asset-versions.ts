import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getAssetVersions } from '@datalab/contract/api/asset-versions';
import { apiCall } from '../../../lib/api-client.ts';
import { assetEditorKeys } from '../keys.ts';

export const VERSIONS_PAGE_SIZE = 20;

export function fetchAssetVersions(uid: string, page: number, signal?: AbortSignal) {
  return apiCall(getAssetVersions, { params: { uid }, query: { page, pageSize: VERSIONS_PAGE_SIZE }, signal });
}

export function assetVersionsQueryOptions(uid: string, page: number) {
  return queryOptions({
    queryKey: assetEditorKeys.versionList(uid, page),
    queryFn: ({ signal }) => fetchAssetVersions(uid, page, signal),
    placeholderData: keepPreviousData,
  });
}

/** An asset's versions, newest first: who saved each, when, and what it changed. */
export function useAssetVersions(uid: string, page: number) {
  return useQuery(assetVersionsQueryOptions(uid, page));
}
