import { queryScopes } from '../../lib/query-scopes.ts';

export const accountKeys = {
  all: queryScopes.account,
  currentUser: () => [...accountKeys.all, 'current-user'] as const,
};
