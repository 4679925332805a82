import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import { recordLastSeen } from './repository.ts';

// "Last seen": written at a user's first request after start (sign-in included) and then at most
// once per interval of activity. The throttle is in memory and the write is not awaited, so an
// authenticated request costs a Map lookup; a lost write only makes "last seen" a little older.

export const LAST_SEEN_INTERVAL_MS = 5 * 60 * 1000;
const TRACKED_MAX = 100_000;

export class LastSeen {
  readonly #db: Database;
  readonly #log: FastifyBaseLogger;
  readonly #intervalMs: number;
  readonly #written = new Map<number, number>();

  constructor(db: Database, log: FastifyBaseLogger, intervalMs = LAST_SEEN_INTERVAL_MS) {
    this.#db = db;
    this.#log = log;
    this.#intervalMs = intervalMs;
  }

  touch(userId: number, now = Date.now()): void {
    const last = this.#written.get(userId);
    if (last !== undefined && now - last < this.#intervalMs) return;
    if (this.#written.size >= TRACKED_MAX) this.#written.clear();
    this.#written.set(userId, now);
    recordLastSeen(this.#db, userId, new Date(now).toISOString()).catch((error: unknown) => {
      this.#log.warn({ err: error, userId }, 'could not record last seen');
    });
  }
}
