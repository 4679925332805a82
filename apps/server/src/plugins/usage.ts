import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/database.ts';
import type { Insertable } from 'kysely';
import type { UsageRecordsTable } from '../db/schema.ts';

// Usage records (DESIGN §6 "Usage"): every call appends one to an in-memory buffer, which is written in batches
// off the request path (every USAGE_FLUSH_MS, as soon as a batch is full, and at shutdown). Recording never
// blocks or fails a call: a failed write is logged and retried once with the next batch, then dropped.

export interface UsageRecord {
  userId: number | null;
  tokenId?: number | null;
  dataSourceId: number | null;
  dataSourceUid: string;
  collectionId: number | null;
  channel: 'data-api';
  format: string;
  status: number;
  durationMs: number;
  rows: number;
  bytes: number;
  cacheHit: boolean;
  requestId: string | null;
  at?: Date;
}

export interface UsageRecorder {
  record(entry: UsageRecord): void;
  /** Writes what is buffered now (tests, shutdown). */
  flush(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    usage: UsageRecorder;
  }
}

/** A full batch is written at once; also the most rows one INSERT carries (16 columns each). */
const BATCH_ROWS = 500;
/** Beyond this many records waiting (the store is down), the oldest are dropped: memory stays bounded. */
const MAX_PENDING = 50_000;

function toRow(entry: UsageRecord): Insertable<UsageRecordsTable> {
  return {
    at: (entry.at ?? new Date()).toISOString(),
    user_id: entry.userId,
    token_id: entry.tokenId ?? null,
    data_source_id: entry.dataSourceId,
    data_source_uid: entry.dataSourceUid,
    collection_id: entry.collectionId,
    channel: entry.channel,
    format: entry.format,
    status: entry.status,
    duration_ms: Math.round(entry.durationMs),
    row_count: Math.max(0, entry.rows),
    byte_count: entry.bytes,
    cache_hit: entry.cacheHit ? 1 : 0,
    request_id: entry.requestId,
  };
}

export function createUsageRecorder(db: Database, log: FastifyBaseLogger): UsageRecorder {
  let pending: Insertable<UsageRecordsTable>[] = [];
  /** Rows whose first write failed: written again once, in front of the next batch. */
  let retry: Insertable<UsageRecordsTable>[] = [];
  let writing: Promise<void> = Promise.resolve();
  let scheduled = false;

  async function writeBatch(rows: Insertable<UsageRecordsTable>[]) {
    for (let start = 0; start < rows.length; start += BATCH_ROWS) {
      await db
        .insertInto('usage_records')
        .values(rows.slice(start, start + BATCH_ROWS))
        .execute();
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

  function flush(): Promise<void> {
    // One write at a time, in order; every caller waits for the write that covers what it recorded.
    writing = writing.then(writeOnce);
    return writing;
  }

  return {
    record(entry) {
      pending.push(toRow(entry));
      if (pending.length > MAX_PENDING) pending.splice(0, pending.length - MAX_PENDING);
      if (pending.length >= BATCH_ROWS && !scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          void flush();
        });
      }
    },
    flush,
  };
}

export default fp(
  async (app: FastifyInstance) => {
    const recorder = createUsageRecorder(app.db, app.log);
    app.decorate('usage', recorder);
    const timer = setInterval(() => void recorder.flush(), app.config.usageFlushMs);
    timer.unref();
    // Registered after the store, so it runs before the store closes (onClose hooks run last-in, first-out).
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await recorder.flush();
      await recorder.flush(); // the retry of a batch that failed just now
    });
  },
  { name: 'usage', dependencies: ['config', 'db'] },
);
