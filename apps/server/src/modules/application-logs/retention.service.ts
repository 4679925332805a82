import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from '../../db/database.ts';
import { deleteLogsBefore, deleteLogsBelowId, nthNewestLogId } from './repository.ts';

// Removing application-log records past retention (plugins/app-log-retention.ts says when): in small batches with a
// turn of the event loop between them, so a store holding millions of expired records is emptied without one long
// statement holding locks or the loop.

export interface RetentionResult {
  byAge: number;
  bySize: number;
}

/** Records deleted per statement: small enough that one statement takes milliseconds. */
export const RETENTION_BATCH = 2_000;

async function inBatches(deleteBatch: () => Promise<number>, isClosing: () => boolean): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch();
    total += deleted;
    if (deleted < RETENTION_BATCH || isClosing()) return total;
    await nextTurn();
  }
}

/** Records created before `before` go, then the oldest beyond the newest `maxRows` (0: no cap); stops between batches once `isClosing`. */
export async function removeExpiredLogs(
  db: Database,
  before: string,
  maxRows: number,
  isClosing: () => boolean,
): Promise<RetentionResult> {
  const byAge = await inBatches(() => deleteLogsBefore(db, before, RETENTION_BATCH), isClosing);
  let bySize = 0;
  const oldestKept = maxRows > 0 && !isClosing() ? await nthNewestLogId(db, maxRows) : undefined;
  if (oldestKept !== undefined) {
    bySize = await inBatches(() => deleteLogsBelowId(db, oldestKept, RETENTION_BATCH), isClosing);
  }
  return { byAge, bySize };
}
