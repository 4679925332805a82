import type { Database } from '../../db/database.ts';
import { appendRows } from './bulk.repository.ts';
import { batchWrites, type Rows } from './usage-rows.ts';

// Where the usage recorder (plugins/usage.ts) stores its batches: the recorder keeps the buffer, the timers and the
// retry; the statements are the repository's (bulk.repository.ts).

/** Stores a batch of calls — each call's usage record and its call log record — together or not at all. */
export function storeCalls(db: Database, calls: Rows[]): Promise<void> {
  return appendRows(db, batchWrites(calls));
}
