import { PostgresAdapter, sql } from 'kysely';
import type { Database } from './database.ts';

// Serialises transactions that check an invariant across rows (the last Owner, the last
// administrator, no cycles in group nesting). SQLite already runs one transaction at a time;
// PostgreSQL takes a transaction-scoped advisory lock on the name.
export async function lockFor(db: Database, name: string): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(db);
  }
}

/** The embedded demo's seed: processes starting together on one store seed it once. */
export const DEMO_SEED_LOCK = 'demo.seed';
