import type { Granularity } from '@datalab/contract/api/reporting';
import type { Span } from './repository.ts';

// A summary's period, aligned to its granularity: rollups are kept per hour and per day, so a period starts at the
// bucket holding `from` and ends with the bucket holding `to` (a `to` exactly on a bucket's start ends there).
// Weeks start on Monday, UTC.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const STEP_MS: Record<Granularity, number> = { hour: HOUR_MS, day: DAY_MS, week: 7 * DAY_MS };

/** The start of the bucket holding `at`. */
export function bucketStart(at: Date, granularity: Granularity): Date {
  if (granularity === 'hour') return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
  const day = new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
  if (granularity === 'week') day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day;
}

export interface AlignedPeriod {
  granularity: Granularity;
  /** The first bucket's start. */
  from: Date;
  /** The end of the last bucket (exclusive). */
  to: Date;
  /** Every bucket's start, in order, as the rollups write it (ISO text). */
  buckets: string[];
}

export function alignPeriod(from: Date, to: Date, granularity: Granularity): AlignedPeriod {
  const step = STEP_MS[granularity];
  const start = bucketStart(from, granularity);
  const last = bucketStart(to, granularity);
  const end = last.getTime() === to.getTime() && to > start ? last.getTime() : last.getTime() + step;
  const buckets: string[] = [];
  for (let at = start.getTime(); at < end; at += step) buckets.push(new Date(at).toISOString());
  return { granularity, from: start, to: new Date(end), buckets };
}

/**
 * Splits an aligned period into the fewest rollup rows that cover it exactly: a daily or weekly period is whole
 * days; an hourly one reads its whole days from the daily tables and only the hours before the first and after
 * the last whole day from the hourly ones (a 7-day item ranking reads 7 rows per item, not 168).
 */
export function spansOf(period: Pick<AlignedPeriod, 'from' | 'to' | 'granularity'>): Span[] {
  const { from, to } = period;
  if (period.granularity !== 'hour') return [{ period: 'daily', from: from.toISOString(), to: to.toISOString() }];
  const firstDay = Math.ceil(from.getTime() / DAY_MS) * DAY_MS;
  const lastDay = Math.floor(to.getTime() / DAY_MS) * DAY_MS;
  if (firstDay >= lastDay) return [{ period: 'hourly', from: from.toISOString(), to: to.toISOString() }];
  const iso = (ms: number) => new Date(ms).toISOString();
  const spans: Span[] = [{ period: 'daily', from: iso(firstDay), to: iso(lastDay) }];
  if (from.getTime() < firstDay) spans.push({ period: 'hourly', from: from.toISOString(), to: iso(firstDay) });
  if (lastDay < to.getTime()) spans.push({ period: 'hourly', from: iso(lastDay), to: to.toISOString() });
  return spans;
}
