import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteCollection as deleteCollectionCall } from '@datalab/contract/api/collections';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';
import { collectionKeys } from '../keys.ts';

export function deleteCollection(uid: string) {
  return apiCall(deleteCollectionCall, { query: { uid } });
}

/** Deletes a collection with everything in it (Owner). */
export function useDeleteCollection(uid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteCollection(uid),
    onSuccess: async () => {
      // Its detail is marked stale but not fetched now: the screen still showing it is being left,
      // and asking would only earn a 404. Opened again, it is fetched and shows as not found.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: collectionKeys.detail(uid), refetchType: 'none' }),
        queryClient.invalidateQueries({ queryKey: collectionKeys.lists() }),
        invalidateScopes(queryClient, 'dataRoles'),
      ]);
    },
  });
}
