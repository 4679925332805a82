import { isEngineError, type FileFormat } from '@datalab/engine';
import { rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { engineErrorReply, forCaller } from '../../lib/engine-errors.ts';
import { AppError } from '../../lib/errors.ts';
import { callableAsset, checkOptions, checkValues, runExport } from '../calling/service.ts';
import { callerOfJob } from './caller.ts';
import { CsvRecordCounter, FileLimitError, SupersededError, WRITE_FAILED, filePath, writeJobFile } from './files.ts';
import { SHUTDOWN } from './queue.ts';
import { claimJob, findJob, finishJob, holdsJob, updateProgress, type JobRow } from './repository.ts';
import type { DownloadsDeps } from './service.ts';

// Running one job (a worker process, or the web process in the embedded mode): claim it, check again that its
// owner may still call the asset, run the export through the calling layer's own runExport into the job's part
// file, and record the outcome. A shutdown puts the job back (Queued) for the next process; a job interrupted
// MAX_ATTEMPTS times fails instead of looping. Every write of an attempt names it (the job's `attempts` when it was
// claimed): an attempt whose process hung past the heartbeat's limit, and whose job the sweeper gave to another
// process, changes nothing when it wakes — its file is discarded and its outcome recorded nowhere.

export const MAX_ATTEMPTS = 2;
export const INTERRUPTED = 'The download was interrupted';
export const NOT_ALLOWED = 'The data asset no longer exists or you may no longer download it';
const FAILED = 'The download failed';
/** The reason a run is aborted with when its attempt no longer holds the job. */
const RELEASED = 'released';
/** Rows so far are written at most this often (they double as the heartbeat of a Running job). */
export const PROGRESS_MS = 1_000;

/**
 * A safe text for a failure: the engine's texts as the calling layer answers a caller who is not an author (never
 * the database's own text, which can quote data values), never internals.
 */
function failureMessage(failure: unknown): string {
  const error = forCaller(failure);
  if (error instanceof FileLimitError) return error.message;
  if (isEngineError(error)) return engineErrorReply(error, 'caller').title;
  if (error instanceof AppError) return error.errors ? Object.values(error.errors).flat().join(' ') : error.title;
  // A failed open, write, fsync or rename (a full disk, a volume gone, no permission): an error of the system.
  if (error && typeof error === 'object' && 'syscall' in error) return WRITE_FAILED;
  return FAILED;
}

function statusOf(failure: unknown): number {
  const error = forCaller(failure);
  if (isEngineError(error)) return engineErrorReply(error, 'caller').status;
  if (error instanceof AppError) return error.status;
  return 500;
}

export async function runJob(deps: DownloadsDeps, id: string, signal: AbortSignal): Promise<void> {
  const queued = await findJob(deps.db, id);
  if (!queued || queued.state !== 'Queued') return; // another process has it, or it is done
  if (queued.attempts >= MAX_ATTEMPTS) {
    await finishJob(
      deps.db,
      id,
      { state: 'Failed', message: INTERRUPTED, finished_at: new Date().toISOString() },
      'Queued',
    );
    return;
  }
  if (!(await claimJob(deps.db, id, new Date().toISOString()))) return;
  const job = (await findJob(deps.db, id))!;
  const attempt = job.attempts;
  const startedAt = performance.now();
  let rows = 0;
  const outcome = await execute(deps, job, signal, (n) => (rows = n)).then(
    (result) => ({ ok: true as const, ...result }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  if (!outcome.ok && (await findJob(deps.db, id))?.state === 'Cancelled') {
    deps.log.info({ download: id, attempt }, 'download cancelled by its owner; the run stopped');
    return;
  }
  if (!outcome.ok && outcome.error instanceof SupersededError) {
    deps.log.warn({ download: id, attempt }, 'download taken over by another process; this attempt was discarded');
    return;
  }
  const finishedAt = new Date();
  const usage = {
    userId: job.owner_user_id,
    tokenId: job.token_id,
    dataSourceId: job.data_source_id,
    dataSourceUid: job.data_source_uid,
    dataSourceName: job.asset_name,
    collectionId: job.collection_id,
    channel: 'download' as const,
    format: job.format,
    durationMs: performance.now() - startedAt,
    cacheHit: false,
    requestId: job.request_id,
  };
  // The usage record goes first: whoever sees the job finished also finds its record (once flushed).
  if (outcome.ok) {
    deps.usage.record({ ...usage, status: 200, rows: outcome.rows, bytes: outcome.size });
    const completed = {
      state: 'Completed' as const,
      row_count: outcome.rows,
      size: outcome.size,
      truncated: outcome.truncated ? 1 : 0,
      finished_at: finishedAt.toISOString(),
      expires_at: new Date(finishedAt.getTime() + deps.retentionMs).toISOString(),
    };
    if (!(await finishJob(deps.db, id, completed, 'Running', attempt))) {
      // Cancelled (or taken over) between the file's rename and now: the file is nobody's.
      await rm(filePath(deps.dir, id, job.format), { force: true });
    }
    return;
  }
  if (signal.aborted && signal.reason === SHUTDOWN) {
    // Put back for the next process (the part file was removed); attempts already counts this one.
    await finishJob(deps.db, id, { state: 'Queued', row_count: 0 }, 'Running', attempt);
    deps.log.info({ download: id }, 'download interrupted by shutdown; put back in the queue');
    return;
  }
  const message = failureMessage(outcome.error);
  if (message === FAILED || message === WRITE_FAILED)
    deps.log.error({ err: outcome.error, download: id }, 'download failed');
  deps.usage.record({ ...usage, status: statusOf(outcome.error), rows, bytes: 0 });
  const failed = { state: 'Failed' as const, message, row_count: rows, finished_at: finishedAt.toISOString() };
  await finishJob(deps.db, id, failed, 'Running', attempt);
}

/** Checks the caller again and writes the file; answers its stats. */
async function execute(deps: DownloadsDeps, job: JobRow, signal: AbortSignal, onRows: (rows: number) => void) {
  const user = await callerOfJob(deps.db, deps.calling.access, job);
  if (!user) throw new AppError({ status: 403, code: 'forbidden', title: NOT_ALLOWED });
  const definition = await callableAsset(deps.calling, user, job.data_source_uid, {}).catch(() => {
    throw new AppError({ status: 404, code: 'not_found', title: NOT_ALLOWED });
  });
  // The asset may have changed since: its values are checked again as a call would check them.
  const values = checkValues(definition, JSON.parse(job.parameters) as Record<string, unknown>);
  await checkOptions(deps.calling, definition, values);
  const format = job.format as FileFormat;
  let progress: () => number = () => 0;
  // The heartbeat also notices a job this attempt no longer holds (cancelled, or taken over): the run stops there.
  const held = new AbortController();
  const timer = setInterval(() => {
    const rows = progress();
    onRows(rows);
    updateProgress(deps.db, job.id, job.attempts, rows, new Date().toISOString()).then(
      (stillHeld) => {
        if (!stillHeld) held.abort(RELEASED);
      },
      (error: unknown) => deps.log.warn({ err: error, download: job.id }, 'download progress not recorded'),
    );
  }, PROGRESS_MS);
  try {
    const owner = { id: job.id, attempt: job.attempts, stillHolds: () => holdsJob(deps.db, job.id, job.attempts) };
    return await writeJobFile(
      deps.dir,
      owner,
      format,
      deps.maxBytes,
      AbortSignal.any([signal, held.signal]),
      async (file: Writable, run) => {
        // CSV may take the COPY path, which hands over bytes: its progress is counted as the records pass. The total
        // is the writer's own (the count of rows, not of records: a cut-off file ends with a marked record).
        const counter = format === 'csv' ? new CsvRecordCounter(file) : undefined;
        if (counter) progress = () => counter.rows;
        return runExport(deps.calling, definition, values, format, counter ?? file, {
          signal: run,
          onRun: (run) => {
            if (!counter) progress = () => run.rows;
          },
        });
      },
    );
  } finally {
    clearInterval(timer);
    onRows(progress());
  }
}
