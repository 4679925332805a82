// The duration histogram of the usage rollups (migration 0012): fixed bucket bounds, so that the buckets of any
// number of hours add up and a percentile is read from the sums. A percentile is reported as the upper bound of
// the bucket it falls in (an over-estimate by at most one bucket's width); calls longer than the last bound are
// reported as that bound.

// The bounds and column names are defined once, by the migration that created the columns.
import { BUCKET_COLUMNS, DURATION_BOUNDS_MS } from '../../db/migrations/20261125_0012_usage_rollups.ts';

export { BUCKET_COLUMNS, DURATION_BOUNDS_MS };
export type BucketColumn = (typeof BUCKET_COLUMNS)[number];

/** The bucket a whole-millisecond duration counts in. */
export function bucketIndex(durationMs: number): number {
  for (let i = 0; i < DURATION_BOUNDS_MS.length; i += 1) {
    if (durationMs <= DURATION_BOUNDS_MS[i]!) return i;
  }
  return DURATION_BOUNDS_MS.length;
}

/** The upper bound of the bucket holding the q-quantile (0 < q ≤ 1) of the counted calls; 0 with no calls. */
export function percentile(counts: readonly number[], q: number): number {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return 0;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (let i = 0; i < counts.length; i += 1) {
    seen += counts[i] ?? 0;
    if (seen >= rank) return DURATION_BOUNDS_MS[Math.min(i, DURATION_BOUNDS_MS.length - 1)]!;
  }
  return DURATION_BOUNDS_MS.at(-1)!;
}
