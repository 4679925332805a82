import { useMutation } from '@tanstack/react-query';
import { previewSqlDataSource } from '@datalab/contract/api/sql-data-sources';
import { previewWebApiDataSource, type HttpExchangeView } from '@datalab/contract/api/web-api';
import type { z } from 'zod';
import { apiCall } from '../../../lib/api-client.ts';

export type PreviewInput = z.input<NonNullable<(typeof previewSqlDataSource)['body']>>;
export type TryInput = z.input<NonNullable<(typeof previewWebApiDataSource)['body']>>;
export type DraftRunInput = { kind: 'sql'; body: PreviewInput } | { kind: 'webapi'; body: TryInput };

/** A draft's run, whatever its kind: the first rows, the values as bound, and for a Web API its upstream exchanges. */
export interface DraftRunResult {
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
  truncated: boolean;
  durationMs: number;
  boundValues: Record<string, unknown>;
  /** Web API only: the requests sent upstream (secrets masked), how many more, and a failure after the values passed. */
  exchanges?: HttpExchangeView[];
  exchangesOmitted?: number;
  upstreamError?: { status: number; message: string } | null;
}

/** A rule's messages show under the rule's fields in the editor: the toast leaves them out. */
const inlineFields = ['transformations'];

async function runDraft(input: DraftRunInput): Promise<DraftRunResult> {
  if (input.kind === 'sql') return apiCall(previewSqlDataSource, { body: input.body, inlineFields });
  const { error, ...result } = await apiCall(previewWebApiDataSource, { body: input.body, inlineFields });
  return { ...result, upstreamError: error };
}

/**
 * Runs a draft that is not saved: SQL read-only (the editor's Run), or a Web API request (its Try), a few rows. The
 * playground uses it too: nothing is stored, and the server applies the connection's limits as for a stored asset.
 */
export function usePreviewAsset() {
  return useMutation({ mutationFn: runDraft });
}
