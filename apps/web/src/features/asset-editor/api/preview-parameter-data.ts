import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { previewParameterData } from '@datalab/contract/api/data-sources';
import type { z } from 'zod';
import { apiCall } from '../../../lib/api-client.ts';
import { assetEditorKeys } from '../keys.ts';

export type ParameterPreviewInput = z.input<NonNullable<(typeof previewParameterData)['body']>>;

export function fetchParameterPreview(body: ParameterPreviewInput, signal?: AbortSignal) {
  // A source that needs a value not given yet is a 400 the card shows in place, not a toast.
  return apiCall(previewParameterData, { body, signal, quietStatuses: [400] });
}

export function parameterPreviewQueryOptions(body: ParameterPreviewInput, enabled: boolean) {
  return queryOptions({
    queryKey: assetEditorKeys.parameterPreview(body),
    queryFn: ({ signal }) => fetchParameterPreview(body, signal),
    enabled,
    retry: false,
    staleTime: 30_000,
    // A new parent value keeps the old options on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}

/**
 * A parameter not saved yet, run from its parameter data source with its parents' values: the source's columns and,
 * once a value column is given, the options a caller will be offered.
 */
export function useParameterPreview(body: ParameterPreviewInput, enabled = true) {
  return useQuery(parameterPreviewQueryOptions(body, enabled));
}
