import { useMutation, useQueryClient } from '@tanstack/react-query';
import { purgeCache, type CacheEntryType } from '@datalab/contract/api/caching';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';

export function purgeCacheEntries(type: CacheEntryType | undefined) {
  return apiCall(purgeCache, { body: type ? { type } : {} });
}

/** Removes every entry, or every entry of one type; answers how many went. */
export function usePurgeCache() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: purgeCacheEntries,
    onSettled: () => invalidateScopes(queryClient, 'cache'),
  });
}
