import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getParameterData } from '@datalab/contract/api/data-sources';
import { apiCall } from '../../../lib/api-client.ts';
import { dataSourceKeys } from '../keys.ts';

export function fetchParameterData(
  parameterId: number,
  parentValues: Record<string, string | string[]>,
  signal?: AbortSignal,
) {
  return apiCall(getParameterData, { params: { id: String(parameterId) }, query: parentValues, signal });
}

export function parameterDataQueryOptions(
  parameterId: number,
  parentValues: Record<string, string | string[]>,
  enabled: boolean,
) {
  return queryOptions({
    queryKey: dataSourceKeys.parameterData(parameterId, parentValues),
    queryFn: ({ signal }) => fetchParameterData(parameterId, parentValues, signal),
    enabled,
    // A parent's new value keeps the old options on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}

/** A parameter's allowed values from its parameter data source, for its parents' current values. */
export function useParameterData(parameterId: number, parentValues: Record<string, string | string[]>, enabled = true) {
  return useQuery(parameterDataQueryOptions(parameterId, parentValues, enabled));
}
