import pg from 'pg';
import type { ColumnType } from '../types.ts';

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

const PLUS = 43;
const MINUS = 45;

function timestamp(value: string): string {
  // '2024-01-02 03:04:05.123+00' → '2024-01-02T03:04:05.123+00:00'; infinity stays as it is. A sign three
  // characters from the end is an hours-only offset (PostgreSQL writes '+05:30' whole); no regular expression
  // per cell (100 rows of Q100 hold 100 of these).
  const iso = value.replace(' ', 'T');
  const sign = iso.charCodeAt(iso.length - 3);
  return sign === PLUS || sign === MINUS ? `${iso}:00` : iso;
}

const parsers: Record<number, (value: string) => unknown> = {
  20: bigint,
  1700: identity,
  1082: identity,
  1114: timestamp,
  1184: timestamp,
};

/** A types object for pg/pg-cursor: our parsers first, pg's defaults otherwise. */
export const engineTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    const own = parsers[oid];
    if (own && format !== 'binary') return own;
    return pg.types.getTypeParser(oid, format ?? 'text');
  },
};
