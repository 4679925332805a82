import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DownloadJobState } from '../../db/schema.ts';
import { DefinitionCache } from '../calling/service.ts';
import { MemoryQueue } from './queue-memory.ts';
import type { JobQueue } from './queue.ts';
import { countByState } from './service.ts';
import type { DownloadsDeps } from './service.ts';
import { sweep } from './sweeper.ts';
import { runJob } from './worker.ts';

// Downloads' runtime: the queue (in-process, or BullMQ when REDIS_URL is set), the processing of jobs in the
// processes whose role runs them (DATALAB_ROLE all or worker), the sweeper (recovery, expiry, orphan part files),
// and a graceful stop: running jobs get half the shutdown time to finish, then are put back for the next process.

export interface Downloads {
  deps: DownloadsDeps;
  /** Jobs per state, for the metrics plugin's queue depth. */
  counts(): Promise<Record<DownloadJobState, number>>;
  /** One sweep now (tests; otherwise every SWEEP_MS). */
  sweep(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    downloads: Downloads;
  }
}

const SWEEP_MS = 60_000;

/** BullMQ (and ioredis) are loaded only with REDIS_URL: ~8 MB of heap that an embedded server never uses. */
async function createQueue(app: FastifyInstance): Promise<JobQueue> {
  const { redisUrl, downloads } = app.config;
  if (!redisUrl) return new MemoryQueue(downloads.concurrency);
  const { BullQueue } = await import('./queue-bullmq.ts');
  return new BullQueue({ redisUrl, prefix: downloads.queuePrefix, concurrency: downloads.concurrency });
}

export default fp(
  async (app: FastifyInstance) => {
    const { config } = app;
    const queue = await createQueue(app);
    const deps: DownloadsDeps = {
      calling: {
        db: app.db,
        access: app.access,
        connectors: app.connectors,
        sqlRuntime: app.sqlRuntime,
        cache: app.resultCache,
        maxExportRows: config.maxExportRows,
        definitions: new DefinitionCache(),
      },
      db: app.db,
      queue,
      usage: app.usage,
      log: app.log,
      dir: config.downloads.dir,
      maxBytes: config.downloads.maxBytes,
      retentionMs: config.downloads.retentionHours * 3_600_000,
    };
    const processes = config.role !== 'web';
    if (!processes && queue.kind === 'memory') {
      app.log.warn('DATALAB_ROLE=web without REDIS_URL: no process runs download jobs');
    }
    const embedded = config.database.kind === 'sqlite';
    const runSweep = (atStart = false) => sweep(deps, { atStart, embedded });
    app.decorate('downloads', {
      deps,
      counts: async () => {
        const counts: Record<DownloadJobState, number> = {
          Queued: 0,
          Running: 0,
          Completed: 0,
          Failed: 0,
          Expired: 0,
          Cancelled: 0,
        };
        for (const row of await countByState(app.db)) counts[row.state] = Number(row.n);
        return counts;
      },
      sweep: () => runSweep(),
    });
    let timer: NodeJS.Timeout | undefined;
    if (processes) {
      app.addHook('onReady', async () => {
        await queue.start((id, signal) => runJob(deps, id, signal));
        // Jobs left Queued (or Running by a process that died) are picked up again.
        await runSweep(true).catch((error: unknown) => app.log.error({ err: error }, 'download sweep failed'));
        timer = setInterval(() => {
          runSweep().catch((error: unknown) => app.log.error({ err: error }, 'download sweep failed'));
        }, SWEEP_MS);
        timer.unref();
      });
    }
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await queue.close(Math.floor(config.shutdownTimeoutMs / 2));
    });
  },
  { name: 'downloads', dependencies: ['config', 'db', 'auth', 'sql-runtime', 'result-cache', 'usage'] },
);
