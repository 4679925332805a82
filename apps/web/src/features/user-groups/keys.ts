import { queryScopes } from '../../lib/query-scopes.ts';

export interface UserGroupListQuery {
  search: string;
  page: number;
  pageSize: number;
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
};
