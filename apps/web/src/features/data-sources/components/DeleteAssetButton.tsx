import { Button } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { getDataSourceDependents } from '@datalab/contract/api/dependents';
import { deleteSqlDataSource } from '@datalab/contract/api/sql-data-sources';
import { deleteWebApiDataSource } from '@datalab/contract/api/web-api';
import { DeleteWithDependents } from '../../../components/confirm/DeleteWithDependents.tsx';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';
import { dataSourceKeys } from '../keys.ts';

export interface DeleteAssetButtonProps {
  asset: { uid: string; name: string; kind: 'sql' | 'webapi' };
  onDeleted: () => void;
}

/** Deletes a data asset (Editors) after showing what goes with it: its downloads and cached results. */
export function DeleteAssetButton({ asset, onDeleted }: DeleteAssetButtonProps) {
  const queryClient = useQueryClient();
  const remove = () => {
    const input = { query: { uid: asset.uid }, quietStatuses: [409] };
    return asset.kind === 'sql' ? apiCall(deleteSqlDataSource, input) : apiCall(deleteWebApiDataSource, input);
  };
  const deleted = () => {
    queryClient.removeQueries({ queryKey: dataSourceKeys.detail(asset.uid) });
    void invalidateScopes(queryClient, 'dataSources', 'connections', 'collections');
    onDeleted();
  };
  return (
    <DeleteWithDependents
      what="data asset"
      name={asset.name}
      queryKey={[...dataSourceKeys.detail(asset.uid), 'dependents']}
      loadDependents={(signal) => apiCall(getDataSourceDependents, { params: { id: asset.uid }, signal })}
      onDelete={remove}
      onDeleted={deleted}
    >
      {(open) => (
        <Button variant="default" color="red" leftSection={<IconTrash size={16} />} onClick={open}>
          Delete
        </Button>
      )}
    </DeleteWithDependents>
  );
}
