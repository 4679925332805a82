import { queryScopes } from '../../lib/query-scopes.ts';

export interface UserListQuery {
  search: string;
  page: number;
  pageSize: number;
}

export const userKeys = {
  all: queryScopes.users,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (query: UserListQuery) => [...userKeys.lists(), query] as const,
  suggestions: (search: string) => [...userKeys.all, 'suggestions', search] as const,
};
