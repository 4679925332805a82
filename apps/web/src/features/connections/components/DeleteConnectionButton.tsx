import { Button } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { getSqlConnectionDependents, getWebApiConnectionDependents } from '@datalab/contract/api/dependents';
import { deleteSqlConnection } from '@datalab/contract/api/sql-connections';
import { deleteWebApiConnection } from '@datalab/contract/api/web-api';
import { DeleteWithDependents } from '../../../components/confirm/DeleteWithDependents.tsx';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';
import { connectionKeys } from '../keys.ts';

export interface DeleteConnectionButtonProps {
  connection: { id: number; name: string };
  kind: 'sql' | 'webapi';
  onDeleted: () => void;
}

/**
 * Deletes a SQL or Web API connection (Owners) after showing what goes with it (a Web API connection's
 * credentials); while data assets use it, the dialog names them instead and offers no delete.
 */
export function DeleteConnectionButton({ connection, kind, onDeleted }: DeleteConnectionButtonProps) {
  const queryClient = useQueryClient();
  const params = { id: String(connection.id) };
  const load = (signal: AbortSignal) =>
    kind === 'sql'
      ? apiCall(getSqlConnectionDependents, { params, signal })
      : apiCall(getWebApiConnectionDependents, { params, signal });
  const remove = () =>
    kind === 'sql'
      ? apiCall(deleteSqlConnection, { params, quietStatuses: [409] })
      : apiCall(deleteWebApiConnection, { params, quietStatuses: [409] });
  return (
    <DeleteWithDependents
      what={kind === 'sql' ? 'SQL connection' : 'Web API connection'}
      name={connection.name}
      queryKey={[...connectionKeys.all, 'dependents', kind, connection.id]}
      loadDependents={load}
      onDelete={remove}
      onDeleted={() => {
        void invalidateScopes(queryClient, 'connections', 'collections');
        onDeleted();
      }}
    >
      {(open) => (
        <Button variant="default" color="red" leftSection={<IconTrash size={16} />} onClick={open}>
          Delete connection
        </Button>
      )}
    </DeleteWithDependents>
  );
}
