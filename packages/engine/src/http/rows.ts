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

const datePattern = /^\d{4}-\d{2}-\d{2}$/;
const dateTimePattern = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

function typeOf(value: unknown): ColumnType | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isSafeInteger(value) ? 'integer' : 'decimal';
  if (typeof value === 'string') {
    if (datePattern.test(value)) return 'date';
    if (dateTimePattern.test(value) && !Number.isNaN(Date.parse(value))) return 'datetime';
    return 'string';
  }
  return 'json';
}

function merge(a: ColumnType | undefined, b: ColumnType | undefined): ColumnType | undefined {
  if (a === undefined || a === b) return b;
  if (b === undefined) return a;
  const pair = new Set([a, b]);
  if (pair.has('integer') && pair.has('decimal')) return 'decimal';
  if (pair.has('json')) return 'json';
  return 'string';
}

/**
 * Columns of a batch of rows, with engine types (a column that is null throughout is a string). A text cell of a
 * column already known as text cannot change its type (only an object or array can: to json), so its patterns are
 * not tried again: a page of 100 rows is typed with a few regular expressions per column rather than per cell.
 */
export function inferColumns(rows: readonly Row[]): Column[] {
  const types = new Map<string, ColumnType | undefined>();
  for (const row of rows) {
    for (const name in row) {
      if (!Object.hasOwn(row, name)) continue;
      const known = types.get(name);
      const value = row[name];
      if (known === 'string' && (typeof value === 'string' || value === null)) continue;
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
