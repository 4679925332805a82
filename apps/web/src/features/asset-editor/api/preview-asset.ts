import { useMutation } from '@tanstack/react-query';
import { previewSqlDataSource } from '@datalab/contract/api/sql-data-sources';
import type { z } from 'zod';
import { apiCall } from '../../../lib/api-client.ts';

export type PreviewInput = z.input<NonNullable<(typeof previewSqlDataSource)['body']>>;

/** Runs SQL that is not saved yet (read-only, a few rows): the editor's Run. */
export function usePreviewAsset() {
  return useMutation({ mutationFn: (body: PreviewInput) => apiCall(previewSqlDataSource, { body }) });
}
