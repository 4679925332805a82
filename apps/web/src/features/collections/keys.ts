import type { collectionSortColumns } from '@datalab/contract/api/collections';
import type { SortDirection } from '@datalab/contract/paging';
import { queryScopes } from '../../lib/query-scopes.ts';

export interface CollectionListQuery {
  search: string;
  page: number;
  pageSize: number;
  sortBy: (typeof collectionSortColumns)[number];
  sortDirection: SortDirection;
}

export const collectionKeys = {
  all: queryScopes.collections,
  lists: () => [...collectionKeys.all, 'list'] as const,
  list: (query: CollectionListQuery) => [...collectionKeys.lists(), query] as const,
  owned: () => [...collectionKeys.lists(), 'owned'] as const,
  details: () => [...collectionKeys.all, 'detail'] as const,
  detail: (uid: string) => [...collectionKeys.details(), uid] as const,
};
