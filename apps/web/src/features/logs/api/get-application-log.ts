import { queryOptions, useQuery } from '@tanstack/react-query';
import { getApplicationLog } from '@datalab/contract/api/application-logs';
import { apiCall } from '../../../lib/api-client.ts';
import { logKeys } from '../keys.ts';

export function fetchApplicationLog(id: number, signal?: AbortSignal) {
  return apiCall(getApplicationLog, { params: { id }, signal });
}

export function applicationLogQueryOptions(id: number) {
  return queryOptions({
    queryKey: logKeys.record(id),
    queryFn: ({ signal }) => fetchApplicationLog(id, signal),
    // A record never changes once written.
    staleTime: Infinity,
  });
}

/** One record with its details; nothing is fetched while `id` is null. */
export function useApplicationLog(id: number | null) {
  return useQuery({ ...applicationLogQueryOptions(id ?? 0), enabled: id !== null });
}
