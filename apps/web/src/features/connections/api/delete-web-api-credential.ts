import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteWebApiConnectionCredential } from '@datalab/contract/api/web-api';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';

/** Deletes one of a connection's credentials that no data asset sends (409 otherwise, shown in place). */
export function useDeleteWebApiCredential(connectionId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credentialId: number) =>
      apiCall(deleteWebApiConnectionCredential, {
        params: { id: String(connectionId), credId: String(credentialId) },
        quietStatuses: [409],
      }),
    onSuccess: () => invalidateScopes(queryClient, 'connections'),
  });
}
