import { z } from 'zod';
import { defineCall } from '../call.ts';
import { messages } from '../messages.ts';
import { isoDateTime } from '../dates.ts';
import { pageOf, pageQuery } from '../paging.ts';
import { text } from '../text.ts';

// Usage reporting (product §7 "Download and reporting", product §15 "Usage"): every call (portal, calling layer,
// download) leaves a usage record; these calls summarise them over a period, per data source or per user, from
// rollups kept as the records arrive. Scope: one data asset or one collection (Editors and Owners of its
// collection, administrators), or everything (administrators only).

export const granularities = ['hour', 'day', 'week'] as const;
export type Granularity = (typeof granularities)[number];

/** The longest period each granularity may cover (days); a longer one is a 400. */
export const MAX_PERIOD_DAYS: Record<Granularity, number> = { hour: 31, day: 366, week: 731 };

export const reportingPeriodMessages = {
  backwards: 'To must not be before From',
  tooLong: (granularity: Granularity) =>
    `The period may cover at most ${MAX_PERIOD_DAYS[granularity]} days at ${granularity} granularity`,
} as const;

/** The period when a query names none (neither From nor To): the last DEFAULT_PERIOD_DAYS days up to now. */
export const DEFAULT_PERIOD_DAYS = 30;
const DAY_MS = 86_400_000;

export const metricsQuery = pageQuery
  .extend({
    /** From and To come together, or neither (then the last DEFAULT_PERIOD_DAYS days). */
    from: isoDateTime.optional(),
    to: isoDateTime.optional(),
    granularity: z.enum(granularities).default('day'),
    /** One collection's data sources (or users of them). */
    collectionUid: text(200).pipe(z.string().min(1)).optional(),
    /** One data asset (or its users). */
    dataAssetUid: text(200).pipe(z.string().min(1)).optional(),
  })
  .superRefine((query, context) => {
    if ((query.from === undefined) !== (query.to === undefined)) {
      const missing = query.from === undefined ? 'from' : 'to';
      context.addIssue({ code: 'custom', path: [missing], message: messages.allOrNone('From', 'To') });
      return;
    }
    if (query.from === undefined || query.to === undefined) return;
    if (query.to < query.from) {
      context.addIssue({ code: 'custom', path: ['to'], message: reportingPeriodMessages.backwards });
      return;
    }
    const days = (query.to.getTime() - query.from.getTime()) / DAY_MS;
    if (days > MAX_PERIOD_DAYS[query.granularity]) {
      context.addIssue({ code: 'custom', path: ['to'], message: reportingPeriodMessages.tooLong(query.granularity) });
    }
  })
  .transform(({ from, to, ...query }) => {
    const end = to ?? new Date();
    return { ...query, from: from ?? new Date(end.getTime() - DEFAULT_PERIOD_DAYS * DAY_MS), to: end };
  });
export type MetricsQuery = z.input<typeof metricsQuery>;

/** What a period (or one bucket of it) adds up to. */
export const metrics = z.object({
  calls: z.number().int(),
  /** Calls answered with a status of 400 or more. */
  errors: z.number().int(),
  rows: z.number().int(),
  bytes: z.number().int(),
  /** Duration percentiles in milliseconds (from a histogram: the upper bound of the bucket they fall in). */
  p50Ms: z.number(),
  p95Ms: z.number(),
  /** Cache hits over calls, 0 to 1; 0 when there were no calls. */
  cacheHitRatio: z.number(),
  distinctUsers: z.number().int(),
});
export type Metrics = z.infer<typeof metrics>;

/** One bucket of the series: its start (UTC hour, day, or ISO week starting Monday) and its metrics. */
export const metricsBucket = metrics.extend({ start: isoDateTime });
export type MetricsBucket = z.infer<typeof metricsBucket>;

/** Where calls came through: /data/v1 (and the portal's calls of it), the MCP endpoint, downloads. */
export const usageChannels = ['data-api', 'mcp', 'download'] as const;
export type UsageChannel = (typeof usageChannels)[number];

/** A channel's figures (distinct users are not kept per channel). */
const channelMetrics = metrics.omit({ distinctUsers: true });
export const channelMetricsSummary = z.object({
  channel: z.enum(usageChannels),
  totals: channelMetrics,
  series: z.array(channelMetrics.extend({ start: isoDateTime })),
});
export type ChannelMetricsSummary = z.infer<typeof channelMetricsSummary>;

const summaryExtras = {
  from: isoDateTime,
  to: isoDateTime,
  granularity: z.enum(granularities),
  /** Everything in scope over the period, and its series (every bucket, empty ones with zeros). */
  totals: metrics,
  series: z.array(metricsBucket),
  /** The same split by channel: every channel, in the order of usageChannels (zeros where none). */
  channels: z.array(channelMetricsSummary),
};

export const dataSourceMetricsSummary = z.object({
  dataSource: z.object({
    uid: z.string(),
    /** The asset's name; null when the asset no longer exists. */
    name: z.string().nullable(),
    collection: z.object({ uid: z.string(), name: z.string() }).nullable(),
  }),
  totals: metrics,
  series: z.array(metricsBucket),
});
export type DataSourceMetricsSummary = z.infer<typeof dataSourceMetricsSummary>;

export const userMetricsSummary = z.object({
  /** null: calls made with collection tokens, which act for no person. */
  user: z.object({ id: z.number().int(), name: z.string(), username: z.string().nullable() }).nullable(),
  totals: metrics,
  series: z.array(metricsBucket),
});
export type UserMetricsSummary = z.infer<typeof userMetricsSummary>;

export const getDataSourceMetricsSummaries = defineCall({
  method: 'GET',
  path: '/api/Reporting/GetDataSourceMetricsSummaries',
  tag: 'Reporting',
  summary: 'Usage per data source over a period, most called first, with totals and a series by granularity',
  query: metricsQuery,
  response: pageOf(dataSourceMetricsSummary).extend(summaryExtras),
});

export const getUserMetricsSummaries = defineCall({
  method: 'GET',
  path: '/api/Reporting/GetUserMetricsSummaries',
  tag: 'Reporting',
  summary: 'Usage per user over a period, most active first, with totals and a series by granularity',
  query: metricsQuery,
  response: pageOf(userMetricsSummary).extend(summaryExtras),
});
