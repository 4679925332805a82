import { queryOptions, useQuery } from '@tanstack/react-query';
import { getRecentCalls } from '@datalab/contract/api/data-sources';
import { apiCall } from '../../../lib/api-client.ts';
import { dataSourceKeys } from '../keys.ts';

export const RECENT_CALLS_SHOWN = 20;

export function fetchRecentCalls(uid: string, take: number, signal?: AbortSignal) {
  return apiCall(getRecentCalls, { params: { id: uid }, query: { take }, signal });
}

export function recentCallsQueryOptions(uid: string, take = RECENT_CALLS_SHOWN) {
  return queryOptions({
    queryKey: dataSourceKeys.recentCalls(uid, take),
    queryFn: ({ signal }) => fetchRecentCalls(uid, take, signal),
  });
}

/** An asset's latest calls: the caller's own, or everyone's for its Editors, Owners and administrators. */
export function useRecentCalls(uid: string, take = RECENT_CALLS_SHOWN) {
  return useQuery(recentCallsQueryOptions(uid, take));
}
