import type { Metrics, MetricsBucket } from '@datalab/contract/api/reporting';
import { BUCKET_COLUMNS, percentile } from './histogram.ts';
import type { Sums } from './repository.ts';

// Shapes summed rollup rows into the contract's metrics: counts as numbers (PostgreSQL answers bigint sums as
// text), percentiles from the summed duration buckets, the cache-hit ratio over calls.

const EMPTY: Metrics = {
  calls: 0,
  errors: 0,
  rows: 0,
  bytes: 0,
  p50Ms: 0,
  p95Ms: 0,
  cacheHitRatio: 0,
  distinctUsers: 0,
};

/** Running sums, added bucket by bucket; `distinctUsers` is set apart (it does not add up). */
export interface Accumulator {
  calls: number;
  errors: number;
  cacheHits: number;
  rows: number;
  bytes: number;
  users: number;
  counts: number[];
}

/** Sums, with the distinct users of the same rows when known (they do not add up across rows). */
export type SumsWithUsers = Sums & { users?: number };

export function accumulate(row: SumsWithUsers, into: Accumulator = emptyAccumulator()): Accumulator {
  into.calls += Number(row.calls);
  into.errors += Number(row.errors);
  into.cacheHits += Number(row.cache_hits);
  into.rows += Number(row.row_count);
  into.bytes += Number(row.byte_count);
  into.users += Number(row.users ?? 0);
  BUCKET_COLUMNS.forEach((column, i) => (into.counts[i]! += Number(row[column])));
  return into;
}

export function emptyAccumulator(): Accumulator {
  return { calls: 0, errors: 0, cacheHits: 0, rows: 0, bytes: 0, users: 0, counts: BUCKET_COLUMNS.map(() => 0) };
}

export function presentMetrics(sums: Accumulator, distinctUsers = sums.users): Metrics {
  if (sums.calls === 0) return EMPTY;
  return {
    calls: sums.calls,
    errors: sums.errors,
    rows: sums.rows,
    bytes: sums.bytes,
    p50Ms: percentile(sums.counts, 0.5),
    p95Ms: percentile(sums.counts, 0.95),
    cacheHitRatio: sums.cacheHits / sums.calls,
    distinctUsers,
  };
}

/** Every bucket of the period in order, those without rows as zeros. */
export function presentSeries(buckets: readonly string[], rows: ReadonlyMap<string, SumsWithUsers>): MetricsBucket[] {
  return buckets.map((start) => {
    const row = rows.get(start);
    return { start: new Date(start), ...(row ? presentMetrics(accumulate(row)) : EMPTY) };
  });
}

export function presentDataSource(
  uid: string,
  asset: { name: string; collection_uid: string; collection_name: string } | undefined,
) {
  return {
    uid,
    name: asset?.name ?? null,
    collection: asset ? { uid: asset.collection_uid, name: asset.collection_name } : null,
  };
}

export function presentUser(
  userKey: number,
  user: { id: number; name: string; username: string | null } | undefined,
): { id: number; name: string; username: string | null } | null {
  if (userKey === 0) return null;
  // A user whose row is gone keeps their id; the name says who it was as far as we know.
  return user
    ? { id: user.id, name: user.name, username: user.username }
    : { id: userKey, name: `User ${userKey}`, username: null };
}
