import { CACHE_VALUE_MAX_ROWS, type CacheEntry, type CacheValue } from '@datalab/contract/api/caching';
import type { CacheEntryInfo, CacheEntry as StoredEntry } from '../../lib/result-cache.ts';
import { cachedResultTable } from '../calling/cached-result.service.ts';

// Shapes cache entries for the screen: times as age and time left, and a value as its type reads.

export type AssetRef = { uid: string; name: string };

export function presentEntry(info: CacheEntryInfo, asset: AssetRef | null, now: number): CacheEntry {
  const created = info.createdAt.getTime();
  return {
    key: info.key,
    type: info.type,
    asset,
    size: info.size,
    createdAt: info.createdAt,
    ageMs: Math.max(0, now - created),
    ttlMs: Math.max(0, created + info.ttlMs - now),
    hits: info.hits,
  };
}

const parseJson = (value: Buffer): unknown => {
  try {
    return JSON.parse(value.toString('utf8'));
  } catch {
    return value.toString('utf8');
  }
};

/** Parameter data reads as `[{ value, label }]`; anything else shows as values labelled by themselves. */
function presentOptions(value: Buffer): { value: unknown; label: string }[] {
  const parsed = parseJson(value);
  if (!Array.isArray(parsed)) return [];
  return parsed.map((item: unknown) => {
    if (item !== null && typeof item === 'object' && 'value' in item) {
      const { value: optionValue, label } = item as { value: unknown; label?: unknown };
      return { value: optionValue, label: String(label ?? optionValue) };
    }
    return { value: item, label: String(item) };
  });
}

export function presentValue(entry: StoredEntry): CacheValue {
  if (entry.type === 'results') {
    const { columns, rows, rowCount } = cachedResultTable(entry.value);
    return {
      type: 'results',
      key: entry.key,
      columns,
      rows: rows.slice(0, CACHE_VALUE_MAX_ROWS),
      rowCount,
      capped: rows.length > CACHE_VALUE_MAX_ROWS,
    };
  }
  if (entry.type === 'parameterData') {
    return { type: 'parameterData', key: entry.key, options: presentOptions(entry.value) };
  }
  return { type: 'metadata', key: entry.key, value: parseJson(entry.value) };
}
