import { queryOptions, useQuery } from '@tanstack/react-query';
import { getTokensByCollection } from '@datalab/contract/api/tokens';
import { apiCall } from '../../../lib/api-client.ts';
import { tokenKeys } from '../keys.ts';

export function fetchCollectionTokens(collectionUid: string, signal?: AbortSignal) {
  return apiCall(getTokensByCollection, { query: { collectionUid }, signal });
}

export function collectionTokensQueryOptions(collectionUid: string) {
  return queryOptions({
    queryKey: tokenKeys.ofCollection(collectionUid),
    queryFn: ({ signal }) => fetchCollectionTokens(collectionUid, signal),
  });
}

/** A collection's tokens, newest first, revoked and expired ones included (its Owners; administrators). */
export function useCollectionTokens(collectionUid: string) {
  return useQuery(collectionTokensQueryOptions(collectionUid));
}
