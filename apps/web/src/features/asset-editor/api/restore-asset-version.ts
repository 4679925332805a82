import { useMutation, useQueryClient } from '@tanstack/react-query';
import { restoreAssetVersion } from '@datalab/contract/api/asset-versions';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';

function restore({ uid, version }: { uid: string; version: number }) {
  return apiCall(restoreAssetVersion, { params: { uid, version } });
}

/** Saves an old version again as a new one; the asset, its lists and its history all change. */
export function useRestoreAssetVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restore,
    onSuccess: () => invalidateScopes(queryClient, 'dataSources', 'collections'),
  });
}
