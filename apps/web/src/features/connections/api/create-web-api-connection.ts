import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postWebApiConnection } from '@datalab/contract/api/web-api';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';
import type { WebApiConnectionSettings } from './update-web-api-connection.ts';
import { WEB_API_CONNECTION_FIELDS } from './update-web-api-connection.ts';

/** Creates a Web API connection in a collection. A 409 name shows on the field. */
export function useCreateWebApiConnection(collectionUid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: WebApiConnectionSettings) =>
      apiCall(postWebApiConnection, {
        body: { ...settings, collectionUid },
        quietStatuses: [409],
        inlineFields: WEB_API_CONNECTION_FIELDS,
      }),
    // The collection's connection count changes too.
    onSuccess: () => invalidateScopes(queryClient, 'connections', 'collections'),
  });
}
