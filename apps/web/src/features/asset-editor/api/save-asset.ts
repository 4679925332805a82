import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postSqlDataSource, putSqlDataSource } from '@datalab/contract/api/sql-data-sources';
import { postWebApiDataSource, putWebApiDataSource } from '@datalab/contract/api/web-api';
import type { z } from 'zod';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';

type Body<D extends { body?: unknown }> = z.input<Extract<NonNullable<D['body']>, z.ZodType>>;

export type SaveAssetInput =
  | { create: Body<typeof postSqlDataSource> }
  | { update: Body<typeof putSqlDataSource> }
  | { createWebApi: Body<typeof postWebApiDataSource> }
  | { updateWebApi: Body<typeof putWebApiDataSource> };

function saveAsset(input: SaveAssetInput) {
  const quietStatuses = [409];
  // The editor shows these fields' messages under them (a rule's under the rule's own field): the toast leaves them out.
  const inlineFields = ['name', 'connectionId', 'transformations'];
  if ('create' in input) return apiCall(postSqlDataSource, { body: input.create, quietStatuses, inlineFields });
  if ('update' in input) return apiCall(putSqlDataSource, { body: input.update, quietStatuses, inlineFields });
  if ('createWebApi' in input)
    return apiCall(postWebApiDataSource, { body: input.createWebApi, quietStatuses, inlineFields });
  return apiCall(putWebApiDataSource, { body: input.updateWebApi, quietStatuses, inlineFields });
}

/**
 * Creates or changes a data asset — SQL, or Web API with its request and credential — with its parameters,
 * transformations and client tools, in one request the server saves in one transaction: it is saved whole or not at
 * all. A 409 name shows on its field.
 */
export function useSaveAsset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAsset,
    // Lists, the asset's detail and the collection's counts all change.
    onSuccess: () => invalidateScopes(queryClient, 'dataSources', 'collections', 'connections'),
  });
}
