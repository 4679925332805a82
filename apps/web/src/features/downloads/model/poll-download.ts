import { DOWNLOAD_POLL_ATTEMPTS, DOWNLOAD_POLL_INTERVAL_MS, type DownloadJob } from '@datalab/contract/api/downloads';
import { isSettled } from '../format.ts';

// product §9's polling of a download job: one status request every DOWNLOAD_POLL_INTERVAL_MS, at most
// DOWNLOAD_POLL_ATTEMPTS of them. The loop ends early once the job settles (Completed, Failed, Expired); when the
// attempts run out first, the job goes on on the server and the caller says where to find it later.

export interface PollOptions {
  fetchStatus: (id: string, signal: AbortSignal) => Promise<DownloadJob>;
  /** Every status read, with its attempt number (1-based). */
  onUpdate: (job: DownloadJob, attempt: number) => void;
  signal: AbortSignal;
  intervalMs?: number;
  attempts?: number;
}

export type PollResult = { outcome: 'settled'; job: DownloadJob } | { outcome: 'still-running'; job: DownloadJob };

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Polls `job` (the start call's reply) until it settles or the attempts run out; rejects when aborted. */
export async function pollDownload(
  job: DownloadJob,
  {
    fetchStatus,
    onUpdate,
    signal,
    intervalMs = DOWNLOAD_POLL_INTERVAL_MS,
    attempts = DOWNLOAD_POLL_ATTEMPTS,
  }: PollOptions,
): Promise<PollResult> {
  let current = job;
  for (let attempt = 1; attempt <= attempts && !isSettled(current); attempt += 1) {
    await wait(intervalMs, signal);
    current = await fetchStatus(current.id, signal);
    onUpdate(current, attempt);
  }
  return isSettled(current) ? { outcome: 'settled', job: current } : { outcome: 'still-running', job: current };
}
