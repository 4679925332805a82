import { filePath, removeJobFile, removeOrphanParts } from './files.ts';
import { activeJobIds, expiredJobs, finishJob, queuedJobIds, staleRunningJobs } from './repository.ts';
import type { DownloadsDeps } from './service.ts';
import { INTERRUPTED, MAX_ATTEMPTS } from './worker.ts';

// The sweeper, in every process that runs jobs: at start and then every minute.
// - Running jobs whose process stopped beating (a crash) go back to Queued, or fail after MAX_ATTEMPTS. On the
//   embedded store one process holds the store (an exclusive lock), so at start every Running job is such a job.
// - Queued jobs are handed to the queue again (a restart of the in-process queue; a BullMQ job lost with Redis):
//   an id already waiting is not added twice, and a job runs only once it is claimed in the store.
// - Completed jobs past retention lose their file and become Expired; part files of jobs no longer active go.

/** A Running job not heard from for this long belongs to a dead process (it beats every second). */
export const STALE_MS = 30_000;

/** `atStart` on the embedded store: no other process can be running any job, so every Running one is stale. */
export async function sweep(deps: DownloadsDeps, options: { atStart: boolean; embedded: boolean }): Promise<void> {
  const now = new Date();
  const staleBefore = options.atStart && options.embedded ? now : new Date(now.getTime() - STALE_MS);
  for (const job of await staleRunningJobs(deps.db, staleBefore.toISOString())) {
    const failed = job.attempts >= MAX_ATTEMPTS;
    await finishJob(
      deps.db,
      job.id,
      failed
        ? { state: 'Failed', message: INTERRUPTED, finished_at: now.toISOString() }
        : { state: 'Queued', row_count: 0 },
    );
  }
  for (const { id, attempts } of await queuedJobIds(deps.db)) {
    await deps.queue.add(id, attempts).catch((error: unknown) => {
      deps.log.warn({ err: error, download: id }, 'download not handed to the queue; the next sweep tries again');
    });
  }
  for (const job of await expiredJobs(deps.db, now.toISOString())) {
    if (await finishJob(deps.db, job.id, { state: 'Expired' }, 'Completed')) {
      await removeJobFile(deps.dir, job.id, job.format);
      deps.log.info({ download: job.id, file: filePath(deps.dir, job.id, job.format) }, 'download expired');
    }
  }
  const active = new Set((await activeJobIds(deps.db)).map((row) => row.id));
  await removeOrphanParts(deps.dir, active);
}
