import type { userGroupSortColumns } from '@datalab/contract/api/user-groups';
import type { SortDirection } from '@datalab/contract/paging';
import { queryScopes } from '../../lib/query-scopes.ts';

export interface UserGroupListQuery {
  search: string;
  page: number;
  pageSize: number;
  sortBy: (typeof userGroupSortColumns)[number];
  sortDirection: SortDirection;
}

export const userGroupKeys = {
  all: queryScopes.userGroups,
  lists: () => [...userGroupKeys.all, 'list'] as const,
  list: (query: UserGroupListQuery) => [...userGroupKeys.lists(), query] as const,
  detail: (id: number) => [...userGroupKeys.all, 'detail', id] as const,
  members: (id: number) => [...userGroupKeys.detail(id), 'members'] as const,
  children: (id: number) => [...userGroupKeys.detail(id), 'children'] as const,
  hierarchy: (id: number) => [...userGroupKeys.detail(id), 'hierarchy'] as const,
  suggestions: (search: string) => [...userGroupKeys.all, 'suggestions', search] as const,
  nestingCandidates: (id: number, search: string) =>
    [...userGroupKeys.detail(id), 'nesting-candidates', search] as const,
};
