import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import { SimpleGrid } from '@mantine/core';
import type { ChannelMetricsSummary, Granularity, MetricsBucket } from '@datalab/contract/api/reporting';
import {
  channelLabels,
  errorRate,
  formatBucket,
  formatCount,
  formatDuration,
  formatPercent,
  formatPercentile,
  granularityNouns,
} from '../format.ts';
import { ChartFigure } from './ChartFigure.tsx';

// The period's series as three charts: calls and errors, durations, and calls by channel (the Data API, AI agents
// over MCP, downloads). Loaded on demand (recharts is large): only those who may see usage fetch it.
// Series colours are shade 8 or 9 of Mantine's palette, each at least 4.3:1 against the white background (WCAG
// 1.4.11 asks 3:1 for graphics): blue 8 #1971c2 5.0:1, red 9 #c92a2a 5.5:1, teal 9 #087f5b 5.0:1, orange 9 #d9480f
// 4.3:1, grape 9 #862e9c 7.6:1. The series differ by more than colour: calls and errors are separate bars, p95 is dashed, and every series
// is named in the legend, the tooltip and the table.

const CHART_HEIGHT = 240;

export interface UsageChartsProps {
  series: MetricsBucket[];
  /** The same calls split by channel, in the contract's order. */
  channels: ChannelMetricsSummary[];
  granularity: Granularity;
  headingOrder: 2 | 3 | 4;
}

function busiest(series: MetricsBucket[]): MetricsBucket | undefined {
  return series.reduce<MetricsBucket | undefined>(
    (top, bucket) => (!top || bucket.calls > top.calls ? bucket : top),
    undefined,
  );
}

function callsSummary(series: MetricsBucket[], granularity: Granularity): string {
  const calls = series.reduce((sum, bucket) => sum + bucket.calls, 0);
  const errors = series.reduce((sum, bucket) => sum + bucket.errors, 0);
  const top = busiest(series);
  const noun = granularityNouns[granularity];
  const peak =
    top && top.calls > 0
      ? ` The busiest ${noun} was ${formatBucket(top.start, granularity)} with ${formatCount(top.calls)}.`
      : '';
  return `Calls and errors per ${noun} (UTC): ${formatCount(calls)} calls, ${formatCount(errors)} errors (${formatPercent(errorRate({ calls, errors }))}).${peak}`;
}

function durationSummary(series: MetricsBucket[], granularity: Granularity): string {
  const active = series.filter((bucket) => bucket.calls > 0);
  const slowest = active.reduce<MetricsBucket | undefined>(
    (top, bucket) => (!top || bucket.p95Ms > top.p95Ms ? bucket : top),
    undefined,
  );
  const noun = granularityNouns[granularity];
  if (!slowest) return `Call durations per ${noun} (UTC): no calls.`;
  return `Call durations per ${noun} (UTC), median and 95th percentile. The slowest ${noun} was ${formatBucket(slowest.start, granularity)}: p95 ${formatPercentile(slowest.p95Ms)}.`;
}

const CHANNEL_COLOURS: Record<ChannelMetricsSummary['channel'], string> = {
  'data-api': 'blue.8',
  mcp: 'grape.9',
  download: 'orange.9',
};

function channelSummary(channels: ChannelMetricsSummary[], granularity: Granularity): string {
  const parts = channels.map(
    ({ channel, totals }) =>
      `${channelLabels[channel]}: ${formatCount(totals.calls)} call${totals.calls === 1 ? '' : 's'}`,
  );
  return `Calls per ${granularityNouns[granularity]} (UTC) by channel. ${parts.join('; ')}.`;
}

const durationCell = (bucket: MetricsBucket | undefined, key: 'p50Ms' | 'p95Ms') =>
  bucket && bucket.calls > 0 ? formatPercentile(bucket[key]) : '—';

export function UsageCharts({ series, channels, granularity, headingOrder }: UsageChartsProps) {
  const labels = series.map((bucket) => formatBucket(bucket.start, granularity));
  const data = series.map((bucket, index) => ({
    bucket: labels[index],
    calls: bucket.calls,
    errors: bucket.errors,
    // No calls, no duration: a gap in the line rather than a misleading 0 ms.
    p50: bucket.calls === 0 ? null : bucket.p50Ms,
    p95: bucket.calls === 0 ? null : bucket.p95Ms,
  }));
  // The channels' series cover the same buckets as the overall one.
  const byChannel = labels.map((bucket, index) => ({
    bucket,
    ...Object.fromEntries(channels.map((entry) => [entry.channel, entry.series[index]?.calls ?? 0])),
  }));
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
      <ChartFigure
        headingOrder={headingOrder}
        title="Calls and errors"
        summary={callsSummary(series, granularity)}
        rowLabels={labels}
        columns={[
          { label: 'Calls', format: (row) => formatCount(series[row]?.calls ?? 0) },
          { label: 'Errors', format: (row) => formatCount(series[row]?.errors ?? 0) },
        ]}
      >
        <BarChart
          h={CHART_HEIGHT}
          data={data}
          dataKey="bucket"
          series={[
            { name: 'calls', label: 'Calls', color: 'blue.8' },
            { name: 'errors', label: 'Errors', color: 'red.9' },
          ]}
          withLegend
          accessibilityLayer={false}
          valueFormatter={formatCount}
          tickLine="y"
        />
      </ChartFigure>
      <ChartFigure
        headingOrder={headingOrder}
        title="Duration"
        summary={durationSummary(series, granularity)}
        rowLabels={labels}
        columns={[
          { label: 'p50', format: (row) => durationCell(series[row], 'p50Ms') },
          { label: 'p95', format: (row) => durationCell(series[row], 'p95Ms') },
        ]}
      >
        <LineChart
          h={CHART_HEIGHT}
          data={data}
          dataKey="bucket"
          series={[
            { name: 'p50', label: 'p50 (median), at most', color: 'teal.9' },
            { name: 'p95', label: 'p95, at most', color: 'orange.9', strokeDasharray: '6 3' },
          ]}
          withLegend
          accessibilityLayer={false}
          valueFormatter={formatDuration}
          curveType="linear"
          connectNulls={false}
          withDots={series.length <= 31}
          tickLine="y"
        />
      </ChartFigure>
      <ChartFigure
        headingOrder={headingOrder}
        title="Calls by channel"
        summary={channelSummary(channels, granularity)}
        rowLabels={labels}
        columns={channels.map((entry) => ({
          label: channelLabels[entry.channel],
          format: (row: number) => formatCount(entry.series[row]?.calls ?? 0),
        }))}
      >
        <BarChart
          h={CHART_HEIGHT}
          data={byChannel}
          dataKey="bucket"
          type="stacked"
          series={channels.map((entry) => ({
            name: entry.channel,
            label: channelLabels[entry.channel],
            color: CHANNEL_COLOURS[entry.channel],
          }))}
          withLegend
          accessibilityLayer={false}
          valueFormatter={formatCount}
          tickLine="y"
        />
      </ChartFigure>
    </SimpleGrid>
  );
}
