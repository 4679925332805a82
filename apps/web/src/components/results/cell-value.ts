import { texts } from '@datalab/contract/texts';

// How one result cell reads: typed by the column the server declared (engine column types), with empty values
// shown as the product's 'None' rather than a blank that looks like a rendering gap.

const NUMERIC_TYPES = new Set(['integer', 'decimal', 'number', 'bigint', 'float', 'double']);

export function isNumericColumn(type: string): boolean {
  return NUMERIC_TYPES.has(type.toLowerCase());
}

export function isEmptyValue(value: unknown): boolean {
  return value === null || value === undefined;
}

/** The text a cell shows and copies; objects (json columns) as compact JSON. */
export function cellText(value: unknown): string {
  if (isEmptyValue(value)) return texts.none;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

/** Orders two cell values: empties last, numbers as numbers, everything else as text (natural order). */
export function compareCells(a: unknown, b: unknown): number {
  const aEmpty = isEmptyValue(a);
  const bEmpty = isEmptyValue(b);
  if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : aEmpty ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return collator.compare(cellText(a), cellText(b));
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
