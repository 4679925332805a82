import { useMutation } from '@tanstack/react-query';
import { testUnsavedSqlConnection } from '@datalab/contract/api/sql-connections';
import { apiCall } from '../../../lib/api-client.ts';
import type { ConnectionSettings } from './update-connection.ts';
import { SQL_CONNECTION_FIELDS } from './update-connection.ts';

/**
 * Connects with the settings on screen: version and warnings. With a stored connection's id, a masked or empty
 * password is the stored one; without one (a connection not created yet) only the settings typed are used.
 */
export function useTestConnection(collectionUid: string, connectionId?: number) {
  return useMutation({
    mutationFn: (settings: ConnectionSettings) =>
      apiCall(testUnsavedSqlConnection, {
        body: { ...settings, collectionUid, connectionId },
        inlineFields: SQL_CONNECTION_FIELDS,
      }),
  });
}
