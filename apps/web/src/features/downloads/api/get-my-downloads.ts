import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { DOWNLOAD_POLL_INTERVAL_MS, getMyDownloads } from '@datalab/contract/api/downloads';
import type { PageQuery } from '@datalab/contract/paging';
import { apiCall } from '../../../lib/api-client.ts';
import { isSettled } from '../format.ts';
import { downloadKeys } from '../keys.ts';

export function fetchMyDownloads(query: PageQuery, signal?: AbortSignal) {
  return apiCall(getMyDownloads, { query, signal });
}

export function myDownloadsQueryOptions(query: PageQuery) {
  return queryOptions({
    queryKey: downloadKeys.list(query),
    queryFn: ({ signal }) => fetchMyDownloads(query, signal),
    placeholderData: keepPreviousData,
    // While a job on the page is queued or running, the list refreshes on the polling interval; it stops once every
    // job shown has settled (and, as every query does, while the tab is hidden).
    refetchInterval: (query) =>
      query.state.data?.items.some((job) => !isSettled(job)) ? DOWNLOAD_POLL_INTERVAL_MS : false,
  });
}

/** The caller's own download jobs, newest first, a page at a time. */
export function useMyDownloads(query: PageQuery) {
  return useQuery(myDownloadsQueryOptions(query));
}
