import { queryOptions, useQuery } from '@tanstack/react-query';
import { listSqlConnections } from '@datalab/contract/api/sql-connections';
import { apiCall } from '../../../lib/api-client.ts';
import { connectionKeys } from '../keys.ts';

export function fetchConnections(collectionUid: string, signal?: AbortSignal) {
  return apiCall(listSqlConnections, { query: { collectionUid }, signal });
}

export function connectionsQueryOptions(collectionUid: string) {
  return queryOptions({
    queryKey: connectionKeys.ofCollection(collectionUid),
    queryFn: ({ signal }) => fetchConnections(collectionUid, signal),
  });
}

/** A collection's SQL connections, passwords masked. */
export function useConnections(collectionUid: string) {
  return useQuery(connectionsQueryOptions(collectionUid));
}
