// Literals of the languages the snippets are written in (snippets.ts): text, numbers, booleans, lists and names,
// each escaped by that language's own rules. Printable characters are written as they are (so 'Zürich' reads as
// Zürich); control characters, line and paragraph separators, lone surrogates and the invisible or
// direction-changing characters (bidirectional overrides and isolates, zero-width ones) are always escaped, so a
// snippet shows exactly what it sends and no value can hide code from the reader.

export type SnippetScalar = string | number | boolean;
export type SnippetValue = SnippetScalar | readonly SnippetScalar[];

/** Whether a code point may appear as it is inside a quoted literal. */
export function isPlain(codePoint: number): boolean {
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f)) return false;
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return false;
  if (codePoint === 0xad || codePoint === 0x2028 || codePoint === 0x2029 || codePoint === 0xfeff) return false;
  if (codePoint >= 0x200b && codePoint <= 0x200f) return false;
  if (codePoint >= 0x202a && codePoint <= 0x202e) return false;
  if (codePoint >= 0x2060 && codePoint <= 0x2069) return false;
  return true;
}

const hex = (codePoint: number, width: number) => codePoint.toString(16).toUpperCase().padStart(width, '0');

/** Every code point of `text` through `escape` (which answers undefined to keep a character as it is). */
function mapCodePoints(text: string, escape: (char: string, codePoint: number) => string | undefined): string {
  let out = '';
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    out += escape(char, codePoint) ?? char;
  }
  return out;
}

const backslashEscapes: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A JSON string (RFC 8259): also a valid JavaScript string literal. */
export function jsonString(text: string): string {
  const body = mapCodePoints(text, (char, codePoint) => {
    const simple = backslashEscapes[char];
    if (simple) return simple;
    return isPlain(codePoint) ? undefined : `\\u${hex(codePoint, 4)}`;
  });
  return `"${body}"`;
}

/** A JavaScript string literal (double quotes). */
export const jsString = jsonString;

/** A Python 3 string literal (double quotes). */
export function pythonString(text: string): string {
  const body = mapCodePoints(text, (char, codePoint) => {
    const simple = backslashEscapes[char];
    if (simple) return simple;
    if (isPlain(codePoint)) return undefined;
    return codePoint <= 0xff ? `\\x${hex(codePoint, 2)}` : `\\u${hex(codePoint, 4)}`;
  });
  return `"${body}"`;
}

/** An R string literal (double quotes); `\u{…}` takes up to four hex digits, so braces keep it unambiguous. */
export function rString(text: string): string {
  const body = mapCodePoints(text, (char, codePoint) => {
    const simple = backslashEscapes[char];
    if (simple) return simple;
    return isPlain(codePoint) ? undefined : `\\u{${hex(codePoint, 4)}}`;
  });
  return `"${body}"`;
}

const mControlEscapes: Record<string, string> = { '\r': '#(cr)', '\n': '#(lf)', '\t': '#(tab)' };

/** A Power Query M text literal: `""` for a quote, `#(#)(` for the two characters `#(`, `#(XXXX)` for the rest. */
export function mString(text: string): string {
  const chars = [...text];
  const body = chars
    .map((char, index) => {
      if (char === '"') return '""';
      // '#' followed by '(' would start an escape: the '#' is written as the escape of itself.
      if (char === '#' && chars[index + 1] === '(') return '#(#)';
      const control = mControlEscapes[char];
      if (control) return control;
      const codePoint = char.codePointAt(0) ?? 0;
      return isPlain(codePoint) ? char : `#(${hex(codePoint, codePoint > 0xffff ? 8 : 4)})`;
    })
    .join('');
  return `"${body}"`;
}

/**
 * A POSIX shell word that stays one argument: single quotes (nothing is expanded inside), or bash's `$'…'` when the
 * text holds a character that should not appear raw in a terminal.
 */
export function shellWord(text: string): string {
  const isAllPlain = [...text].every((char) => isPlain(char.codePointAt(0) ?? 0));
  if (isAllPlain) return `'${text.replaceAll("'", `'\\''`)}'`;
  const body = mapCodePoints(text, (char, codePoint) => {
    if (char === '\\' || char === "'") return `\\${char}`;
    if (isPlain(codePoint)) return undefined;
    return codePoint <= 0xffff ? `\\u${hex(codePoint, 4)}` : `\\U${hex(codePoint, 8)}`;
  });
  return `$'${body}'`;
}

/** JSON text of `value` with the escaping above (JSON.stringify would leave separators and bidi characters raw). */
export function jsonText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return jsonString(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
  return `{${entries.map(([key, item]) => `${jsonString(key)}:${jsonText(item)}`).join(',')}}`;
}

// Names as keys. Parameter names are identifiers ([A-Za-z_][A-Za-z0-9_]*), but each language reserves some words.

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A key of a JavaScript object literal. */
export const jsKey = (name: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : jsonString(name));

const R_RESERVED = new Set([
  'if',
  'else',
  'repeat',
  'while',
  'function',
  'for',
  'next',
  'break',
  'in',
  'TRUE',
  'FALSE',
  'NULL',
  'Inf',
  'NaN',
  'NA',
  'NA_integer_',
  'NA_real_',
  'NA_character_',
  'NA_complex_',
]);

/** A name in an R argument list: backticks unless it is syntactic (a letter first) and not reserved. */
export function rName(name: string): string {
  if (/^[A-Za-z][A-Za-z0-9._]*$/.test(name) && !R_RESERVED.has(name)) return name;
  return `\`${name.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``;
}

const M_KEYWORDS = new Set(
  'and as each else error false if in is let meta not null or otherwise section shared then true try type'.split(' '),
);

/** A field name of a Power Query M record: bare when a plain identifier, else a quoted identifier `#"…"`. */
export const mName = (name: string) => (IDENTIFIER.test(name) && !M_KEYWORDS.has(name) ? name : `#${mString(name)}`);

/** One line of a comment: anything that could end it or hide text is replaced by a space. */
export const commentText = (text: string) =>
  mapCodePoints(text, (_char, codePoint) => (isPlain(codePoint) ? undefined : ' ')).trim();
