import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getApplicationLogs, type ApplicationLogQuery } from '@datalab/contract/api/application-logs';
import { apiCall } from '../../../lib/api-client.ts';
import { logKeys } from '../keys.ts';

export function fetchApplicationLogs(query: ApplicationLogQuery, signal?: AbortSignal) {
  return apiCall(getApplicationLogs, { query, signal });
}

export function applicationLogsQueryOptions(query: ApplicationLogQuery) {
  return queryOptions({
    queryKey: logKeys.list(query),
    queryFn: ({ signal }) => fetchApplicationLogs(query, signal),
    placeholderData: keepPreviousData,
  });
}

/** Application-log records, newest first, as the filters ask (canManageUsers). */
export function useApplicationLogs(query: ApplicationLogQuery) {
  return useQuery(applicationLogsQueryOptions(query));
}
