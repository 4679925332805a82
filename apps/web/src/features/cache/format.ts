import type { CacheEntryType } from '@datalab/contract/api/caching';

// How the cache screen names types, sizes and durations.

export const cacheTypeLabels: Record<CacheEntryType, string> = {
  results: 'Results',
  parameterData: 'Parameter data',
  metadata: 'Metadata',
};

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
