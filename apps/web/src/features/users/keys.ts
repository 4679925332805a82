import type { userSortColumns } from '@datalab/contract/api/users';
import type { SortDirection } from '@datalab/contract/paging';
import { queryScopes } from '../../lib/query-scopes.ts';

export interface UserListQuery {
  search: string;
  page: number;
  pageSize: number;
  sortBy: (typeof userSortColumns)[number];
  sortDirection: SortDirection;
}

export const userKeys = {
  all: queryScopes.users,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (query: UserListQuery) => [...userKeys.lists(), query] as const,
  suggestions: (search: string) => [...userKeys.all, 'suggestions', search] as const,
  groupsOf: (userId: number) => [...userKeys.all, 'groups-of', userId] as const,
};
