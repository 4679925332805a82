import { contentTypes, formats, type Format } from '@datalab/engine';
import { messages } from '@datalab/contract/messages';
import { invalid } from '../../lib/errors.ts';

// Which format a call answers in, and the file name it is offered under. `format=` in the query string wins;
// otherwise the Accept header (quality values honoured); JSON when neither names a format the layer writes.

const mediaTypes: Record<string, Format> = {
  'application/json': 'json',
  'text/csv': 'csv',
  'application/x-ndjson': 'ndjson',
  'application/ndjson': 'ndjson',
  'application/jsonl': 'ndjson',
  [contentTypes.xlsx]: 'xlsx',
};

function isFormat(value: string): value is Format {
  return (formats as readonly string[]).includes(value);
}

/** The format from Accept: the acceptable media type of highest quality the layer writes (first wins a tie). */
function fromAccept(accept: string | undefined): Format | undefined {
  if (!accept) return undefined;
  let best: { format: Format; quality: number } | undefined;
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const qParam = params.find((param) => param.startsWith('q='));
    const quality = qParam ? Number(qParam.slice(2)) : 1;
    const format = mediaTypes[type];
    if (!format || !(quality > 0)) continue;
    if (!best || quality > best.quality) best = { format, quality };
  }
  return best?.format;
}

/** The reply's format; an unknown `format=` value is a 400 on that field. */
export function negotiateFormat(queryFormat: unknown, accept: string | undefined): Format {
  if (queryFormat !== undefined) {
    const value = Array.isArray(queryFormat) ? String(queryFormat[0]) : String(queryFormat);
    const lower = value.toLowerCase();
    if (!isFormat(lower)) throw invalid('format', messages.unsupportedType(value));
    return lower;
  }
  return fromAccept(accept) ?? 'json';
}

/** The trailer an export ends with, for a client that accepts trailers: `true` when the rows stopped at the limit. */
export const TRUNCATED_TRAILER = 'Data-Lab-Truncated';

/** Whether the request's TE header accepts trailers (RFC 9110 §10.1.4: `TE: trailers`, among other codings). */
export function acceptsTrailers(te: string | string[] | undefined): boolean {
  if (!te) return false;
  return (Array.isArray(te) ? te.join(',') : te)
    .split(',')
    .some((part) => part.split(';')[0]?.trim().toLowerCase() === 'trailers');
}

const MAX_SLUG = 80;

/** Lower-case words of letters and digits joined by '-'; `ascii` also drops accents and other scripts. */
export function slug(name: string, ascii: boolean): string {
  const base = ascii ? name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '') : name.normalize('NFC');
  const words = ascii ? base.toLowerCase().match(/[a-z0-9]+/g) : base.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  return (words ?? []).join('-').slice(0, MAX_SLUG).replace(/-+$/, '');
}

const DAY_MS = 86_400_000;
let day = { text: '', endsAt: 0 };

/** Today's date (UTC, YYYY-MM-DD), made again only when the day is over. */
function today(): string {
  const now = Date.now();
  if (now >= day.endsAt) {
    const start = now - (now % DAY_MS);
    day = { text: new Date(start).toISOString().slice(0, 10), endsAt: start + DAY_MS };
  }
  return day.text;
}

/** Dispositions computed once per name, format and day: normalising and matching Unicode costs more than the rest of a cached call. */
const dispositions = new Map<string, string>();
const MAX_DISPOSITIONS = 1_000;

/**
 * Content-Disposition (RFC 6266) for an asset's result: an ASCII `filename` every client reads, and `filename*`
 * (RFC 8187, UTF-8) keeping the name's own letters. Only letters, digits, '-' and '.' ever reach either, so no
 * quote, path separator or header break can be smuggled through an asset's name.
 */
export function contentDisposition(assetName: string, format: Format, at?: Date): string {
  const date = at ? at.toISOString().slice(0, 10) : today();
  const key = `${format}\u0000${date}\u0000${assetName}`;
  const known = dispositions.get(key);
  if (known !== undefined) return known;
  const value = disposition(assetName, format, date);
  if (dispositions.size >= MAX_DISPOSITIONS) dispositions.clear();
  dispositions.set(key, value);
  return value;
}

function disposition(assetName: string, format: Format, date: string): string {
  const ascii = `${slug(assetName, true) || 'data'}-${date}.${format}`;
  const unicode = `${slug(assetName, false) || 'data'}-${date}.${format}`;
  const kind = format === 'json' ? 'inline' : 'attachment';
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(unicode)}`;
}
