import { queryScopes } from '../../lib/query-scopes.ts';

export interface DataSourceListQuery {
  search: string;
  page: number;
  pageSize: number;
  collectionUid?: string;
  kind?: 'sql' | 'webapi';
}

export const dataSourceKeys = {
  all: queryScopes.dataSources,
  lists: () => [...dataSourceKeys.all, 'list'] as const,
  list: (query: DataSourceListQuery) => [...dataSourceKeys.lists(), query] as const,
  ofCollection: (collectionUid: string) => [...dataSourceKeys.lists(), 'collection', collectionUid] as const,
  details: () => [...dataSourceKeys.all, 'detail'] as const,
  detail: (uid: string) => [...dataSourceKeys.details(), uid] as const,
  recentCalls: (uid: string, take: number) => [...dataSourceKeys.detail(uid), 'recent-calls', take] as const,
  boundValues: (uid: string, values: Record<string, unknown>) =>
    [...dataSourceKeys.detail(uid), 'bound-values', values] as const,
  parameterData: (parameterId: number, parentValues: Record<string, string | string[]>) =>
    [...dataSourceKeys.all, 'parameter-data', parameterId, parentValues] as const,
};
