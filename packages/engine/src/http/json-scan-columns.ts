import type { Column, ColumnType } from '../types.ts';
import { decline, isDigit } from './json-scan-bytes.ts';
import { knownShape, newShape } from './json-shapes.ts';
import { bytesType, typeOf } from './rows.ts';

// The JSON scan's answer (json-scan.ts): the rows as byte ranges with their columns, made from the scratch arrays the
// scan finds their positions in and the page's shape (json-shapes.ts), and the column type of a string or number cell
// read from its bytes.

export interface ScannedRows {
  /** The reply's bytes (UTF-8). */
  data: Buffer;
  /** Row i is the object at data[starts[i], ends[i]). */
  starts: number[];
  ends: number[];
  /** The rows' keys, in order: the columns (frozen, and shared by every page of the same keys and types). */
  columns: Column[];
  /** The columns' names. */
  names: readonly string[];
}

/**
 * The rows' positions as a scan finds them, kept from one scan to the next (a scan never yields): a page's arrays
 * are then copied once at their size instead of grown push by push. Let go after a page of more than KEEP_ROWS rows.
 */
export let scratchStarts: number[] = [];
export let scratchEnds: number[] = [];
const KEEP_ROWS = 10_000;

/** Called when a scan ends, whatever its outcome. */
export function releaseScratch(): void {
  if (scratchStarts.length > KEEP_ROWS) {
    scratchStarts = [];
    scratchEnds = [];
  }
}

/**
 * The answer for a page whose first `count` rows the scan found (their positions in the scratch arrays), with the
 * keys and types of its columns; declines keys that make no shape.
 */
export function foundRows(
  data: Buffer,
  count: number,
  keyStarts: readonly number[],
  keyEnds: readonly number[],
  types: readonly (ColumnType | undefined)[],
): ScannedRows {
  const shape = knownShape(data, keyStarts, keyEnds, types) ?? newShape(data, keyStarts, keyEnds, types);
  if (!shape) decline();
  return {
    data,
    starts: scratchStarts.slice(0, count),
    ends: scratchEnds.slice(0, count),
    columns: shape.columns,
    names: shape.names,
  };
}

/** A number of at most this many digits, with no fraction or exponent, is a safe integer. */
export const SAFE_DIGITS = 15;

/** The type of the string cell whose text is data[start, end) (inside its quotes); `escaped` when it has escapes. */
export function stringType(data: Buffer, start: number, end: number, escaped: boolean): ColumnType | undefined {
  if (escaped) return typeOf(JSON.parse(data.toString('utf8', start - 1, end + 1)));
  const length = end - start;
  // Only texts of these lengths that start with a digit can be dates or date-times (typeOf's first tests); a
  // byte outside ASCII fails the checks as its character would.
  if ((length !== 10 && length < 17) || !isDigit(data[start]!)) return 'string';
  return bytesType(data, start, length);
}

/** The type of the number cell data[start, end); `simpleInteger` when it has no fraction or exponent. */
export function numberType(data: Buffer, start: number, end: number, simpleInteger: boolean): ColumnType | undefined {
  if (simpleInteger && end - start <= SAFE_DIGITS) return 'integer';
  return typeOf(Number(data.toString('latin1', start, end)));
}
