// The job queue carries only job ids; the job's state lives in the metadata store (download_jobs), the same in both
// modes. In-process (queue-memory.ts) by default; BullMQ on Redis (queue-bullmq.ts) when REDIS_URL is set, with the
// processing in worker processes.

/** What a worker does with one job id; `signal` aborts it at shutdown (the job then puts itself back). */
export type ProcessJob = (id: string, signal: AbortSignal) => Promise<void>;

export interface JobQueue {
  readonly kind: 'memory' | 'bullmq';
  /** Hands a job to the processors; throws QueueUnavailable when the queue cannot take it now. */
  add(id: string, attempt: number): Promise<void>;
  /** Starts taking jobs (worker and all roles). */
  start(process: ProcessJob): Promise<void>;
  /** Stops taking jobs, lets running ones finish for up to `graceMs`, then aborts them and waits for them. */
  close(graceMs: number): Promise<void>;
}

export const QUEUE_UNAVAILABLE =
  'Downloads are unavailable right now: the job queue cannot be reached. Try again shortly.';

export class QueueUnavailable extends Error {
  constructor(cause?: unknown) {
    super(QUEUE_UNAVAILABLE, { cause });
    this.name = 'QueueUnavailable';
  }
}

/** The reason a job's signal carries when its process shuts down (as opposed to any other abort). */
export const SHUTDOWN = 'shutdown';

/** Waits for `work`, at most `ms`; answers whether it settled in time. */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
