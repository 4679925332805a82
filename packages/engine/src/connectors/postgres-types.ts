import pg from 'pg';
import { timestampText, type CellText, type ColumnType } from '../types.ts';

// PostgreSQL type OIDs → the common column vocabulary, and value parsers that keep exactness: numeric and
// out-of-range bigint stay text, dates stay 'YYYY-MM-DD', timestamps become ISO 8601 text.

const columnTypeByOid: Record<number, ColumnType> = {
  16: 'boolean',
  20: 'integer',
  21: 'integer',
  23: 'integer',
  26: 'integer',
  700: 'decimal',
  701: 'decimal',
  1700: 'decimal',
  790: 'decimal',
  1082: 'date',
  1114: 'datetime',
  1184: 'datetime',
  114: 'json',
  3802: 'json',
  17: 'binary',
};

export function columnTypeOf(oid: number): ColumnType {
  return columnTypeByOid[oid] ?? 'string';
}

const identity = (value: string) => value;

function bigint(value: string): number | string {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}

const parsers: Record<number, (value: string) => unknown> = {
  20: bigint,
  1700: identity,
  1082: identity,
  1114: timestampText,
  1184: timestampText,
};

/** A types object for pg/pg-cursor: our parsers first, pg's defaults otherwise. */
export const engineTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    const own = parsers[oid];
    if (own && format !== 'binary') return own;
    return pg.types.getTypeParser(oid, format ?? 'text');
  },
};

const pgText = pg.types.getTypeParser(25, 'text');
const pgInteger = pg.types.getTypeParser(23, 'text');
const pgBoolean = pg.types.getTypeParser(16, 'text');

/**
 * How a column's text can be written as JSON as it is (see CellText), told by the parser that would type it:
 * undefined when only the typed value can be written (floats, intervals, arrays, json, bytes, …).
 */
export function cellTextOf(parser: (text: string) => unknown): CellText | undefined {
  if (parser === identity || parser === pgText) return 'text';
  if (parser === pgInteger) return 'digits';
  if (parser === bigint) return 'bigint';
  if (parser === timestampText) return 'timestamp';
  if (parser === pgBoolean) return 'boolean';
  return undefined;
}
