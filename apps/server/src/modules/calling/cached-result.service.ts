import { fromCacheValue } from './results.ts';

/** A cached result read back as columns and rows, for the cache screen (modules/caching). */
export function cachedResultTable(value: Buffer): {
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
  rowCount: number;
} {
  const result = fromCacheValue(value);
  // The head is the JSON reply without its closing members; closing it makes the object back.
  const { columns, rows } = JSON.parse(`${result.head.toString('utf8')}}`) as {
    columns: { name: string; type: string }[];
    rows: Record<string, unknown>[];
  };
  return { columns, rows, rowCount: result.rows };
}
