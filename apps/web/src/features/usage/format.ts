import type { Granularity, Metrics, UsageChannel } from '@datalab/contract/api/reporting';

// How usage figures read. Buckets are UTC hours, days and ISO weeks: they are labelled in UTC too, so a day's
// bar is that day whatever the reader's time zone.

const count = new Intl.NumberFormat('en');
const percent = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 });

export const formatCount = (value: number) => count.format(value);

/** 0.123 → '12.3%'. */
export const formatPercent = (ratio: number) => percent.format(ratio);

/** Errors over calls; 0 when there were no calls. */
export const errorRate = (metrics: Pick<Metrics, 'calls' | 'errors'>) =>
  metrics.calls === 0 ? 0 : metrics.errors / metrics.calls;

/** A duration: whole milliseconds, seconds from 10 s up. */
export function formatDuration(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toLocaleString('en', { maximumFractionDigits: 1 })} s`;
  return `${ms.toLocaleString('en', { maximumFractionDigits: ms < 10 ? 1 : 0 })} ms`;
}

/**
 * A duration percentile as the summaries know it: the upper bound of the histogram bucket it falls in, so it
 * reads '≤ 50 ms' (at most), never as if it were an exact time.
 */
export const formatPercentile = (ms: number) => `≤ ${formatDuration(ms)}`;

const hourLabel = new Intl.DateTimeFormat('en', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});
const dayLabel = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A bucket's start as the axis and the data table show it: 'Nov 23, 14:00', 'Nov 23', 'Week of Nov 17'. */
export function formatBucket(start: Date, granularity: Granularity): string {
  if (granularity === 'hour') return hourLabel.format(start);
  if (granularity === 'day') return dayLabel.format(start);
  return `Week of ${dayLabel.format(start)}`;
}

export const granularityNouns: Record<Granularity, string> = { hour: 'hour', day: 'day', week: 'week' };

/** How the portal names each channel calls come through. */
export const channelLabels: Record<UsageChannel, string> = {
  'data-api': 'Data API',
  mcp: 'AI agents (MCP)',
  download: 'Downloads',
};
