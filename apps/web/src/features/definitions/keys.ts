import { queryScopes } from '../../lib/query-scopes.ts';

// Under the collection's own key: invalidating the collection's detail outdates its exported definition too.
export const definitionKeys = {
  document: (uid: string) => [...queryScopes.collections, 'detail', uid, 'definition'] as const,
};
