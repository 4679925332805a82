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

/** A decimal's digits without the trailing zeros of its fraction: '1.20000000000000000000' → '1.2' (lossless). */
export function trimDecimal(text: string): string {
  if (!/^-?\d+\.\d+$/u.test(text)) return text;
  return text.replace(/0+$/u, '').replace(/\.$/u, '');
}

const ISO_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/u;

/**
 * An ISO timestamp as people read it, every digit kept: '2026-11-03T10:00:00.000Z' → '2026-11-03 10:00:00 UTC';
 * a fraction of a second only when there is one. A date column's midnight reads as the date alone.
 */
export function readableTimestamp(text: string, type: string): string {
  const match = ISO_TIMESTAMP.exec(text);
  if (!match) return text;
  const [, date = '', time = '', fraction = '', zone = ''] = match;
  const seconds = fraction.replace(/0+$/u, '');
  const isMidnight = /^00:00(:00)?$/u.test(time) && seconds === '';
  if (type === 'date' && isMidnight && (zone === 'Z' || zone === '')) return date;
  const zoneText = zone === 'Z' ? ' UTC' : zone ? ` ${zone}` : '';
  return `${date} ${time}${seconds ? `.${seconds}` : ''}${zoneText}`;
}

/**
 * The text a cell shows, by its column's type: decimals without trailing zeros, timestamps readable. Copies and
 * sorting keep the value as the server sent it (`cellText`).
 */
export function cellDisplay(value: unknown, type: string): string {
  const text = cellText(value);
  if (isEmptyValue(value)) return text;
  const kind = type.toLowerCase();
  if (kind === 'decimal' || kind === 'number' || kind === 'float' || kind === 'double') return trimDecimal(text);
  if (kind === 'datetime' || kind === 'date' || kind === 'timestamp') return readableTimestamp(text, kind);
  return text;
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
