import { isUtf8 } from 'node:buffer';
import type { Row } from '../types.ts';
import { DECLINE } from './json-scan-bytes.ts';
import { type ScannedRows, releaseScratch } from './json-scan-columns.ts';
import { Scanner } from './json-scan-scanner.ts';

// Target: Web API cache off ≥ 0.7 × a bare undici proxy (bench/RESULTS.md, "Web API"). Oracle: json-scan.test.ts
// (seeded fuzz, and the connector run both ways); switch: createHttpConnector(settings, { scan: false }).
//
// The rows of a JSON reply without parsing it into values. A 100-row page parsed, its cells typed one by one and its
// rows written again as JSON cost about four times what the request itself did; the scan walks the bytes once,
// checks that they are JSON, finds the rows at the rows path, types each cell from its text, and answers each row as
// a byte range that the JSON writer copies as it is (JsonRows). It answers only for replies whose rows can be
// copied so — every row an object with the same keys in the same order, each row on one line, nothing JSON.parse
// would read differently (a repeated key, a number out of range) — and declines everything else, which the
// connector then parses as before. So what a caller gets never depends on which way a page went: the same columns,
// the same values.
//
// The scan's modules: this one (the entry points), json-scan-scanner.ts (the walk over the reply: the rows path, the
// rows, their cells), json-scan-bytes.ts (lexing: strings, numbers, byte comparison) and json-scan-columns.ts (the
// answer: row positions, and cell types from their bytes).

export type { ScannedRows };

/** The rows path as the scan follows it: object keys only (an index into an array is left to the parse). */
export function scanPath(rowsPath: string): string[] | undefined {
  if (rowsPath.trim() === '') return [];
  const keys = rowsPath.split('.');
  return keys.some((key) => /^\d+$/.test(key)) ? undefined : keys;
}

/**
 * The rows of a JSON reply at `path` (scanPath) as byte ranges, with their columns; undefined for a reply the scan
 * leaves to JSON.parse: not valid UTF-8 or JSON, no rows there, rows that are not all objects with the same keys in
 * the same order, a row across lines, escapes in keys, and the other cases above.
 */
export function scanRows(data: Buffer, path: readonly string[]): ScannedRows | undefined {
  if (data.length === 0 || !isUtf8(data)) return undefined;
  try {
    return new Scanner(data, path).document();
  } catch (error) {
    if (error === DECLINE) return undefined;
    throw error;
  } finally {
    releaseScratch();
  }
}

/** The scanned rows as objects (what JSON.parse of the reply held there). */
export function scannedObjects(rows: ScannedRows): Row[] {
  const last = rows.ends.length - 1;
  if (last < 0) return [];
  return JSON.parse(`[${rows.data.toString('utf8', rows.starts[0], rows.ends[last])}]`) as Row[];
}
