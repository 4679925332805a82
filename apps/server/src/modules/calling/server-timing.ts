import type { RunTimings } from '@datalab/engine';
import { timingEntry } from '../../lib/server-timing.ts';

// Server-Timing (W3C) on every /data/v1 reply: `authz` as the /api routes report it (routing/route.ts), then where the
// call's time went — the cache lookup, the wait for a connection, the database, the transformations and the writer.
// A stage that did not happen (a cache hit runs nothing) or that the connector does not report is left out rather
// than shown as 0. Exports report what is known when their headers leave: authz, queue and database to the first
// rows. The portal is served from the same origin, so its fetch reads the header without any CORS exposure.

export interface CallTimings extends RunTimings {
  /** Deciding whether the caller may call the asset. */
  authzMs?: number;
  /** Looking the result up in the cache (assets with a cache TTL). */
  cacheMs?: number;
}

const ENTRIES: readonly (readonly [keyof CallTimings, string])[] = [
  ['authzMs', 'authz'],
  ['cacheMs', 'cache'],
  ['queueMs', 'queue'],
  ['databaseMs', 'database'],
  ['transformMs', 'transform'],
  ['writeMs', 'write'],
];

/** The header's value ('authz;dur=0.012, queue;dur=0.003, …'); empty when nothing was measured. */
export function serverTiming(timings: CallTimings): string {
  const parts: string[] = [];
  for (const [key, name] of ENTRIES) {
    const ms = timings[key];
    if (ms !== undefined) parts.push(timingEntry(name, ms));
  }
  return parts.join(', ');
}
