import { isUtf8 } from 'node:buffer';
import type { Column, ColumnType, Row } from '../types.ts';
import { knownShape, newShape } from './json-shapes.ts';
import { bytesType, mergeTypes, typeOf } from './rows.ts';

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

/** Thrown inside the scan when the reply is one it does not answer for: never leaves this module. */
const DECLINE = Symbol('declined');

function decline(): never {
  throw DECLINE;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** Deeper values than this are left to JSON.parse (the scan recurses). */
const MAX_DEPTH = 128;
/** A number of at most this many digits, with no fraction or exponent, is a safe integer. */
const SAFE_DIGITS = 15;

/** What a scanned value was. */
const Kind = { String: 0, Number: 1, Literal: 2, Null: 3, Nested: 4 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

/** Bytes that end a run of plain string content: the quote, the backslash and the control characters. */
const STOPS_STRING = new Uint8Array(256);
for (let code = 0; code < 0x20; code += 1) STOPS_STRING[code] = 1;
STOPS_STRING[QUOTE] = 1;
STOPS_STRING[BACKSLASH] = 1;

const isDigit = (code: number) => code >= ZERO && code <= NINE;
const isHex = (code: number) => isDigit(code) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x66);

class Scanner {
  readonly #data: Buffer;
  /** The same bytes, read four at a time where that is quicker. */
  readonly #view: DataView;
  readonly #end: number;
  readonly #path: readonly string[];
  #pos = 0;
  /** Set by #whitespace when it passes a line break (a row must stay on its line). */
  #newline = false;
  /** Whether the last string scanned had escapes. */
  #escaped = false;
  // Of the last number scanned.
  #simpleInteger = false;
  #found: ScannedRows | undefined;

  constructor(data: Buffer, path: readonly string[]) {
    this.#data = data;
    this.#view = new DataView(data.buffer, data.byteOffset, data.length);
    this.#end = data.length;
    this.#path = path;
  }

  document(): ScannedRows {
    const data = this.#data;
    // A byte-order mark, as the parse strips it.
    if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) this.#pos = 3;
    this.#whitespace();
    if (this.#path.length === 0) this.#rows();
    else this.#pathObject(0);
    this.#whitespace();
    if (this.#pos !== this.#end || !this.#found) decline();
    return this.#found;
  }

  #at(): number {
    if (this.#pos >= this.#end) decline();
    return this.#data[this.#pos]!;
  }

  #expect(code: number): void {
    if (this.#at() !== code) decline();
    this.#pos += 1;
  }

  #whitespace(): void {
    this.#pos = this.#skipWhitespace(this.#pos);
  }

  /** The object at path[level]'s parent: finds that key (once) and goes on into its value. */
  #pathObject(level: number): void {
    this.#expect(OPEN_BRACE);
    const wanted = this.#path[level]!;
    let seen = false;
    this.#whitespace();
    if (this.#at() === CLOSE_BRACE) decline();
    for (;;) {
      this.#whitespace();
      const start = this.#pos;
      this.#string();
      // A key written with escapes is not compared here: the parse knows what it says.
      if (this.#escaped) decline();
      const isPath = this.#data.toString('utf8', start + 1, this.#pos - 1) === wanted;
      this.#whitespace();
      this.#expect(COLON);
      this.#whitespace();
      if (isPath) {
        // A repeated key: JSON.parse keeps the last one.
        if (seen) decline();
        seen = true;
        if (level + 1 === this.#path.length) this.#rows();
        else this.#pathObject(level + 1);
      } else this.#value(1);
      this.#whitespace();
      const next = this.#at();
      this.#pos += 1;
      if (next === CLOSE_BRACE) break;
      if (next !== COMMA) decline();
    }
    if (!seen) decline();
  }

  /** From `pos` past any whitespace (noting a line break); answers where it ends. */
  #skipWhitespace(pos: number): number {
    const data = this.#data;
    for (; pos < this.#end; pos += 1) {
      const code = data[pos]!;
      if (code === 0x20 || code === 0x09) continue;
      if (code === LINE_FEED || code === CARRIAGE_RETURN) this.#newline = true;
      else break;
    }
    return pos;
  }

  /**
   * The rows array: each item an object with the first one's keys, on one line. The hot loop of the scan (a page's
   * every cell): the position is kept in a local, whitespace is skipped only where there is some, and a later row's
   * keys are compared with the first row's bytes instead of being scanned.
   */
  #rows(): void {
    this.#expect(OPEN_BRACKET);
    this.#whitespace();
    if (this.#at() === CLOSE_BRACKET) decline();
    const data = this.#data;
    const view = this.#view;
    const starts = scratchStarts;
    const ends = scratchEnds;
    let count = 0;
    const keyStarts: number[] = [];
    const keyEnds: number[] = [];
    const types: (ColumnType | undefined)[] = [];
    let keys = -1;
    let pos = this.#pos;
    for (;;) {
      if (data[pos]! <= 0x20) pos = this.#skipWhitespace(pos);
      const start = pos;
      if (data[pos] !== OPEN_BRACE) decline();
      pos += 1;
      this.#newline = false;
      if (data[pos]! <= 0x20) pos = this.#skipWhitespace(pos);
      let member = 0;
      if (data[pos] === CLOSE_BRACE) pos += 1;
      else
        for (; ; member += 1) {
          if (data[pos]! <= 0x20) pos = this.#skipWhitespace(pos);
          if (keys < 0) {
            keyStarts.push(pos);
            this.#pos = pos;
            this.#string();
            if (this.#escaped) decline();
            pos = this.#pos;
            keyEnds.push(pos);
            types.push(undefined);
          } else {
            // The first row's key, quotes included, byte for byte: the same key (it had no escapes), and its end.
            if (member >= keys) decline();
            const keyStart = keyStarts[member]!;
            const length = keyEnds[member]! - keyStart;
            if (!sameBytes(data, view, pos, keyStart, length)) decline();
            pos += length;
          }
          if (data[pos]! <= 0x20) pos = this.#skipWhitespace(pos);
          if (data[pos] !== COLON) decline();
          pos += 1;
          if (data[pos]! <= 0x20) pos = this.#skipWhitespace(pos);
          pos = this.#cell(pos, types, member);
          if (data[pos]! <= 0x20) pos = this.#skipWhitespace(pos);
          const next = data[pos];
          pos += 1;
          if (next === CLOSE_BRACE) {
            member += 1;
            break;
          }
          if (next !== COMMA) decline();
        }
      if (keys < 0) keys = member;
      else if (member !== keys) decline();
      if (this.#newline) decline();
      starts[count] = start;
      ends[count] = pos;
      count += 1;
      if (data[pos]! <= 0x20) pos = this.#skipWhitespace(pos);
      const next = data[pos];
      pos += 1;
      if (next === CLOSE_BRACKET) break;
      if (next !== COMMA) decline();
    }
    if (pos > this.#end) decline();
    this.#pos = pos;
    const shape = knownShape(data, keyStarts, keyEnds, types) ?? newShape(data, keyStarts, keyEnds, types);
    if (!shape) decline();
    this.#found = {
      data,
      starts: starts.slice(0, count),
      ends: ends.slice(0, count),
      columns: shape.columns,
      names: shape.names,
    };
  }

  /**
   * A row's cell at `pos`: scanned, and its column's type merged with the cell's (as inferColumns does with values);
   * answers where it ends. A cell that cannot change its column's type (text in a text column) is only scanned.
   */
  #cell(pos: number, types: (ColumnType | undefined)[], column: number): number {
    const data = this.#data;
    const code = data[pos];
    const known = types[column];
    if (code === QUOTE) {
      const end = scanString(data, this.#view, pos, this.#end);
      if (known === 'string' || known === 'json') return end;
      this.#escaped = escapedString;
      types[column] = mergeTypes(known, this.#stringType(pos + 1, end - 1));
      return end;
    }
    if (code === MINUS || (code !== undefined && code >= ZERO && code <= NINE)) {
      const end = this.#numberFrom(pos);
      // A whole number in an integer column, a number in a decimal one: nothing to merge.
      if (known === 'decimal' || known === 'json') return end;
      if (known === 'integer' && this.#simpleInteger && end - pos <= SAFE_DIGITS) return end;
      types[column] = mergeTypes(known, this.#numberType(pos, end));
      return end;
    }
    // Not a string or a number: a literal, null, or an object or array inside the row.
    this.#pos = pos;
    const kind = this.#value(1);
    if (known === 'json' || kind === Kind.Null) return this.#pos;
    types[column] = mergeTypes(known, kind === Kind.Literal ? 'boolean' : 'json');
    return this.#pos;
  }

  #stringType(start: number, end: number): ColumnType | undefined {
    const data = this.#data;
    if (this.#escaped) return typeOf(JSON.parse(data.toString('utf8', start - 1, end + 1)));
    const length = end - start;
    // Only texts of these lengths that start with a digit can be dates or date-times (typeOf's first tests); a
    // byte outside ASCII fails the checks as its character would.
    if ((length !== 10 && length < 17) || !isDigit(data[start]!)) return 'string';
    return bytesType(data, start, length);
  }

  #numberType(start: number, end: number): ColumnType | undefined {
    if (this.#simpleInteger && end - start <= SAFE_DIGITS) return 'integer';
    return typeOf(Number(this.#data.toString('latin1', start, end)));
  }

  /** Any JSON value; answers its kind. */
  #value(depth: number): Kind {
    const code = this.#at();
    if (code === QUOTE) {
      this.#string();
      return Kind.String;
    }
    if (code === MINUS || isDigit(code)) {
      this.#number();
      return Kind.Number;
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      this.#nested(depth);
      return Kind.Nested;
    }
    if (this.#literal('true') || this.#literal('false')) return Kind.Literal;
    if (this.#literal('null')) return Kind.Null;
    return decline();
  }

  #literal(word: string): boolean {
    const data = this.#data;
    const pos = this.#pos;
    if (pos + word.length > this.#end) return false;
    for (let i = 0; i < word.length; i += 1) if (data[pos + i] !== word.charCodeAt(i)) return false;
    this.#pos = pos + word.length;
    return true;
  }

  /** A string from its opening quote to just after its closing one. */
  #string(): void {
    if (this.#at() !== QUOTE) decline();
    this.#pos = scanString(this.#data, this.#view, this.#pos, this.#end);
    this.#escaped = escapedString;
  }

  /** -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
  #number(): void {
    this.#pos = this.#numberFrom(this.#pos);
  }

  /** The number that starts at `start`: answers where it ends, and notes whether it was a plain integer. */
  #numberFrom(start: number): number {
    const data = this.#data;
    const end = this.#end;
    let pos = start;
    if (data[pos] === MINUS) pos += 1;
    const first = data[pos];
    if (first === ZERO) pos += 1;
    else if (first !== undefined && first > ZERO && first <= NINE) while (pos < end && isDigit(data[pos]!)) pos += 1;
    else decline();
    let simple = true;
    if (data[pos] === DOT) {
      simple = false;
      pos = this.#digits(pos + 1);
    }
    const exponent = data[pos];
    const hasExponent = exponent === 0x65 || exponent === 0x45;
    if (hasExponent) {
      simple = false;
      const sign = data[pos + 1];
      pos = this.#digits(sign === PLUS || sign === MINUS ? pos + 2 : pos + 1);
    }
    // Two numbers JSON.stringify writes otherwise than their value reads: -0 ("0") and what overflows to Infinity
    // ("null", from an exponent or over 300 digits). Left to the parse.
    if ((data[start] === MINUS && data[start + 1] === ZERO) || hasExponent || pos - start > 300) {
      const value = Number(data.toString('latin1', start, pos));
      if (Object.is(value, -0) || !Number.isFinite(value)) decline();
    }
    this.#simpleInteger = simple;
    return pos;
  }

  /** One digit or more from `pos`; answers where they end. */
  #digits(pos: number): number {
    const data = this.#data;
    if (pos >= this.#end || !isDigit(data[pos]!)) decline();
    let at = pos + 1;
    while (at < this.#end && isDigit(data[at]!)) at += 1;
    return at;
  }

  /** An object or array inside a row or beside the rows: checked, not kept. */
  #nested(depth: number): void {
    if (depth > MAX_DEPTH) decline();
    const close = this.#at() === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
    const isObject = close === CLOSE_BRACE;
    this.#pos += 1;
    this.#whitespace();
    if (this.#at() === close) {
      this.#pos += 1;
      return;
    }
    for (;;) {
      this.#whitespace();
      if (isObject) {
        this.#string();
        this.#whitespace();
        this.#expect(COLON);
        this.#whitespace();
      }
      this.#value(depth + 1);
      this.#whitespace();
      const next = this.#at();
      this.#pos += 1;
      if (next === close) return;
      if (next !== COMMA) decline();
    }
  }
}

/**
 * The rows' positions as a scan finds them, kept from one scan to the next (a scan never yields): a page's arrays
 * are then copied once at their size instead of grown push by push. Let go after a page of more than KEEP_ROWS rows.
 */
let scratchStarts: number[] = [];
let scratchEnds: number[] = [];
const KEEP_ROWS = 10_000;

/** Whether the last string scanString read had escapes. */
let escapedString = false;

/** The string whose opening quote is at `pos`: answers where it ends (just past its closing quote). */
function scanString(data: Buffer, view: DataView, pos: number, end: number): number {
  let escaped = false;
  pos += 1;
  // Four bytes at a time while none of them is a control character, a quote or a backslash (a byte under 0x20,
  // 0x22 or 0x5c in the word: the usual bit tests, never wrong when they find none); the byte loop goes on from
  // the first word that may hold one.
  while (pos + 4 <= end) {
    const word = view.getUint32(pos);
    const quote = word ^ 0x22222222;
    const backslash = word ^ 0x5c5c5c5c;
    if (
      ((word - 0x20202020) & ~word & 0x80808080) !== 0 ||
      ((quote - 0x01010101) & ~quote & 0x80808080) !== 0 ||
      ((backslash - 0x01010101) & ~backslash & 0x80808080) !== 0
    )
      break;
    pos += 4;
  }
  for (;;) {
    while (pos < end && STOPS_STRING[data[pos]!] === 0) pos += 1;
    if (pos >= end) decline();
    const code = data[pos]!;
    if (code === QUOTE) break;
    if (code !== BACKSLASH) decline();
    escaped = true;
    const next = data[pos + 1];
    if (next === 0x75 /* u */) {
      if (pos + 6 > end) decline();
      for (let i = pos + 2; i < pos + 6; i += 1) if (!isHex(data[i]!)) decline();
      pos += 6;
    } else if (next === undefined || !isEscapeLetter(next)) decline();
    else pos += 2;
  }
  escapedString = escaped;
  return pos + 1;
}

/** " \ / b f n r t */
function isEscapeLetter(code: number): boolean {
  return (
    code === QUOTE ||
    code === BACKSLASH ||
    code === 0x2f ||
    code === 0x62 ||
    code === 0x66 ||
    code === 0x6e ||
    code === 0x72 ||
    code === 0x74
  );
}

/** Whether data[at, at + length) holds the bytes of data[other, other + length): four at a time, then one by one. */
function sameBytes(data: Buffer, view: DataView, at: number, other: number, length: number): boolean {
  if (at + length > data.length) return false;
  let i = 0;
  for (; i + 4 <= length; i += 4) if (view.getUint32(at + i) !== view.getUint32(other + i)) return false;
  for (; i < length; i += 1) if (data[at + i] !== data[other + i]) return false;
  return true;
}

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
    if (scratchStarts.length > KEEP_ROWS) {
      scratchStarts = [];
      scratchEnds = [];
    }
  }
}

/** The scanned rows as objects (what JSON.parse of the reply held there). */
export function scannedObjects(rows: ScannedRows): Row[] {
  const last = rows.ends.length - 1;
  if (last < 0) return [];
  return JSON.parse(`[${rows.data.toString('utf8', rows.starts[0], rows.ends[last])}]`) as Row[];
}
