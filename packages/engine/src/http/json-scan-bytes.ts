// The JSON scan's lexing (json-scan.ts): the bytes it looks for, strings and numbers read as byte ranges with their
// escape and digit checks, byte ranges compared, and the decline that ends a scan which does not answer.

/** Thrown inside the scan when the reply is one it does not answer for: scanRows catches it, nothing else sees it. */
export const DECLINE = Symbol('declined');

export function decline(): never {
  throw DECLINE;
}

export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
export const ZERO = 0x30;
export const NINE = 0x39;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const LINE_FEED = 0x0a;
export const CARRIAGE_RETURN = 0x0d;

/** Bytes that end a run of plain string content: the quote, the backslash and the control characters. */
const STOPS_STRING = new Uint8Array(256);
for (let code = 0; code < 0x20; code += 1) STOPS_STRING[code] = 1;
STOPS_STRING[QUOTE] = 1;
STOPS_STRING[BACKSLASH] = 1;

export const isDigit = (code: number) => code >= ZERO && code <= NINE;
const isHex = (code: number) => isDigit(code) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x66);

/**
 * Reads a string or a number and answers where it ends; what the scan needs to know of the last one besides that is
 * kept on the lexer (one a scan: nothing of a scan outlives it).
 */
export class Lexer {
  /** Whether the last string read had escapes. */
  escaped = false;
  /** Whether the last number read was a plain integer (no fraction, no exponent). */
  simpleInteger = false;

  /** The string whose opening quote is at `pos`: answers where it ends (just past its closing quote). */
  string(data: Buffer, view: DataView, pos: number, end: number): number {
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
    this.escaped = escaped;
    return pos + 1;
  }

  /** -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?: the number that starts at `start`. Answers where it ends. */
  number(data: Buffer, start: number, end: number): number {
    let pos = start;
    if (data[pos] === MINUS) pos += 1;
    const first = data[pos];
    if (first === ZERO) pos += 1;
    else if (first !== undefined && first > ZERO && first <= NINE) while (pos < end && isDigit(data[pos]!)) pos += 1;
    else decline();
    let simple = true;
    if (data[pos] === DOT) {
      simple = false;
      pos = digits(data, pos + 1, end);
    }
    const exponent = data[pos];
    const hasExponent = exponent === 0x65 || exponent === 0x45;
    if (hasExponent) {
      simple = false;
      const sign = data[pos + 1];
      pos = digits(data, sign === PLUS || sign === MINUS ? pos + 2 : pos + 1, end);
    }
    // Two numbers JSON.stringify writes otherwise than their value reads: -0 ("0") and what overflows to Infinity
    // ("null", from an exponent or over 300 digits). Left to the parse.
    if ((data[start] === MINUS && data[start + 1] === ZERO) || hasExponent || pos - start > 300) {
      const value = Number(data.toString('latin1', start, pos));
      if (Object.is(value, -0) || !Number.isFinite(value)) decline();
    }
    this.simpleInteger = simple;
    return pos;
  }
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

/** One digit or more from `pos`; answers where they end. */
function digits(data: Buffer, pos: number, end: number): number {
  if (pos >= end || !isDigit(data[pos]!)) decline();
  let at = pos + 1;
  while (at < end && isDigit(data[at]!)) at += 1;
  return at;
}

/** Whether data[at, at + length) holds the bytes of data[other, other + length): four at a time, then one by one. */
export function sameBytes(data: Buffer, view: DataView, at: number, other: number, length: number): boolean {
  if (at + length > data.length) return false;
  let i = 0;
  for (; i + 4 <= length; i += 4) if (view.getUint32(at + i) !== view.getUint32(other + i)) return false;
  for (; i < length; i += 1) if (data[at + i] !== data[other + i]) return false;
  return true;
}
