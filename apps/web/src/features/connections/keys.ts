import { queryScopes } from '../../lib/query-scopes.ts';

export const connectionKeys = {
  all: queryScopes.connections,
  ofCollection: (collectionUid: string) => [...connectionKeys.all, 'collection', collectionUid] as const,
  webApiOfCollection: (collectionUid: string) => [...connectionKeys.all, 'web-api', collectionUid] as const,
  schema: (connectionId: number) => [...connectionKeys.all, 'schema', connectionId] as const,
};
