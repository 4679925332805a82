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

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const isDigit = (code: number) => code >= DIGIT_0 && code <= DIGIT_9;

/** `YYYY-MM-DD` from `from` on (the characters only: ranges are Date.parse's to judge). */
function isDateAt(text: string, from: number): boolean {
  for (let i = from; i < from + 10; i += 1) {
    const code = text.charCodeAt(i);
    if (i === from + 4 || i === from + 7 ? code !== 45 /* - */ : !isDigit(code)) return false;
  }
  return true;
}

/** `YYYY-MM-DD` exactly. */
const isDateText = (text: string) => text.length === 10 && isDateAt(text, 0);

/** Two digits at `at`. */
const twoDigits = (text: string, at: number) => isDigit(text.charCodeAt(at)) && isDigit(text.charCodeAt(at + 1));

/**
 * `YYYY-MM-DD[T ]hh:mm[:ss[.fff…]](Z|±hh[:]mm)` (T and Z in either case) that Date.parse reads: a date-time with its
 * offset. Checked character by character — a page types every cell of a date-time column with it.
 */
function isDateTimeText(text: string): boolean {
  const length = text.length;
  if (length < 17 || !isDateAt(text, 0)) return false;
  const separator = text.charCodeAt(10);
  if (separator !== 84 /* T */ && separator !== 116 /* t */ && separator !== 32 /* space */) return false;
  if (!twoDigits(text, 11) || text.charCodeAt(13) !== 58 /* : */ || !twoDigits(text, 14)) return false;
  let at = 16;
  if (text.charCodeAt(at) === 58 /* : */) {
    if (!twoDigits(text, at + 1)) return false;
    at += 3;
    if (text.charCodeAt(at) === 46 /* . */) {
      const digits = at + 1;
      at = digits;
      while (at < length && isDigit(text.charCodeAt(at))) at += 1;
      if (at === digits) return false;
    }
  }
  const zone = text.charCodeAt(at);
  if (zone === 90 /* Z */ || zone === 122 /* z */) {
    if (at + 1 !== length) return false;
  } else if (zone === 43 /* + */ || zone === 45 /* - */) {
    if (!twoDigits(text, at + 1)) return false;
    at += 3;
    if (text.charCodeAt(at) === 58 /* : */) at += 1;
    if (at + 2 !== length || !twoDigits(text, at)) return false;
  } else return false;
  return !Number.isNaN(Date.parse(text));
}

function typeOf(value: unknown): ColumnType | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isSafeInteger(value) ? 'integer' : 'decimal';
  if (typeof value === 'string') {
    if (isDateText(value)) return 'date';
    if (isDateTimeText(value)) return 'datetime';
    return 'string';
  }
  return 'json';
}

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
      return typeof value === 'string' && isDateText(value);
    case 'datetime':
      return typeof value === 'string' && isDateTimeText(value);
    default:
      return false;
  }
}

function merge(a: ColumnType | undefined, b: ColumnType | undefined): ColumnType | undefined {
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
      types.set(name, merge(known, typeOf(value)));
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

/** The rel="next" URL of a Link header (RFC 8288), if any. */
export function linkNext(headers: ReplyHeaders): string | undefined {
  const link = headerValue(headers, 'link');
  if (!link) return undefined;
  for (const part of link.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const params = part[2] ?? '';
    if (/;\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?/i.test(params)) return part[1];
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
