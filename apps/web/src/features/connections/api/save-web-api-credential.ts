import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  postWebApiCredential,
  putWebApiCredential,
  type CreateWebApiCredential,
  type UpdateWebApiCredential,
} from '@datalab/contract/api/web-api';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';

export type SaveCredentialInput = { create: CreateWebApiCredential } | { update: UpdateWebApiCredential };

/** Creates or changes a credential of a connection; its secret is sent only when a new one was typed. */
export function useSaveWebApiCredential() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SaveCredentialInput) =>
      'create' in input
        ? apiCall(postWebApiCredential, { body: input.create, quietStatuses: [409] })
        : apiCall(putWebApiCredential, { body: input.update, quietStatuses: [409] }),
    onSuccess: () => invalidateScopes(queryClient, 'connections'),
  });
}
