import type { CacheEntryType } from '@datalab/contract/api/caching';

// How the cache screen names types, sizes and durations.

export const cacheTypeLabels: Record<CacheEntryType, string> = {
  results: 'Results',
  parameterData: 'Parameter data',
  metadata: 'Metadata',
};

const UNITS = ['bytes', 'kB', 'MB', 'GB'] as const;

/** '512 bytes', '1.5 kB', '64 MB' (powers of 1024). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${value.toLocaleString('en', { maximumFractionDigits: digits })} ${UNITS[unit]}`;
}

/** A span for people, to the two largest units: '45 s', '3 min 20 s', '2 h 5 min', '1 d 3 h'. */
export function formatSpan(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const parts: [number, string][] = [
    [Math.floor(seconds / 86_400), 'd'],
    [Math.floor((seconds % 86_400) / 3600), 'h'],
    [Math.floor((seconds % 3600) / 60), 'min'],
    [seconds % 60, 's'],
  ];
  const first = parts.findIndex(([value]) => value > 0);
  if (first < 0) return '0 s';
  return parts
    .slice(first, first + 2)
    .filter(([value]) => value > 0)
    .map(([value, unit]) => `${value} ${unit}`)
    .join(' ');
}
