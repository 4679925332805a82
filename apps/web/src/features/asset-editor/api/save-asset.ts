import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  deleteClientToolConfiguration,
  putClientToolConfiguration,
  type ClientTool,
  type DataSourceDetail,
} from '@datalab/contract/api/data-sources';
import { postSqlDataSource, putSqlDataSource } from '@datalab/contract/api/sql-data-sources';
import type { z } from 'zod';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';
import { clientToolChanges } from '../model/client-tools.ts';

export type CreateAssetInput = z.input<NonNullable<(typeof postSqlDataSource)['body']>>;
export type UpdateAssetInput = z.input<NonNullable<(typeof putSqlDataSource)['body']>>;
export type SaveAssetInput = ({ create: CreateAssetInput } | { update: UpdateAssetInput }) & {
  clientTools: readonly ClientTool[];
};

/**
 * Client tool configurations have calls of their own (they do not change the asset's version): after the asset
 * is saved, the tools ticked and not configured are added (settings empty) and the ones unticked deleted. The
 * settings of a tool kept are left as they are.
 */
async function syncClientTools(saved: DataSourceDetail, wanted: readonly ClientTool[]): Promise<DataSourceDetail> {
  const { add, remove } = clientToolChanges(wanted, saved.clientToolConfigurations);
  let configurations = saved.clientToolConfigurations;
  for (const tool of add) {
    configurations = await apiCall(putClientToolConfiguration, {
      params: { id: saved.uid },
      body: { tool, settings: {} },
    });
  }
  for (const cid of remove) {
    configurations = await apiCall(deleteClientToolConfiguration, {
      params: { id: saved.uid, cid: String(cid) },
    });
  }
  return { ...saved, clientToolConfigurations: configurations };
}

/** Creates (no uid) or changes (uid) a SQL data asset and its client tools; a 409 name shows on its field. */
export function useSaveAsset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SaveAssetInput) => {
      const saved =
        'create' in input
          ? await apiCall(postSqlDataSource, { body: input.create, quietStatuses: [409] })
          : await apiCall(putSqlDataSource, { body: input.update, quietStatuses: [409] });
      return syncClientTools(saved, input.clientTools);
    },
    // Lists, the asset's detail and the collection's counts all change.
    onSuccess: () => invalidateScopes(queryClient, 'dataSources', 'collections', 'connections'),
  });
}
