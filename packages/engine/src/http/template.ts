import { type WebApiMethod, webApiMethods, webApiPaging } from '@datalab/contract/web-api-request';
import { z } from 'zod';
import { EngineError } from '../errors.ts';

// A Web API data source's request: method, a path template with {param} placeholders (relative to the connection's
// base URL), query, header and body templates, where the rows are in the reply and how to page. Values never change
// the request's shape: in the path each is percent-encoded and may not climb (`.`/`..`), in the query and headers
// it is text (no line breaks in a header), in the body it is a JSON value put in place of "{param}".

export const httpMethods = webApiMethods;
export type HttpMethod = WebApiMethod;

const placeholder = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const headerNamePattern = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const forbiddenHeaders = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
]);

export const headerNameSchema = z
  .string()
  .regex(headerNamePattern, 'Invalid header name')
  .refine((name) => !forbiddenHeaders.has(name.toLowerCase()), 'This header is set by the connector');
export const headersSchema = z.record(
  headerNameSchema,
  z
    .string()
    .max(8192)
    .refine((v) => !/[\r\n\0]/.test(v), 'A header value cannot contain line breaks'),
);

/** How a request pages: the contract's one definition. */
export const pagingSchema = webApiPaging;
export type Paging = z.output<typeof pagingSchema>;

const pathTemplateSchema = z
  .string()
  .max(4000)
  .refine((p) => !/^[A-Za-z][A-Za-z0-9+.-]*:|^[/\\]{2}/.test(p), 'The path must be relative to the base URL')
  .refine((p) => !p.includes('#') && !/[\r\n\0\\]/.test(p), 'The path cannot contain #, backslashes or line breaks');

export const httpRequestSchema = z
  .object({
    method: z.enum(httpMethods).default('GET'),
    /** Relative to the connection's base URL; may end with a ?query part. */
    path: pathTemplateSchema.default(''),
    query: z.record(z.string().min(1).max(200), z.string().max(4000)).default({}),
    headers: headersSchema.default({}),
    /** A JSON template: a string "{param}" becomes the value itself; "{param}" inside a longer string, its text. */
    body: z.json().optional(),
    /** Dotted path to the rows in the JSON reply ('data.items'); empty: the reply itself. */
    rowsPath: z.string().max(200).default(''),
    paging: pagingSchema.default({ kind: 'none' }),
    /** The connection credential to send (its id); none when absent. */
    credential: z.string().min(1).max(100).optional(),
  })
  .refine((r) => r.body === undefined || (r.method !== 'GET' && r.method !== 'HEAD'), {
    message: 'A GET or HEAD request has no body',
    path: ['body'],
  });
export type HttpRequestDefinition = z.output<typeof httpRequestSchema>;
export type HttpRequestInput = z.input<typeof httpRequestSchema>;

/** Parses a request definition (an object or its JSON text, as carried in RunRequest.sql). */
export function parseHttpRequest(input: unknown): HttpRequestDefinition {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      throw new EngineError('QUERY_FAILED', 'The request definition is not valid JSON');
    }
  }
  const parsed = httpRequestSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  // A record key's own message ("This header is set by the connector") is nested inside zod's invalid_key issue.
  const inner = issue?.code === 'invalid_key' ? issue.issues[0] : undefined;
  throw new EngineError(
    'QUERY_FAILED',
    `The request definition is not valid: ${issue?.path.join('.') || 'request'}: ${inner?.message ?? issue?.message ?? ''}`,
  );
}

/** The text to pass as RunRequest.sql (runQuery's `sql`) for a Web API data source. */
export function httpRequestText(definition: HttpRequestInput): string {
  return JSON.stringify(definition);
}

function namesIn(text: string, into: string[]): void {
  for (const match of text.matchAll(placeholder)) if (match[1] && !into.includes(match[1])) into.push(match[1]);
}

function namesInJson(value: unknown, into: string[]): void {
  if (typeof value === 'string') namesIn(value, into);
  else if (Array.isArray(value)) value.forEach((item) => namesInJson(item, into));
  else if (value !== null && typeof value === 'object') Object.values(value).forEach((item) => namesInJson(item, into));
}

/** The {param} names a request uses, in order of first appearance (path, query, headers, body). */
export function detectTemplateParameters(definition: HttpRequestInput): string[] {
  const names: string[] = [];
  namesIn(definition.path ?? '', names);
  Object.values(definition.query ?? {}).forEach((t) => namesIn(t, names));
  Object.values(definition.headers ?? {}).forEach((t) => namesIn(t, names));
  namesInJson(definition.body, names);
  return names;
}

type Values = Readonly<Record<string, unknown>>;

function invalid(name: string, message: string): EngineError {
  return new EngineError('INVALID_PARAMETERS', undefined, { errors: { [name]: [message] } });
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(valueText).join(',');
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A template split at its placeholders: texts at even indexes, the parameters' names at odd ones. */
type Pieces = readonly string[];

const MAX_PIECES = 2_000;
const piecesByTemplate = new Map<string, Pieces>();

/** The template's pieces, split once: the templates of stored data sources are filled on every call. */
function piecesOf(template: string): Pieces {
  let pieces = piecesByTemplate.get(template);
  if (pieces === undefined) {
    pieces = template.split(placeholder);
    if (piecesByTemplate.size >= MAX_PIECES) piecesByTemplate.clear();
    piecesByTemplate.set(template, pieces);
  }
  return pieces;
}

function interpolate(template: string, values: Values, each: (name: string, value: unknown) => string): string {
  const pieces = piecesOf(template);
  let text = pieces[0]!;
  for (let index = 1; index < pieces.length; index += 2) {
    const name = pieces[index]!;
    text += each(name, values[name]) + pieces[index + 1]!;
  }
  return text;
}

/** The name of a template that is one placeholder and nothing else ("{id}"), else undefined. */
function wholeName(template: string): string | undefined {
  const pieces = piecesOf(template);
  return pieces.length === 3 && pieces[0] === '' && pieces[2] === '' ? pieces[1] : undefined;
}

const formPlain = /^[A-Za-z0-9*._-]*$/;
const formExtras = /[!'()~]|%20/g;
const formReplacements: Record<string, string> = {
  '!': '%21',
  "'": '%27',
  '(': '%28',
  ')': '%29',
  '~': '%7E',
  '%20': '+',
};

/**
 * Text as URLSearchParams writes it (the application/x-www-form-urlencoded serializer): letters, digits and *-._
 * as they are, a space as +, everything else percent-encoded as UTF-8, a lone surrogate as U+FFFD.
 */
export function formEncode(text: string): string {
  if (formPlain.test(text)) return text;
  return encodeURIComponent(text.toWellFormed()).replace(formExtras, (found) => formReplacements[found]!);
}

/** A value put in a query or body text as its text. */
const asText = (_name: string, value: unknown): string => valueText(value);

function encodeSegment(name: string, value: unknown): string {
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0 || items.some((item) => valueText(item) === '')) throw invalid(name, `${name} is required`);
  return items
    .map((item) => {
      const text = valueText(item);
      if (text.split(/[/\\]/).some((segment) => segment === '.' || segment === '..'))
        throw invalid(name, `${name} cannot be . or .. in the path`);
      try {
        return encodeURIComponent(text);
      } catch {
        throw invalid(name, `${name} is not valid text`);
      }
    })
    .join(',');
}

function encodeQueryValue(name: string, value: unknown): string {
  try {
    return encodeURIComponent(valueText(value));
  } catch {
    throw invalid(name, `${name} is not valid text`);
  }
}

function bodyValue(template: unknown, values: Values): unknown {
  if (typeof template === 'string') {
    const whole = wholeName(template);
    if (whole !== undefined) return values[whole] ?? null;
    return interpolate(template, values, asText);
  }
  if (Array.isArray(template)) return template.map((item) => bodyValue(item, values));
  if (template !== null && typeof template === 'object')
    return Object.fromEntries(Object.entries(template).map(([key, item]) => [key, bodyValue(item, values)]));
  return template;
}

export interface BuiltRequest {
  method: HttpMethod;
  url: URL;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: string;
}

/** The base URL's path as a directory ('/v1' → '/v1/'). */
function directoryOf(base: URL): string {
  return base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
}

/** Whether a URL stays on the base URL's origin and under its path. */
export function isUnderBase(url: URL, base: URL): boolean {
  return url.origin === base.origin && (url.pathname === base.pathname || url.pathname.startsWith(directoryOf(base)));
}

function buildUrl(base: URL, definition: HttpRequestDefinition, values: Values): URL {
  const mark = definition.path.indexOf('?');
  const pathTemplate = mark === -1 ? definition.path : definition.path.slice(0, mark);
  let path = interpolate(pathTemplate, values, encodeSegment);
  if (path.charCodeAt(0) === 0x2f) path = path.replace(/^\/+/, '');
  // The template's query pairs, each written as URLSearchParams writes it, after the base URL's own query.
  const pairs: string[] = [];
  const add = (key: string, value: string) => pairs.push(`${formEncode(key)}=${formEncode(value)}`);
  const templateQuery = mark === -1 ? '' : interpolate(definition.path.slice(mark + 1), values, encodeQueryValue);
  if (templateQuery !== '') for (const [key, value] of new URLSearchParams(templateQuery)) add(key, value);
  for (const key in definition.query) {
    const template = definition.query[key]!;
    const whole = wholeName(template);
    const value = whole === undefined ? undefined : values[whole];
    if (whole !== undefined && (value === null || value === undefined)) continue;
    if (whole !== undefined && Array.isArray(value)) for (const item of value) add(key, valueText(item));
    else add(key, interpolate(template, values, asText));
  }
  // The base's query as it is when nothing is added; written again with the additions otherwise.
  let query = base.search;
  if (pairs.length > 0) {
    const own = base.search === '' ? '' : new URLSearchParams(base.search).toString();
    query = `?${own}${own === '' ? '' : '&'}${pairs.join('&')}`;
  }
  const url = new URL(base.origin + (path === '' ? base.pathname : directoryOf(base) + path) + query);
  if (!isUnderBase(url, base))
    throw new EngineError('TARGET_REFUSED', "The request's path leaves the connection's base URL");
  return url;
}

/** The request to send for these typed values: URL under the base URL, headers (defaults first), JSON body. */
export function buildRequest(
  base: URL,
  defaultHeaders: Readonly<Record<string, string>>,
  definition: HttpRequestDefinition,
  values: Values,
): BuiltRequest {
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const [name, value] of Object.entries(defaultHeaders)) headers[name.toLowerCase()] = value;
  for (const [name, template] of Object.entries(definition.headers)) {
    headers[name.toLowerCase()] = interpolate(template, values, (param, value) => {
      const text = valueText(value);
      if (/[\r\n\0]/.test(text)) throw invalid(param, `${param} cannot contain line breaks in a header`);
      return text;
    });
  }
  const built: BuiltRequest = { method: definition.method, url: buildUrl(base, definition, values), headers };
  if (definition.body !== undefined) {
    built.body = JSON.stringify(bodyValue(definition.body, values));
    headers['content-type'] ??= 'application/json';
  }
  return built;
}
