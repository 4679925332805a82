import { useMutation, useQueryClient } from '@tanstack/react-query';
import { putCollection } from '@datalab/contract/api/collections';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';
import { collectionKeys } from '../keys.ts';
import type { CollectionInput } from './create-collection.ts';

export function updateCollection(uid: string, body: CollectionInput) {
  return apiCall(putCollection, { body: { uid, ...body }, quietStatuses: [409] });
}

/** Renames or re-describes a collection (Owner). Role lists show its name too. */
export function useUpdateCollection(uid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CollectionInput) => updateCollection(uid, body),
    onSuccess: async (updated) => {
      queryClient.setQueryData(collectionKeys.detail(uid), updated);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: collectionKeys.lists() }),
        invalidateScopes(queryClient, 'dataRoles'),
      ]);
    },
  });
}
