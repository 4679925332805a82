import { useMutation, useQueryClient } from '@tanstack/react-query';
import { putSqlConnection, type SqlConnection } from '@datalab/contract/api/sql-connections';
import type { z } from 'zod';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';
import { connectionKeys } from '../keys.ts';

/** The fields the SQL connection form shows the server's messages under (the toast leaves them out). */
export const SQL_CONNECTION_FIELDS = ['name', 'host', 'port', 'database'] as const;

export type ConnectionSettings = z.input<NonNullable<(typeof putSqlConnection)['body']>>;

/** Changes a connection; its password changes only when a new one is sent. A 409 name shows on the field. */
export function useUpdateConnection(connection: SqlConnection) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ConnectionSettings) =>
      apiCall(putSqlConnection, {
        params: { id: String(connection.id) },
        body,
        quietStatuses: [409],
        inlineFields: SQL_CONNECTION_FIELDS,
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: connectionKeys.ofCollection(connection.collectionUid) });
      // Assets show their connection's name.
      await invalidateScopes(queryClient, 'dataSources');
    },
  });
}
