import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/database.ts';
import { storeCalls } from '../modules/reporting/recording.service.ts';
import { RollupBuffer, addToRollups } from '../modules/reporting/rollups.ts';
import { toRows, type Pending } from '../modules/reporting/usage-rows.ts';
import type { MetricFamilies } from './metric-families.ts';
import type { UsageRecorder } from '../lib/usage-record.ts';

export type { UsageRecord, UsageRecorder } from '../lib/usage-record.ts';

// Usage records (product §15 "Usage"): every call appends one to an in-memory buffer, which is written in batches
// off the request path (every USAGE_FLUSH_MS, as soon as a batch is full, and at shutdown). Recording never
// blocks or fails a call: a failed write is logged and retried once with the next batch, then dropped.
// Each batch also writes one application-log record per call (category 'call': an administrator finds a call by
// its request id) in the same transaction: records and log records are written together or not at all, with no
// insert per call (PostgreSQL: COPY; SQLite: one prepared INSERT stepped per row; modules/reporting/recording.service.ts). A
// batch once stored adds itself to the rollups' in-memory sums (modules/reporting/rollups.ts), which are written
// every USAGE_ROLLUP_FLUSH_MS and at shutdown, one upsert per key (decision 113): a failed rollup write keeps its
// sums for the next one, so the rollups equal the stored records once written.

/** The recorder with its two writes apart (each on its own timer). */
export interface BatchingUsageRecorder extends UsageRecorder {
  /** Writes the buffered records and their log records (and retries a failed batch once). */
  flushRecords(): Promise<void>;
  /** Writes the rollup sums of the records stored so far. */
  flushRollups(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    usage: UsageRecorder;
  }
}

/** Calls in a batch: a full batch is written at once. */
const BATCH_ROWS = 500;
/** Beyond this many records waiting (the store is down), the oldest are dropped: memory stays bounded. */
const MAX_PENDING = 50_000;
/** Rollup keys (hour × data source × user) summed in memory that start a rollup write before the timer's. */
const ROLLUP_KEYS_EARLY = 20_000;
/** Beyond this many keys kept after failed rollup writes (the store is down), their sums are dropped. */
const MAX_ROLLUP_KEYS = 200_000;

export function createUsageRecorder(db: Database, log: FastifyBaseLogger): BatchingUsageRecorder {
  let pending: Pending[] = [];
  /** Calls whose first write failed: written again once, in front of the next batch. */
  let retry: Pending[] = [];
  /** The rollup increments of the records stored and not yet summed into the rollup tables. */
  const rollups = new RollupBuffer();
  let writing: Promise<void> = Promise.resolve();
  let scheduled = false;
  let rollupsScheduled = false;

  async function writeBatch(calls: Pending[]) {
    const rows = calls.map(toRows);
    await storeCalls(db, rows);
    const records = rows.map((call) => call.record);
    // Only records that are stored count in the rollups (a failed batch counts when its retry is stored).
    rollups.addRecords(records);
    if (rollups.size >= ROLLUP_KEYS_EARLY && !rollupsScheduled) {
      rollupsScheduled = true;
      setImmediate(() => {
        rollupsScheduled = false;
        void flushRollups();
      });
    }
  }

  async function writeOnce() {
    const again = retry;
    const fresh = pending;
    retry = [];
    pending = [];
    if (again.length > 0) {
      await writeBatch(again).catch((error: unknown) => {
        log.error({ err: error, dropped: again.length }, 'usage records could not be written twice; dropped');
      });
    }
    if (fresh.length === 0) return;
    await writeBatch(fresh).catch((error: unknown) => {
      log.warn({ err: error, records: fresh.length }, 'usage records could not be written; retrying once');
      retry = fresh;
    });
  }

  async function writeRollups() {
    if (rollups.size === 0) return;
    const rows = rollups.take();
    try {
      await db.transaction().execute((trx) => addToRollups(trx, rows));
    } catch (error) {
      // Counters: the sums wait for the next write, added to whatever arrives meanwhile.
      if (rollups.size + rows.length > MAX_ROLLUP_KEYS) {
        log.error({ err: error, keys: rows.length }, 'usage rollups could not be written; their sums are dropped');
        return;
      }
      log.warn({ err: error, keys: rows.length }, 'usage rollups could not be written; kept for the next write');
      rollups.restore(rows);
    }
  }

  // One write at a time, in order; every caller waits for the write that covers what it recorded.
  function flushRecords(): Promise<void> {
    writing = writing.then(writeOnce);
    return writing;
  }

  function flushRollups(): Promise<void> {
    writing = writing.then(writeRollups);
    return writing;
  }

  return {
    record(entry) {
      pending.push({ entry, at: entry.at ? entry.at.getTime() : Date.now() });
      if (pending.length > MAX_PENDING) pending.splice(0, pending.length - MAX_PENDING);
      if (pending.length >= BATCH_ROWS && !scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          void flushRecords();
        });
      }
    },
    flush: async () => {
      await flushRecords();
      await flushRollups();
    },
    flushRecords,
    flushRollups,
  };
}

/** Counts every recorded call in /metrics (by channel, format and status, and cache hits), records kept or not. */
function countingRecorder(families: MetricFamilies, recorder: UsageRecorder, keep: boolean): UsageRecorder {
  const calls = families.counter(
    'datalab_calls_total',
    'Calls of data assets (calling layer and downloads), by channel, format and status',
    ['channel', 'format', 'status'],
  );
  const cache = families.counter(
    'datalab_call_cache_total',
    'Result-cache lookups of calls answered in JSON, by result (hit or miss)',
    ['result'],
  );
  const hits = cache.labels('hit');
  const misses = cache.labels('miss');
  return {
    record(entry) {
      calls.labels(entry.channel, entry.format, String(entry.status)).inc();
      if (entry.format === 'json' && entry.status < 400) (entry.cacheHit ? hits : misses).inc();
      if (keep) recorder.record(entry);
    },
    flush: () => recorder.flush(),
  };
}

export default fp(
  async (app: FastifyInstance) => {
    // USAGE_RECORDING=off keeps the counters but writes no usage or call-log records (bench/recording.ts measures
    // what recording costs).
    const recorder = createUsageRecorder(app.db, app.log);
    app.decorate('usage', countingRecorder(app.metricFamilies, recorder, app.config.usageRecording));
    const timers = [
      setInterval(() => void recorder.flushRecords(), app.config.usageFlushMs),
      setInterval(() => void recorder.flushRollups(), app.config.usageRollupFlushMs),
    ];
    for (const timer of timers) timer.unref();
    // Registered after the store, so it runs before the store closes (onClose hooks run last-in, first-out).
    app.addHook('onClose', async () => {
      for (const timer of timers) clearInterval(timer);
      await recorder.flush();
      await recorder.flush(); // the retry of a batch (or of rollups) that failed just now
    });
  },
  { name: 'usage', dependencies: ['config', 'db', 'metrics'] },
);
