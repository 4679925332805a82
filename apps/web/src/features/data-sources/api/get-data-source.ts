import { queryOptions, useQuery } from '@tanstack/react-query';
import { getDataSourceByUid } from '@datalab/contract/api/data-sources';
import { apiCall } from '../../../lib/api-client.ts';
import { dataSourceKeys } from '../keys.ts';

export function fetchDataSource(uid: string, signal?: AbortSignal) {
  // A missing asset is the screen's not-found state, not a toast.
  return apiCall(getDataSourceByUid, { params: { uid }, signal, quietStatuses: [404] });
}

export function dataSourceQueryOptions(uid: string) {
  return queryOptions({
    queryKey: dataSourceKeys.detail(uid),
    queryFn: ({ signal }) => fetchDataSource(uid, signal),
  });
}

/** One data asset whole: parameters, transformations, connection, limits. */
export function useDataSource(uid: string) {
  return useQuery(dataSourceQueryOptions(uid));
}
