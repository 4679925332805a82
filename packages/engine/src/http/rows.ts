import { RE2JS } from 're2js';
import { EngineError } from '../errors.ts';
import type { Column, ColumnType, Row } from '../types.ts';
import type { ReplyHeaders } from './client.ts';
import { headerValue } from './body.ts';
import type { Paging } from './template.ts';

// From a JSON reply to rows: the rows path, the columns (inferred from the first page: keys in order of first
// appearance, types from the values), and where the next page is.

/** The value at a dotted path ('data.items', 'results.0.rows'); the value itself for an empty path. */
export function valueAt(value: unknown, path: string): unknown {
  if (path.trim() === '') return value;
  let current = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** The rows at the rows path: an array's items (objects as they are, other values as { value }), or one object. */
export function rowsAt(reply: unknown, path: string): Row[] {
  const found = valueAt(reply, path);
  if (found === undefined || found === null) return [];
  if (typeof found !== 'object')
    throw new EngineError('UPSTREAM_FAILED', `The reply has no rows at "${path || '(the reply)'}"`);
  const items: unknown[] = Array.isArray(found) ? found : [found];
  return items.map((item) =>
    item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Row) : { value: item },
  );
}

/** The checked text is ASCII by then: latin1 decodes it as it is. */
const LATIN1 = new TextDecoder('latin1');

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const isDigit = (code: number) => code >= DIGIT_0 && code <= DIGIT_9;

// Target: Web API cache off ≥ 0.7 × a bare undici proxy (bench/RESULTS.md, "Web API"): a page types every cell.
// Oracle: rows-dates.test.ts (seeded fuzz) against the character checks and V8's Date.parse; switch: the `ranges`
// argument of textType and bytesType, 'date-parse' judging the ranges with Date.parse.
//
// The date checks read bytes: a reply's own (json-scan-columns.ts checks cells without making a string of each) or a
// string's, copied into a scratch buffer. One monomorphic reader: a page checks every cell of a date-time column.
// The text being checked is module state, set by each entry point below (the checks are synchronous).
let textBytes: Uint8Array = new Uint8Array(64);
let textStart = 0;
let textLength = 0;

/** The text's character at `index`; NaN past its end (as String.prototype.charCodeAt answers). */
function codeAt(index: number): number {
  return index < textLength ? textBytes[textStart + index]! : Number.NaN;
}

/** `YYYY-MM-DD` from `from` on (the characters only: ranges are Date.parse's to judge). */
function isDateAt(from: number): boolean {
  for (let i = from; i < from + 10; i += 1) {
    const code = codeAt(i);
    if (i === from + 4 || i === from + 7 ? code !== 45 /* - */ : !isDigit(code)) return false;
  }
  return true;
}

/** `YYYY-MM-DD` exactly. */
const isDateText = () => textLength === 10 && isDateAt(0);

/** Two digits at `at`. */
const twoDigits = (at: number) => isDigit(codeAt(at)) && isDigit(codeAt(at + 1));

/** Where `YYYY-MM-DDThh:mm:ss.sssZ` (toISOString's shape) has which character: '0' for a digit. */
const UTC_MILLIS = Uint8Array.from('0000-00-00T00:00:00.000Z', (char) => char.charCodeAt(0));

/**
 * The commonest date-time, `YYYY-MM-DDThh:mm:ss.sssZ` with its fields in range and an hour before 24, read straight
 * from the bytes: true only where isDateTime's full check is true too (anything else goes on to that check).
 */
function isUtcMillis(): boolean {
  const bytes = textBytes;
  const at = textStart;
  for (let i = 0; i < 24; i += 1) {
    const code = bytes[at + i]!;
    const wanted = UTC_MILLIS[i]!;
    if (wanted === DIGIT_0 ? code < DIGIT_0 || code > DIGIT_9 : code !== wanted) return false;
  }
  const field = (i: number) => bytes[at + i]! * 10 + bytes[at + i + 1]! - 528;
  const month = field(5);
  const day = field(8);
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && field(11) <= 23 && field(14) <= 59 && field(17) <= 59;
}

/**
 * `YYYY-MM-DD[T ]hh:mm[:ss[.fff…]](Z|±hh[:]mm)` (T and Z in either case) that Date.parse reads: a date-time with its
 * offset. Checked character by character — a page types every cell of a date-time column with it.
 */
function isDateTime(ranges: DateRanges): boolean {
  const length = textLength;
  if (length === 24 && ranges === 'own' && isUtcMillis()) return true;
  if (length < 17 || !isDateAt(0)) return false;
  const separator = codeAt(10);
  if (separator !== 84 /* T */ && separator !== 116 /* t */ && separator !== 32 /* space */) return false;
  if (!twoDigits(11) || codeAt(13) !== 58 /* : */ || !twoDigits(14)) return false;
  let at = 16;
  let fraction = 0; // the fraction's digits run from `fraction` to `fractionEnd` (none by default)
  let fractionEnd = 0;
  if (codeAt(at) === 58 /* : */) {
    if (!twoDigits(at + 1)) return false;
    at += 3;
    if (codeAt(at) === 46 /* . */) {
      fraction = at + 1;
      at = fraction;
      while (at < length && isDigit(codeAt(at))) at += 1;
      if (at === fraction) return false;
      fractionEnd = at;
    }
  }
  let offset = 0; // where a ±hh[:]mm offset starts (none for Z)
  const zone = codeAt(at);
  if (zone === 90 /* Z */ || zone === 122 /* z */) {
    if (at + 1 !== length) return false;
  } else if (zone === 43 /* + */ || zone === 45 /* - */) {
    offset = at;
    if (!twoDigits(at + 1)) return false;
    at += 3;
    if (codeAt(at) === 58 /* : */) at += 1;
    if (at + 2 !== length || !twoDigits(at)) return false;
  } else return false;
  if (ranges === 'date-parse')
    return !Number.isNaN(Date.parse(LATIN1.decode(textBytes.subarray(textStart, textStart + length))));

  // Then the ranges, exactly as V8's Date.parse judges them (rows-dates.test.ts holds this to it): Date.parse itself
  // costs ~300 ns a cell. A field's value is tens * 10 + units, less 528 for the two '0's. With a T, V8's ISO parser
  // reads the text; a space sends it to V8's legacy parser, which is laxer in places.
  const iso = separator !== 32;
  const year = codeAt(0) * 1000 + codeAt(1) * 100 + codeAt(2) * 10 + codeAt(3) - 53_328;
  const month = codeAt(5) * 10 + codeAt(6) - 528;
  const day = codeAt(8) * 10 + codeAt(9) - 528;
  if (!iso && year >= 1 && year <= 31) {
    // The legacy parser takes a year of 1 to 31 for the month, the month for the day and the day for the year
    // (0005-13-07 is 13 May 2007).
    if (year > 12 || month < 1 || month > 31) return false;
  } else if (month < 1 || month > 12 || day < 1 || day > 31) return false; // a 31st of any month rolls over
  const hour = codeAt(11) * 10 + codeAt(12) - 528;
  const minute = codeAt(14) * 10 + codeAt(15) - 528;
  const second = codeAt(16) === 58 /* : */ ? codeAt(17) * 10 + codeAt(18) - 528 : 0;
  if (hour > 24 || minute > 59 || second > 59) return false;
  if (hour === 24) {
    // 24:00 is the end of the day: its minutes, seconds and fraction must be zero. The ISO parser wants every
    // fraction digit zero; the legacy one only the milliseconds it keeps: the first three places or, past nine
    // places, the first nine digits after the leading zeros divided by 10^6 (six such digits at most).
    if (minute !== 0 || second !== 0) return false;
    let zeros = fraction;
    while (zeros < fractionEnd && codeAt(zeros) === DIGIT_0) zeros += 1;
    if (zeros < fractionEnd && (iso || zeros - fraction < Math.max(3, fractionEnd - fraction - 6))) return false;
  }
  if (offset === 0) return true;
  // The ISO parser takes offsets up to ±23:59; the legacy one minutes up to 59 after a colon, and ±hhmm of any digits.
  const offsetHours = codeAt(offset + 1) * 10 + codeAt(offset + 2) - 528;
  const offsetMinutes = codeAt(length - 2) * 10 + codeAt(length - 1) - 528;
  if (iso) return offsetHours <= 23 && offsetMinutes <= 59;
  const colon = codeAt(offset + 3) === 58; // ±hh:mm rather than ±hhmm
  return offsetMinutes <= 59 || !colon;
}

/** A value's column type (undefined for null). */
export function typeOf(value: unknown): ColumnType | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isSafeInteger(value) ? 'integer' : 'decimal';
  if (typeof value === 'string') return textType(value);
  return 'json';
}

/**
 * Who judges a date-time's ranges once its characters pass: 'own' (the default) reads the fields here, as V8 would;
 * 'date-parse' asks Date.parse, the library path the own checks are held to.
 */
export type DateRanges = 'own' | 'date-parse';

/** The type of the text at bytes[start, start + length): a date, a date-time or a string. */
export function bytesType(
  bytes: Uint8Array,
  start: number,
  length: number,
  ranges: DateRanges = 'own',
): 'date' | 'datetime' | 'string' {
  textBytes = bytes;
  textStart = start;
  textLength = length;
  if (isDateText()) return 'date';
  if (isDateTime(ranges)) return 'datetime';
  return 'string';
}

/** A scratch buffer for strings' characters (a date is ASCII: any other character answers "string"). */
let scratch = new Uint8Array(64);

/** A string's column type: a date, a date-time or a string. */
export function textType(text: string, ranges: DateRanges = 'own'): 'date' | 'datetime' | 'string' {
  const length = text.length;
  if (length !== 10 && length < 17) return 'string';
  if (scratch.length < length) scratch = new Uint8Array(length * 2);
  for (let i = 0; i < length; i += 1) {
    const char = text.charCodeAt(i);
    if (char > 0x7f) return 'string';
    scratch[i] = char;
  }
  return bytesType(scratch, 0, length, ranges);
}

/**
 * `YYYY-MM-DD[T ]hh:mm[:ss[.fff…]](Z|±hh[:]mm)` (T and Z in either case) that Date.parse reads: a date-time with its
 * offset.
 */
export const isDateTimeText = (text: string): boolean => textType(text) === 'datetime';

/** Whether a cell leaves a column of type `known` as it is (no merge needed). */
function fits(known: ColumnType, value: unknown): boolean {
  if (value === null || value === undefined || known === 'json') return true;
  switch (known) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'decimal':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
      return typeof value === 'string' && textType(value) === 'date';
    case 'datetime':
      return typeof value === 'string' && isDateTimeText(value);
    default:
      return false;
  }
}

/** The type of a column holding values of both types. */
export function mergeTypes(a: ColumnType | undefined, b: ColumnType | undefined): ColumnType | undefined {
  if (a === undefined || a === b) return b;
  if (b === undefined) return a;
  if ((a === 'integer' && b === 'decimal') || (a === 'decimal' && b === 'integer')) return 'decimal';
  if (a === 'json' || b === 'json') return 'json';
  return 'string';
}

/**
 * Columns of a batch of rows, with engine types (a column that is null throughout is a string). A cell that fits
 * its column's type so far (a number in a decimal column, a text in a text column, a date in a date column) is
 * checked with a few character tests and leaves the type as it is; only a cell that does not is typed and merged.
 */
export function inferColumns(rows: readonly Row[]): Column[] {
  const types = new Map<string, ColumnType | undefined>();
  for (const row of rows) {
    for (const name in row) {
      if (!Object.hasOwn(row, name)) continue;
      const known = types.get(name);
      const value = row[name];
      if (known !== undefined && fits(known, value)) continue;
      types.set(name, mergeTypes(known, typeOf(value)));
    }
  }
  return [...types].map(([name, type]) => ({ name, type: type ?? 'string' }));
}

/** A row with exactly the columns (missing keys null, unknown keys dropped): the row itself when it already is. */
export function shapeRow(row: Row, columns: readonly Column[]): Row {
  if (hasExactly(row, columns)) return row;
  const shaped: Row = {};
  for (const { name } of columns) shaped[name] = Object.hasOwn(row, name) ? (row[name] ?? null) : null;
  return shaped;
}

/** The row's own keys are the columns, in order, and none is undefined. */
function hasExactly(row: Row, columns: readonly Column[]): boolean {
  let index = 0;
  for (const name in row) {
    const column = columns[index];
    if (column === undefined || column.name !== name || !Object.hasOwn(row, name) || row[name] === undefined) {
      return false;
    }
    index += 1;
  }
  return index === columns.length;
}

// The upstream writes the Link header, so it is read with RE2, in linear time: RegExp reads on from every `<` to the
// end looking for its `>`, quadratic in the header (a 16 kB header of `<` held the event loop for a third of a second).
const linkValue = RE2JS.compile(String.raw`<([^>]*)>((?:\s*;\s*[^;,]+)*)`);
const relNext = RE2JS.compile(String.raw`(?i);\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?`);

/** The rel="next" URL of a Link header (RFC 8288), if any. */
export function linkNext(headers: ReplyHeaders): string | undefined {
  const link = headerValue(headers, 'link');
  if (!link) return undefined;
  for (const part of linkValue.matchAll(link)) {
    if (relNext.test(part[2] ?? '')) return part[1];
  }
  return undefined;
}

export interface PageState {
  /** The URL asked for the page just read. */
  url: URL;
  /** The URL that answered it (after redirects): next-page links are relative to it. */
  replyUrl: URL;
  reply: unknown;
  headers: ReplyHeaders;
  rows: number;
  /** 0 for the first page. */
  index: number;
}

/** The first page's URL (a page-number paging sets its parameters). */
export function firstPageUrl(url: URL, paging: Paging): URL {
  if (paging.kind !== 'page') return url;
  const first = new URL(url);
  first.searchParams.set(paging.param, String(paging.start));
  if (paging.sizeParam && paging.size !== undefined) first.searchParams.set(paging.sizeParam, String(paging.size));
  return first;
}

/** The next page's URL, or undefined when this page was the last. */
export function nextPageUrl(paging: Paging, page: PageState): URL | undefined {
  switch (paging.kind) {
    case 'none':
      return undefined;
    case 'page': {
      if (page.rows === 0 || (paging.size !== undefined && page.rows < paging.size)) return undefined;
      const next = new URL(page.url);
      next.searchParams.set(paging.param, String(paging.start + page.index + 1));
      return next;
    }
    case 'next': {
      const link = paging.path === '' ? linkNext(page.headers) : valueAt(page.reply, paging.path);
      if (typeof link !== 'string' || link.trim() === '') return undefined;
      try {
        return new URL(link, page.replyUrl);
      } catch {
        throw new EngineError('UPSTREAM_FAILED', 'The next-page link is not a valid URL');
      }
    }
  }
}
