import type { TokenKind, TokenStatus } from '@datalab/contract/api/tokens';
import { queryScopes } from '../../lib/query-scopes.ts';

export interface TokenListQuery {
  page: number;
  pageSize: number;
  kind?: TokenKind | undefined;
  status?: TokenStatus | undefined;
}

export const tokenKeys = {
  all: queryScopes.tokens,
  lists: () => [...tokenKeys.all, 'list'] as const,
  list: (query: TokenListQuery) => [...tokenKeys.lists(), query] as const,
  personal: () => [...tokenKeys.lists(), 'personal'] as const,
  ofCollection: (uid: string) => [...tokenKeys.lists(), 'collection', uid] as const,
  dataRoles: (id: number) => [...tokenKeys.all, 'data-roles', id] as const,
};
