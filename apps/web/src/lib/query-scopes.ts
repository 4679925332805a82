import type { QueryClient } from '@tanstack/react-query';

// The root of every feature's query keys. A change in one area can outdate what another shows (a
// membership changes a user's effective roles; a role change moves a collection into someone's
// list), so mutations invalidate other areas by their root without importing those features.

export const queryScopes = {
  account: ['account'],
  cache: ['cache'],
  collections: ['collections'],
  connections: ['connections'],
  dataRoles: ['data-roles'],
  dataSources: ['data-sources'],
  tokens: ['tokens'],
  users: ['users'],
  userGroups: ['user-groups'],
} as const;

export type QueryScope = keyof typeof queryScopes;

export function invalidateScopes(queryClient: QueryClient, ...scopes: QueryScope[]): Promise<void> {
  return Promise.all(scopes.map((scope) => queryClient.invalidateQueries({ queryKey: queryScopes[scope] }))).then(
    () => undefined,
  );
}
