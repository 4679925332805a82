import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { recordLastUsed } from './repository.ts';

// A token's "last used" time and address: written at its first use in a process and then at most once a minute,
// without awaiting the write, so an authenticated call costs a Map lookup, not a store write. Each instance
// throttles on its own; a lost write only makes "last used" a little older.

export const LAST_USED_INTERVAL_MS = 60_000;
const TRACKED_MAX = 100_000;

export class LastUsed {
  readonly #db: Database;
  readonly #log: FastifyBaseLogger;
  readonly #written = new Map<number, number>();
  readonly #pending = new Set<Promise<void>>();

  constructor(db: Database, log: FastifyBaseLogger) {
    this.#db = db;
    this.#log = log;
  }

  touch(tokenId: number, address: string | undefined, now = Date.now()): void {
    const last = this.#written.get(tokenId);
    if (last !== undefined && now - last < LAST_USED_INTERVAL_MS) return;
    if (this.#written.size >= TRACKED_MAX) this.#written.clear();
    this.#written.set(tokenId, now);
    const write = recordLastUsed(this.#db, tokenId, new Date(now).toISOString(), address ?? null).then(
      () => undefined,
      (error: unknown) => this.#log.warn({ err: error, tokenId }, 'could not record when a token was last used'),
    );
    this.#pending.add(write);
    void write.finally(() => this.#pending.delete(write));
  }

  /** Waits for the writes under way (tests; shutdown). */
  async settled(): Promise<void> {
    await Promise.all([...this.#pending]);
  }
}
