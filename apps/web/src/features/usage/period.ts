import type { Granularity } from '@datalab/contract/api/reporting';

// The usage screens' periods: a few presets, each ending at the next bucket boundary (UTC) so that a period's
// query — and so its cache key — stays the same until a new bucket starts, and the buckets line up with the
// rollups' hours and days. The choice lives in the URL (?period=7d&granularity=hour): links and Back keep it.

export const periodPresets = ['24h', '7d', '30d', '90d'] as const;
export type PeriodPreset = (typeof periodPresets)[number];

interface PresetRule {
  label: string;
  days: number;
  /** The granularities offered, the first being the default. */
  granularities: readonly [Granularity, ...Granularity[]];
}

export const presetRules: Record<PeriodPreset, PresetRule> = {
  '24h': { label: 'Last 24 hours', days: 1, granularities: ['hour'] },
  '7d': { label: 'Last 7 days', days: 7, granularities: ['day', 'hour'] },
  '30d': { label: 'Last 30 days', days: 30, granularities: ['day'] },
  '90d': { label: 'Last 90 days', days: 90, granularities: ['week'] },
};

export const DEFAULT_PRESET: PeriodPreset = '7d';

export interface UsagePeriod {
  preset: PeriodPreset;
  granularity: Granularity;
}

export interface PeriodRange {
  /** ISO date-times (UTC). */
  from: string;
  to: string;
  granularity: Granularity;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The period the URL names; an unknown preset or a granularity the preset does not offer falls back. */
export function readPeriod(params: URLSearchParams): UsagePeriod {
  const preset = periodPresets.find((candidate) => candidate === params.get('period')) ?? DEFAULT_PRESET;
  const offered = presetRules[preset].granularities;
  const granularity = offered.find((candidate) => candidate === params.get('granularity')) ?? offered[0];
  return { preset, granularity };
}

/** The URL with another period; the default granularity of a preset is left out of it. */
export function withPeriod(params: URLSearchParams, period: UsagePeriod): URLSearchParams {
  const next = new URLSearchParams(params);
  if (period.preset === DEFAULT_PRESET) next.delete('period');
  else next.set('period', period.preset);
  const offered = presetRules[period.preset].granularities;
  const granularity = offered.includes(period.granularity) ? period.granularity : offered[0];
  if (granularity === offered[0]) next.delete('granularity');
  else next.set('granularity', granularity);
  return next;
}

/**
 * From and to of a period ending now: hourly periods end at the start of the next UTC hour, the others at the
 * start of the next UTC day (the current, partial bucket is included).
 */
export function periodRange({ preset, granularity }: UsagePeriod, now: Date = new Date()): PeriodRange {
  const step = granularity === 'hour' ? HOUR_MS : DAY_MS;
  const to = Math.floor(now.getTime() / step) * step + step;
  const from = to - presetRules[preset].days * DAY_MS;
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), granularity };
}
