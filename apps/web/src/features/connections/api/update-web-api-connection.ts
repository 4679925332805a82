import { useMutation, useQueryClient } from '@tanstack/react-query';
import { putWebApiConnection, type WebApiConnection } from '@datalab/contract/api/web-api';
import type { z } from 'zod';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';

/** The fields the Web API connection form shows the server's messages under (the toast leaves them out). */
export const WEB_API_CONNECTION_FIELDS = ['name', 'baseUrl', 'allowedHosts'] as const;

export type WebApiConnectionSettings = z.input<NonNullable<(typeof putWebApiConnection)['body']>>;

/** Changes a Web API connection (allowed hosts only when sent). A 409 name shows on the field. */
export function useUpdateWebApiConnection(connection: WebApiConnection) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WebApiConnectionSettings) =>
      apiCall(putWebApiConnection, {
        params: { id: String(connection.id) },
        body,
        quietStatuses: [409],
        inlineFields: WEB_API_CONNECTION_FIELDS,
      }),
    // Assets show their connection's name.
    onSuccess: () => invalidateScopes(queryClient, 'connections', 'dataSources'),
  });
}
