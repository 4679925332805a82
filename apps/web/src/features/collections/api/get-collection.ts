import { queryOptions, useQuery } from '@tanstack/react-query';
import { getCollectionByUid } from '@datalab/contract/api/collections';
import { apiCall } from '../../../lib/api-client.ts';
import { collectionKeys } from '../keys.ts';

export function fetchCollection(uid: string, signal?: AbortSignal) {
  // A 404 (gone, or not shared with the caller) is shown as the screen's not-found state.
  return apiCall(getCollectionByUid, { params: { uid }, signal, quietStatuses: [404] });
}

export function collectionQueryOptions(uid: string) {
  return queryOptions({
    queryKey: collectionKeys.detail(uid),
    queryFn: ({ signal }) => fetchCollection(uid, signal),
  });
}

export function useCollection(uid: string) {
  return useQuery(collectionQueryOptions(uid));
}
