import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { DownloadFormat, DownloadJob } from '@datalab/contract/api/downloads';
import { isApiError } from '../../../lib/api-error.ts';
import { fetchDownloadFile } from '../api/fetch-download-file.ts';
import { fetchDownloadStatus } from '../api/get-download-status.ts';
import { useStartDownload } from '../api/start-download.ts';
import { downloadKeys } from '../keys.ts';
import { pollDownload } from './poll-download.ts';
import { saveBlob } from '../../../lib/save-blob.ts';

// The call screen's download, from the click to the file: start the job, poll it (product §9), fetch the file once it
// is Completed and hand it to the browser. One job is followed at a time; leaving the screen stops the following,
// never the job, which the user finds in My downloads.

export type DownloadWatch =
  | { phase: 'idle' }
  | { phase: 'starting'; format: DownloadFormat }
  /** Queued or Running; `attempt` status reads so far. */
  | { phase: 'watching'; job: DownloadJob; attempt: number }
  | { phase: 'fetching'; job: DownloadJob }
  | { phase: 'saved'; job: DownloadJob }
  /** Completed, but the file could not be fetched. */
  | { phase: 'fetch-failed'; job: DownloadJob; message: string }
  /** Failed or Expired. */
  | { phase: 'failed'; job: DownloadJob }
  /** The attempts ran out before the job settled. */
  | { phase: 'continuing'; job: DownloadJob }
  /** A status read failed: the job's fate is unknown here. */
  | { phase: 'lost'; job: DownloadJob; message: string };

export interface StartRequest {
  dataAssetUid: string;
  parameters: Record<string, unknown>;
  format: DownloadFormat;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const isAbort = (error: unknown, signal: AbortSignal) =>
  signal.aborted || (isApiError(error) && error.kind === 'aborted');

export function useDownloadJob() {
  const queryClient = useQueryClient();
  const { mutateAsync: startJob } = useStartDownload();
  const [watch, setWatch] = useState<DownloadWatch>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const saveFile = useCallback(async (job: DownloadJob, signal: AbortSignal) => {
    setWatch({ phase: 'fetching', job });
    try {
      saveBlob(await fetchDownloadFile(job, signal), job.fileName);
      setWatch({ phase: 'saved', job });
    } catch (error) {
      if (!isAbort(error, signal)) setWatch({ phase: 'fetch-failed', job, message: messageOf(error) });
    }
  }, []);

  const follow = useCallback(
    async (job: DownloadJob, signal: AbortSignal) => {
      setWatch({ phase: 'watching', job, attempt: 0 });
      let result;
      try {
        result = await pollDownload(job, {
          fetchStatus: fetchDownloadStatus,
          onUpdate: (next, attempt) => setWatch({ phase: 'watching', job: next, attempt }),
          signal,
        });
      } catch (error) {
        if (!isAbort(error, signal)) setWatch({ phase: 'lost', job, message: messageOf(error) });
        return;
      }
      void queryClient.invalidateQueries({ queryKey: downloadKeys.lists() });
      if (result.outcome === 'still-running') setWatch({ phase: 'continuing', job: result.job });
      else if (result.job.state === 'Completed') await saveFile(result.job, signal);
      else setWatch({ phase: 'failed', job: result.job });
    },
    [queryClient, saveFile],
  );

  const begin = useCallback(
    async (request: StartRequest) => {
      controller.current?.abort();
      const next = new AbortController();
      controller.current = next;
      setWatch({ phase: 'starting', format: request.format });
      let job: DownloadJob;
      try {
        job = await startJob(request);
      } catch {
        // The API client has already said why (product §8: a 400's lines in a toast).
        if (!next.signal.aborted) setWatch({ phase: 'idle' });
        return;
      }
      if (!next.signal.aborted) await follow(job, next.signal);
    },
    [startJob, follow],
  );

  /** Fetches a Completed job's file again (the browser may have blocked or lost the first one). */
  const saveAgain = useCallback(
    (job: DownloadJob) => {
      const next = new AbortController();
      controller.current = next;
      void saveFile(job, next.signal);
    },
    [saveFile],
  );

  const isBusy = watch.phase === 'starting' || watch.phase === 'watching' || watch.phase === 'fetching';
  return { watch, isBusy, begin, saveAgain };
}
