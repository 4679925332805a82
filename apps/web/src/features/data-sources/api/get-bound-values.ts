import { queryOptions, useQuery } from '@tanstack/react-query';
import { postBoundValues } from '@datalab/contract/api/data-sources';
import { apiCall } from '../../../lib/api-client.ts';
import { dataSourceKeys } from '../keys.ts';

// The values a call with this body binds, typed by the server's own checks (nothing runs). A POST, since the values
// are a JSON object like the call's body, but it changes nothing, so it is read as a query.

export function fetchBoundValues(uid: string, values: Record<string, unknown>, signal?: AbortSignal) {
  return apiCall(postBoundValues, { params: { id: uid }, body: values, signal });
}

export function boundValuesQueryOptions(uid: string, values: Record<string, unknown>) {
  return queryOptions({
    queryKey: dataSourceKeys.boundValues(uid, values),
    queryFn: ({ signal }) => fetchBoundValues(uid, values, signal),
    // The same values bind the same way until the asset changes (its detail key, which this one sits under).
    staleTime: Infinity,
  });
}

export function useBoundValues(uid: string, values: Record<string, unknown>) {
  return useQuery(boundValuesQueryOptions(uid, values));
}
