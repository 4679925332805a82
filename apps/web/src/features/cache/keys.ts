import type { CacheEntryType } from '@datalab/contract/api/caching';
import { queryScopes } from '../../lib/query-scopes.ts';

export interface CacheListQuery {
  type: CacheEntryType | undefined;
  page: number;
  pageSize: number;
}

export const cacheKeys = {
  all: queryScopes.cache,
  lists: () => [...cacheKeys.all, 'list'] as const,
  list: (query: CacheListQuery) => [...cacheKeys.lists(), query] as const,
  value: (key: string, type: CacheEntryType) => [...cacheKeys.all, 'value', type, key] as const,
};
