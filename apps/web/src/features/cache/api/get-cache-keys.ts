import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getCacheKeys } from '@datalab/contract/api/caching';
import { apiCall } from '../../../lib/api-client.ts';
import { cacheKeys, type CacheListQuery } from '../keys.ts';

export function fetchCacheEntries({ type, page, pageSize }: CacheListQuery, signal?: AbortSignal) {
  return apiCall(getCacheKeys, { query: { type, page, pageSize }, signal });
}

export function cacheEntriesQueryOptions(query: CacheListQuery) {
  return queryOptions({
    queryKey: cacheKeys.list(query),
    queryFn: ({ signal }) => fetchCacheEntries(query, signal),
    placeholderData: keepPreviousData,
  });
}

/** The cache's entries, newest first, of one type or all (canManageUsers). */
export function useCacheEntries(query: CacheListQuery) {
  return useQuery(cacheEntriesQueryOptions(query));
}
