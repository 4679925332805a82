import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postSqlConnection } from '@datalab/contract/api/sql-connections';
import { apiCall } from '../../../lib/api-client.ts';
import { connectionKeys } from '../keys.ts';
import type { ConnectionSettings } from './update-connection.ts';
import { SQL_CONNECTION_FIELDS } from './update-connection.ts';

/** Creates a connection in a collection (its password sealed by the server). A 409 name shows on the field. */
export function useCreateConnection(collectionUid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: ConnectionSettings) =>
      apiCall(postSqlConnection, {
        body: { ...settings, collectionUid },
        quietStatuses: [409],
        inlineFields: SQL_CONNECTION_FIELDS,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: connectionKeys.ofCollection(collectionUid) }),
  });
}
