import { queryOptions, useQuery } from '@tanstack/react-query';
import { getCacheValueByType, type CacheEntryType } from '@datalab/contract/api/caching';
import { apiCall } from '../../../lib/api-client.ts';
import { cacheKeys } from '../keys.ts';

export function fetchCacheValue(key: string, type: CacheEntryType, signal?: AbortSignal) {
  return apiCall(getCacheValueByType, { query: { key, type }, signal });
}

export function cacheValueQueryOptions(key: string, type: CacheEntryType) {
  return queryOptions({
    queryKey: cacheKeys.value(key, type),
    queryFn: ({ signal }) => fetchCacheValue(key, type, signal),
    // A removed entry is gone for good: no retry of a 404.
    retry: false,
  });
}

/** One entry's value as its type reads (results as columns and rows). */
export function useCacheValue(entry: { key: string; type: CacheEntryType } | null) {
  return useQuery({
    ...cacheValueQueryOptions(entry?.key ?? '', entry?.type ?? 'results'),
    enabled: entry !== null,
  });
}
