import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getAllCollections } from '@datalab/contract/api/collections';
import { apiCall } from '../../../lib/api-client.ts';
import { collectionKeys, type CollectionListQuery } from '../keys.ts';

export function fetchCollections(
  { search, page, pageSize, sortBy, sortDirection }: CollectionListQuery,
  signal?: AbortSignal,
) {
  return apiCall(getAllCollections, {
    query: { search: search || undefined, page, pageSize, sortBy, sortDirection },
    signal,
  });
}

export function collectionsQueryOptions(query: CollectionListQuery) {
  return queryOptions({
    queryKey: collectionKeys.list(query),
    queryFn: ({ signal }) => fetchCollections(query, signal),
    // Paging and searching keep the current page on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });
}

/** The collections the caller can see (all of them for an administrator), a page at a time. */
export function useCollections(query: CollectionListQuery) {
  return useQuery(collectionsQueryOptions(query));
}
