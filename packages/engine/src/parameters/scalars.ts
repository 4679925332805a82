import type { ParameterType } from './schema.ts';

// Turns one raw value (a query-string string or a JSON value) into its typed form, or undefined when it does not
// fit the type. Decimals stay strings (exact); dates stay 'YYYY-MM-DD'; date-times stay ISO 8601 with an offset.

const integerText = /^[+-]?\d+$/;
const decimalText = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const dateText = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateTimeText =
  /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)$/;

function isCalendarDate(text: string): boolean {
  const m = dateText.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function normaliseDecimal(text: string): string {
  let t = text.startsWith('+') ? text.slice(1) : text;
  if (t.startsWith('.')) t = `0${t}`;
  if (t.startsWith('-.')) t = `-0${t.slice(1)}`;
  return t.endsWith('.') ? t.slice(0, -1) : t;
}

export function parseScalar(type: ParameterType, raw: unknown): unknown {
  switch (type) {
    case 'string':
      return typeof raw === 'string' ? raw : undefined;
    case 'integer': {
      if (typeof raw === 'number') return Number.isSafeInteger(raw) ? raw : undefined;
      if (typeof raw !== 'string' || !integerText.test(raw.trim())) return undefined;
      const n = Number(raw.trim());
      return Number.isSafeInteger(n) ? n : undefined;
    }
    case 'decimal': {
      if (typeof raw === 'number') return Number.isFinite(raw) ? String(raw) : undefined;
      if (typeof raw !== 'string' || !decimalText.test(raw.trim())) return undefined;
      return normaliseDecimal(raw.trim());
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      if (typeof raw !== 'string') return undefined;
      const t = raw.trim().toLowerCase();
      return t === 'true' || t === '1' ? true : t === 'false' || t === '0' ? false : undefined;
    }
    case 'date':
      return typeof raw === 'string' && isCalendarDate(raw) ? raw : undefined;
    case 'date-time': {
      if (typeof raw !== 'string') return undefined;
      const m = dateTimeText.exec(raw);
      return m && isCalendarDate(m[1]!) ? raw : undefined;
    }
  }
}

/** Exact comparison of two decimal texts (normalised by parseScalar). */
export function compareDecimal(a: string, b: string): number {
  const split = (t: string) => {
    const negative = t.startsWith('-');
    const [int = '0', frac = ''] = (negative ? t.slice(1) : t).split('.');
    return { negative, int: int.replace(/^0+(?=\d)/, ''), frac: frac.replace(/0+$/, '') };
  };
  const x = split(a);
  const y = split(b);
  const zero = (v: { int: string; frac: string }) => v.int === '0' && v.frac === '';
  if (zero(x)) x.negative = false; // -0 is 0
  if (zero(y)) y.negative = false;
  if (x.negative !== y.negative) return x.negative ? -1 : 1;
  let magnitude = x.int.length - y.int.length;
  if (magnitude === 0) magnitude = x.int < y.int ? -1 : x.int > y.int ? 1 : 0;
  if (magnitude === 0) {
    const width = Math.max(x.frac.length, y.frac.length);
    const fx = x.frac.padEnd(width, '0');
    const fy = y.frac.padEnd(width, '0');
    magnitude = fx < fy ? -1 : fx > fy ? 1 : 0;
  }
  return Math.sign(magnitude) * (x.negative ? -1 : 1);
}

/** Orders two typed values of one parameter type: numbers, exact decimals, dates and instants. */
export function compareValues(type: ParameterType, a: unknown, b: unknown): number {
  if (type === 'decimal') return compareDecimal(String(a), String(b));
  if (type === 'date-time') return Date.parse(String(a)) - Date.parse(String(b));
  if (type === 'date') return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  return Number(a) - Number(b);
}
