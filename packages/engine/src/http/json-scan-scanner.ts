import type { ColumnType } from '../types.ts';
import {
  CARRIAGE_RETURN,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  LINE_FEED,
  MINUS,
  NINE,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  ZERO,
  decline,
  isDigit,
  Lexer,
  sameBytes,
} from './json-scan-bytes.ts';
import {
  SAFE_DIGITS,
  type ScannedRows,
  foundRows,
  numberType,
  scratchEnds,
  scratchStarts,
  stringType,
} from './json-scan-columns.ts';
import { mergeTypes } from './rows.ts';

// The JSON scan's walk over a reply (json-scan.ts): the document, the rows path, the rows array and each row's
// cells with their column types, and any other value checked as JSON and passed over.

/** Deeper values than this are left to JSON.parse (the scan recurses). */
const MAX_DEPTH = 128;

/** What a scanned value was. */
const Kind = { String: 0, Number: 1, Literal: 2, Null: 3, Nested: 4 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

export class Scanner {
  readonly #data: Buffer;
  /** The same bytes, read four at a time where that is quicker. */
  readonly #view: DataView;
  readonly #end: number;
  readonly #path: readonly string[];
  #pos = 0;
  /** Set by #whitespace when it passes a line break (a row must stay on its line). */
  #newline = false;
  readonly #lex = new Lexer();
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
      if (this.#lex.escaped) decline();
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
            if (this.#lex.escaped) decline();
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
    this.#found = foundRows(data, count, keyStarts, keyEnds, types);
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
      const end = this.#lex.string(data, this.#view, pos, this.#end);
      if (known === 'string' || known === 'json') return end;
      types[column] = mergeTypes(known, stringType(data, pos + 1, end - 1, this.#lex.escaped));
      return end;
    }
    if (code === MINUS || (code !== undefined && code >= ZERO && code <= NINE)) {
      const lex = this.#lex;
      const end = lex.number(data, pos, this.#end);
      // A whole number in an integer column, a number in a decimal one: nothing to merge.
      if (known === 'decimal' || known === 'json') return end;
      if (known === 'integer' && lex.simpleInteger && end - pos <= SAFE_DIGITS) return end;
      types[column] = mergeTypes(known, numberType(data, pos, end, lex.simpleInteger));
      return end;
    }
    // Not a string or a number: a literal, null, or an object or array inside the row.
    this.#pos = pos;
    const kind = this.#value(1);
    if (known === 'json' || kind === Kind.Null) return this.#pos;
    types[column] = mergeTypes(known, kind === Kind.Literal ? 'boolean' : 'json');
    return this.#pos;
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
    this.#pos = this.#lex.string(this.#data, this.#view, this.#pos, this.#end);
  }

  /** A number (Lexer.number). */
  #number(): void {
    this.#pos = this.#lex.number(this.#data, this.#pos, this.#end);
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
