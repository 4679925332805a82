import { useMutation, useQueryClient } from '@tanstack/react-query';
import { applyCollectionDefinition, type DefinitionRequest } from '@datalab/contract/api/definitions';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';

export function applyDefinition(uid: string, body: DefinitionRequest) {
  return apiCall(applyCollectionDefinition, { params: { uid }, body, quietStatuses: [400, 404, 409, 413] });
}

/** Makes a document's changes in one transaction; everything a collection holds may have changed. */
export function useApplyDefinition(uid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DefinitionRequest) => applyDefinition(uid, body),
    onSuccess: () =>
      invalidateScopes(queryClient, 'collections', 'connections', 'dataSources', 'dataRoles', 'cache', 'tokens'),
  });
}
