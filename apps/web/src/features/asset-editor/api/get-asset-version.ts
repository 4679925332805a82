import { queryOptions, useQuery } from '@tanstack/react-query';
import { getAssetVersion } from '@datalab/contract/api/asset-versions';
import { apiCall } from '../../../lib/api-client.ts';
import { assetEditorKeys } from '../keys.ts';

export function fetchAssetVersion(uid: string, version: number, signal?: AbortSignal) {
  return apiCall(getAssetVersion, { params: { uid, version }, signal });
}

export function assetVersionQueryOptions(uid: string, version: number) {
  return queryOptions({
    queryKey: assetEditorKeys.version(uid, version),
    queryFn: ({ signal }) => fetchAssetVersion(uid, version, signal),
    // A version never changes once kept.
    staleTime: Infinity,
  });
}

/** One version of an asset with its whole definition; nothing is asked while `version` is null. */
export function useAssetVersion(uid: string, version: number | null) {
  return useQuery({ ...assetVersionQueryOptions(uid, version ?? 0), enabled: version !== null });
}
