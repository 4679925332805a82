import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { createDatabase, migrateToLatest, type Database } from '../db/database.ts';
import { createUsageRecorder, type UsageRecord } from './usage.ts';

// Usage records are written in batches; a failed write never reaches the caller, is logged, and is retried once.

const record = (status: number): UsageRecord => ({
  userId: 1,
  dataSourceId: 2,
  dataSourceUid: 'asset',
  collectionId: 3,
  channel: 'data-api',
  format: 'json',
  status,
  durationMs: 4.4,
  rows: 5,
  bytes: 6,
  cacheHit: false,
  requestId: 'req',
});

function recordingLogger() {
  const lines: string[] = [];
  const logger = {
    warn: (_o: unknown, m: string) => lines.push(`warn ${m}`),
    error: (_o: unknown, m: string) => lines.push(`error ${m}`),
  };
  return { lines, logger: logger as unknown as FastifyBaseLogger };
}

describe('usage recorder', () => {
  let dir: string | undefined;
  let db: Database | undefined;
  afterEach(async () => {
    await db?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('retries a failed batch once with the next flush, and drops it after a second failure', async () => {
    dir = mkdtempSync(join(tmpdir(), 'datalab-usage-'));
    db = createDatabase({ kind: 'sqlite', file: join(dir, 'store.sqlite') });
    const { lines, logger } = recordingLogger();
    const usage = createUsageRecorder(db, logger);

    usage.record(record(200)); // no table yet: the write fails
    await usage.flush();
    expect(lines).toEqual(['warn usage records could not be written; retrying once']);
    await migrateToLatest(db);
    usage.record(record(404));
    await usage.flush();
    const rows = await db.selectFrom('usage_records').selectAll().orderBy('id').execute();
    expect(rows.map((row) => row.status)).toEqual([200, 404]);
    expect(rows[0]).toMatchObject({ user_id: 1, data_source_id: 2, collection_id: 3, duration_ms: 4, cache_hit: 0 });

    await db.schema.dropTable('usage_records').execute();
    usage.record(record(500));
    await usage.flush();
    await usage.flush();
    expect(lines.at(-1)).toBe('error usage records could not be written twice; dropped');
  });
});
