import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postSqlDataSource, putSqlDataSource } from '@datalab/contract/api/sql-data-sources';
import type { z } from 'zod';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';

export type CreateAssetInput = z.input<NonNullable<(typeof postSqlDataSource)['body']>>;
export type UpdateAssetInput = z.input<NonNullable<(typeof putSqlDataSource)['body']>>;

/** Creates (no uid) or changes (uid) a SQL data asset; a 409 name shows on its field. */
export function useSaveAsset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { create: CreateAssetInput } | { update: UpdateAssetInput }) =>
      'create' in input
        ? apiCall(postSqlDataSource, { body: input.create, quietStatuses: [409] })
        : apiCall(putSqlDataSource, { body: input.update, quietStatuses: [409] }),
    // Lists, the asset's detail and the collection's counts all change.
    onSuccess: () => invalidateScopes(queryClient, 'dataSources', 'collections', 'connections'),
  });
}
