import { useMutation, useQueryClient } from '@tanstack/react-query';
import { putCollection } from '@datalab/contract/api/collections';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';
import { collectionKeys } from '../keys.ts';
import type { CollectionInput } from './create-collection.ts';

/** The details to save; `mcpEnabled` is left as it is when not sent. */
type UpdateInput = CollectionInput & { mcpEnabled?: boolean };

export function updateCollection(uid: string, body: UpdateInput) {
  return apiCall(putCollection, { body: { uid, ...body }, quietStatuses: [409] });
}

/** Renames or re-describes a collection (Owner). Role lists show its name too. */
export function useUpdateCollection(uid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateInput) => updateCollection(uid, body),
    onSuccess: async (updated) => {
      queryClient.setQueryData(collectionKeys.detail(uid), updated);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: collectionKeys.lists() }),
        invalidateScopes(queryClient, 'dataRoles'),
      ]);
    },
  });
}
