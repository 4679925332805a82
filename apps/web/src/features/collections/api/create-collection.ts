import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postCollection } from '@datalab/contract/api/collections';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';
import { collectionKeys } from '../keys.ts';

export interface CollectionInput {
  name: string;
  description: string;
}

export function createCollection(body: CollectionInput) {
  // A taken name (409) is shown on the name field.
  return apiCall(postCollection, { body, quietStatuses: [409] });
}

/** Creates a collection; the caller becomes its Owner. */
export function useCreateCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCollection,
    onSuccess: async (created) => {
      queryClient.setQueryData(collectionKeys.detail(created.uid), created);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: collectionKeys.lists() }),
        invalidateScopes(queryClient, 'dataRoles'),
      ]);
    },
  });
}
