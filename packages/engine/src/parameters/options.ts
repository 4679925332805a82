import type { Row } from '../types.ts';
import type { TypedValues } from './values.ts';

// Helpers for the server around parameter values: the options a parameter data source offers, and a stable text
// of typed values for cache keys.

export interface ParameterOption {
  value: unknown;
  label: string;
}

/** Reads value/label pairs from a parameter data source's rows, at most `limit` of them, without duplicates. */
export async function collectOptions(
  rows: AsyncIterable<Row>,
  columns: { valueColumn: string; labelColumn: string },
  limit = 10_000,
): Promise<ParameterOption[]> {
  const options: ParameterOption[] = [];
  const seen = new Set<string>();
  for await (const row of rows) {
    const value = row[columns.valueColumn] ?? null;
    const key = JSON.stringify(value);
    if (seen.has(key)) continue;
    seen.add(key);
    const label = row[columns.labelColumn];
    options.push({ value, label: label === null || label === undefined ? String(value) : String(label) });
    if (options.length >= limit) break; // breaking out of for-await closes the source
  }
  return options;
}

/** The typed values as text with sorted keys: equal values give equal keys whatever the order they came in. */
export function stableValuesKey(values: TypedValues): string {
  return JSON.stringify(
    Object.keys(values)
      .sort()
      .map((name) => [name, values[name] ?? null]),
  );
}
