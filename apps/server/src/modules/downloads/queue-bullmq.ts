import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { QueueUnavailable, SHUTDOWN, settlesWithin, type JobQueue, type ProcessJob } from './queue.ts';

// BullMQ on Redis (product §12): web instances add job ids, worker processes take them. The BullMQ job id is the
// download id and its attempt, so a job added twice for one attempt (a restart's recovery racing a request) waits
// once; finished BullMQ jobs are removed at once (the state is in download_jobs), which frees the id.

export const QUEUE_NAME = 'datalab-downloads';
/** How long adding a job may take before the request answers 503. */
const ADD_TIMEOUT_MS = 2_000;

export interface BullQueueOptions {
  redisUrl: string;
  prefix: string;
  concurrency: number;
}

export class BullQueue implements JobQueue {
  readonly kind = 'bullmq';
  readonly #options: BullQueueOptions;
  // While Redis is away a request answers 503 at once (add() looks at the connection first, and gives up after
  // ADD_TIMEOUT_MS); ioredis keeps reconnecting, and the next request works again once Redis is back. The offline
  // queue stays on: BullMQ sends its own set-up commands before the connection is ready.
  readonly #producer: Redis;
  readonly #queue: Queue;
  #worker: Worker | undefined;
  #workerConnection: Redis | undefined;

  constructor(options: BullQueueOptions) {
    this.#options = options;
    this.#producer = new Redis(options.redisUrl, { maxRetriesPerRequest: 1 });
    this.#producer.on('error', () => undefined); // reported through add()'s 503 and readiness, not per retry
    this.#queue = new Queue(QUEUE_NAME, {
      connection: this.#producer,
      prefix: options.prefix,
      skipWaitingForReady: true,
    });
    this.#queue.on('error', () => undefined);
  }

  async add(id: string, attempt: number): Promise<void> {
    if (this.#producer.status !== 'ready') throw new QueueUnavailable();
    const adding = this.#queue.add(
      'download',
      { id },
      { jobId: `${id}-a${attempt}`, removeOnComplete: true, removeOnFail: true, attempts: 1 },
    );
    // Added late (after the 503), the job finds no row when it runs, and does nothing.
    adding.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from Redis in ${ADD_TIMEOUT_MS} ms`)), ADD_TIMEOUT_MS);
    });
    try {
      await Promise.race([adding, timeout]);
    } catch (error) {
      throw new QueueUnavailable(error);
    } finally {
      clearTimeout(timer);
    }
  }

  async start(process: ProcessJob): Promise<void> {
    // Workers block on Redis: their connection must retry forever (BullMQ requires maxRetriesPerRequest null).
    this.#workerConnection = new Redis(this.#options.redisUrl, { maxRetriesPerRequest: null });
    this.#workerConnection.on('error', () => undefined);
    this.#worker = new Worker(
      QUEUE_NAME,
      async (job, _token, signal) => {
        const id = (job.data as { id: string }).id;
        await process(id, signal ?? new AbortController().signal);
      },
      { connection: this.#workerConnection, prefix: this.#options.prefix, concurrency: this.#options.concurrency },
    );
    this.#worker.on('error', () => undefined);
  }

  async close(graceMs: number): Promise<void> {
    const worker = this.#worker;
    if (worker) {
      // With Redis away BullMQ's own close never settles (it waits for its connections): every wait is bounded.
      const closing = worker.close();
      if (!(await settlesWithin(closing, this.#workerConnection?.status === 'ready' ? graceMs : 0))) {
        // The jobs see their signal abort with SHUTDOWN: each puts its download back (worker.ts), then returns.
        worker.cancelAllJobs(SHUTDOWN);
        await settlesWithin(closing, graceMs);
      }
    }
    await settlesWithin(this.#queue.close(), this.#producer.status === 'ready' ? graceMs : 0);
    this.#producer.disconnect();
    this.#workerConnection?.disconnect();
  }
}
