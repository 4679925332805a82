import { queryOptions, useQuery } from '@tanstack/react-query';
import { getSqlConnectionSchema } from '@datalab/contract/api/sql-connections';
import { apiCall } from '../../../lib/api-client.ts';
import { queryScopes } from '../../../lib/query-scopes.ts';

export function fetchSchema(connectionId: number, signal?: AbortSignal) {
  return apiCall(getSqlConnectionSchema, { params: { id: String(connectionId) }, signal });
}

export function schemaQueryOptions(connectionId: number | null) {
  return queryOptions({
    queryKey: [...queryScopes.connections, 'schema', connectionId] as const,
    queryFn: ({ signal }) => fetchSchema(connectionId ?? 0, signal),
    enabled: connectionId !== null,
    staleTime: 5 * 60_000,
  });
}

/** The connection's tables and columns, for the SQL editor's completion. */
export function useSchema(connectionId: number | null) {
  return useQuery(schemaQueryOptions(connectionId));
}
