import { useMutation, useQueryClient } from '@tanstack/react-query';
import { removeFromCache } from '@datalab/contract/api/caching';
import { apiCall } from '../../../lib/api-client.ts';
import { invalidateScopes } from '../../../lib/query-scopes.ts';

export function removeCacheEntry(key: string) {
  return apiCall(removeFromCache, { query: { key } });
}

/** Removes one entry; the list (and any value shown) is read again. */
export function useRemoveCacheEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeCacheEntry,
    onSettled: () => invalidateScopes(queryClient, 'cache'),
  });
}
