import { queryOptions, useQuery } from '@tanstack/react-query';
import { listWebApiConnections } from '@datalab/contract/api/web-api';
import { apiCall } from '../../../lib/api-client.ts';
import { connectionKeys } from '../keys.ts';

export function fetchWebApiConnections(collectionUid: string, signal?: AbortSignal) {
  return apiCall(listWebApiConnections, { query: { collectionUid }, signal });
}

export function webApiConnectionsQueryOptions(collectionUid: string) {
  return queryOptions({
    queryKey: connectionKeys.webApiOfCollection(collectionUid),
    queryFn: ({ signal }) => fetchWebApiConnections(collectionUid, signal),
  });
}

/** A collection's Web API connections with their credentials, secrets masked. */
export function useWebApiConnections(collectionUid: string) {
  return useQuery(webApiConnectionsQueryOptions(collectionUid));
}
