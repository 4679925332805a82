import { useState } from 'react';
import { ApiError } from '../../../lib/api-error.ts';
import { usePreviewAsset, type DraftRunResult } from '../api/preview-asset.ts';
import type { AssetDraft } from '../model/asset-draft.ts';
import { runInputOf, runKey } from '../model/draft-run.ts';

/**
 * Runs drafts and remembers what ran: whether the draft on screen is the one that last ran successfully (a Web API
 * run whose upstream call failed does not count), and every column a run has shown, for the rules' suggestions (a
 * failed run, or a rule that drops columns, does not take them away).
 */
export function useDraftRun(collectionUid: string) {
  const preview = usePreviewAsset();
  const [lastRun, setLastRun] = useState<string | null>(null);
  const [seenColumns, setSeenColumns] = useState<readonly string[]>([]);

  const run = (draft: AssetDraft, values: Readonly<Record<string, string>>) => {
    const input = runInputOf(draft, collectionUid, values);
    if (!input) return;
    const key = runKey(draft);
    preview.mutate(input, {
      onSuccess: (result: DraftRunResult) => {
        setLastRun(result.upstreamError ? null : key);
        setSeenColumns((seen) => [...new Set([...seen, ...result.columns.map((column) => column.name)])]);
      },
    });
  };

  /** Forgets the last run (another connection: its result no longer says anything about the draft). */
  const reset = () => {
    preview.reset();
    setLastRun(null);
  };

  return {
    run,
    reset,
    /** Whether something has run (the live preview of transformations starts then). */
    hasRunOnce: lastRun !== null || preview.data !== undefined,
    hasRun: (draft: AssetDraft) => preview.isSuccess && lastRun === runKey(draft),
    isRunning: preview.isPending,
    result: preview.data,
    error: preview.error,
    errors: preview.error instanceof ApiError ? preview.error.errors : {},
    seenColumns,
  };
}
