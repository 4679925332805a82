import type { Granularity } from '@datalab/contract/api/reporting';

/** What a usage report covers: one data asset, one collection, or everything (administrators). */
export type UsageScope = { kind: 'dataAsset'; uid: string } | { kind: 'collection'; uid: string } | { kind: 'all' };

export interface UsageQuery {
  scope: UsageScope;
  from: string;
  to: string;
  granularity: Granularity;
  page: number;
  pageSize: number;
}

/** The scope as the Reporting calls take it. */
export function scopeParams(scope: UsageScope): { collectionUid?: string; dataAssetUid?: string } {
  if (scope.kind === 'collection') return { collectionUid: scope.uid };
  if (scope.kind === 'dataAsset') return { dataAssetUid: scope.uid };
  return {};
}

// Usage changes with every call anyone makes; nothing the portal does invalidates it, so no shared query scope.
export const usageKeys = {
  all: ['usage'] as const,
  dataSources: (query: UsageQuery) => [...usageKeys.all, 'data-sources', query] as const,
  users: (query: UsageQuery) => [...usageKeys.all, 'users', query] as const,
};
