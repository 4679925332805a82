import { queryScopes } from '../../lib/query-scopes.ts';

export const dataRoleKeys = {
  all: queryScopes.dataRoles,
  collection: (uid: string) => [...dataRoleKeys.all, 'collection', uid] as const,
  user: (id: number) => [...dataRoleKeys.all, 'user', id] as const,
  group: (id: number) => [...dataRoleKeys.all, 'group', id] as const,
};
