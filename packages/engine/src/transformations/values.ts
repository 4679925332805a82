import { createHash } from 'node:crypto';
import { compareDecimal, parseScalar } from '../parameters/scalars.ts';
import type { ColumnType } from '../types.ts';

// Value helpers for the rules: ordering, casting, masking and formatting of single cells.

const decimalText = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

function numericText(value: unknown): string | undefined {
  if (typeof value === 'number')
    return /e/i.test(String(value)) ? undefined : (parseScalar('decimal', value) as string);
  return typeof value === 'string' ? (parseScalar('decimal', value) as string | undefined) : undefined;
}

/** Orders two cells: nulls last, numbers and numeric text numerically (exactly for decimal text), else as text. */
export function compareCells(a: unknown, b: unknown): number {
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' || typeof b === 'boolean')
    return Number(a === true || a === 'true') - Number(b === true || b === 'true');
  const x = numericText(a);
  const y = numericText(b);
  if (x !== undefined && y !== undefined) return compareDecimal(x, y);
  if (typeof a === 'number' || typeof b === 'number') return Number(a) - Number(b) || 0;
  const p = String(a);
  const q = String(b);
  return p < q ? -1 : p > q ? 1 : 0;
}

export function castCell(value: unknown, to: ColumnType): unknown {
  if (value === null || value === undefined) return null;
  switch (to) {
    case 'string':
      if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
    case 'integer': {
      const n = typeof value === 'boolean' ? Number(value) : Number(value);
      return Number.isFinite(n) ? Math.trunc(n) : null;
    }
    case 'decimal': {
      if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
      const t = String(value).trim();
      return decimalText.test(t) ? t : null;
    }
    case 'boolean': {
      if (typeof value === 'boolean') return value;
      if (typeof value === 'number') return value !== 0;
      const t = String(value).trim().toLowerCase();
      return ['true', '1', 'yes', 't', 'y'].includes(t)
        ? true
        : ['false', '0', 'no', 'f', 'n'].includes(t)
          ? false
          : null;
    }
    case 'date': {
      const t = String(value);
      return /^\d{4}-\d{2}-\d{2}/.test(t) ? t.slice(0, 10) : null;
    }
    case 'datetime': {
      const t = String(value);
      return Number.isNaN(Date.parse(t)) ? null : t;
    }
    default:
      return value;
  }
}

export function maskCell(
  value: unknown,
  rule: { mode: 'full' | 'partial' | 'hash'; keepFirst: number; keepLast: number; maskChar: string; salt: string },
): unknown {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (rule.mode === 'hash') return createHash('sha256').update(rule.salt).update(text).digest('hex');
  // Full masking hides the length too.
  if (rule.mode === 'full') return rule.maskChar.repeat(8);
  const chars = [...text];
  if (rule.keepFirst + rule.keepLast >= chars.length) return rule.maskChar.repeat(chars.length);
  const middle = chars.length - rule.keepFirst - rule.keepLast;
  return (
    chars.slice(0, rule.keepFirst).join('') +
    rule.maskChar.repeat(middle) +
    chars.slice(chars.length - rule.keepLast).join('')
  );
}

export function formatDate(value: unknown, pattern: string): string | null {
  if (value === null || value === undefined) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(String(value));
  if (!m) return null;
  const parts: Record<string, string> = {
    YYYY: m[1]!,
    MM: m[2]!,
    DD: m[3]!,
    HH: m[4] ?? '00',
    mm: m[5] ?? '00',
    ss: m[6] ?? '00',
  };
  return pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => parts[token]!);
}

/** Number formatting on the decimal text, so rounding is exact (half away from zero). */
export function formatNumber(
  value: unknown,
  options: { decimals?: number; thousandsSeparator: string; decimalSeparator: string },
): string | null {
  if (value === null || value === undefined || value === '') return null;
  let text = typeof value === 'number' ? String(value) : String(value).trim();
  if (/e/i.test(text) && typeof value === 'number') text = value.toFixed(20).replace(/0+$/, '');
  if (!decimalText.test(text)) return null;
  const negative = text.startsWith('-');
  let [int = '0', frac = ''] = text.replace(/^[+-]/, '').split('.');
  if (options.decimals !== undefined) [int, frac] = roundDecimal(int || '0', frac, options.decimals);
  int = int.replace(/^0+(?=\d)/, '') || '0';
  const grouped = options.thousandsSeparator ? groupThousands(int, options.thousandsSeparator) : int;
  const sign = negative && /[1-9]/.test(int + frac) ? '-' : '';
  return sign + grouped + (frac ? options.decimalSeparator + frac : '');
}

/**
 * Digits in threes from the right. A loop, not the usual `\B(?=(\d{3})+(?!\d))` replace: that regex reads the
 * rest of the digits again at every position, quadratic in a cell's length (a second for 30,000 digits).
 */
function groupThousands(digits: string, separator: string): string {
  const head = digits.length % 3 || 3;
  let grouped = digits.slice(0, head);
  for (let at = head; at < digits.length; at += 3) grouped += separator + digits.slice(at, at + 3);
  return grouped;
}

function roundDecimal(int: string, frac: string, decimals: number): [string, string] {
  const padded = frac.padEnd(decimals + 1, '0');
  const kept = padded.slice(0, decimals);
  if (Number(padded[decimals]) < 5) return [int, kept];
  // Carry one into int.kept.
  const digits = (int + kept).split('').map(Number);
  let i = digits.length - 1;
  while (i >= 0) {
    if (digits[i]! < 9) {
      digits[i]! += 1;
      break;
    }
    digits[i] = 0;
    i -= 1;
  }
  const all = (i < 0 ? '1' : '') + digits.join('');
  return [all.slice(0, all.length - decimals), all.slice(all.length - decimals)];
}
