import { EngineError } from '../errors.ts';

// A small scanner for SQL text: it finds `:name` placeholders and statement ends while skipping everything that
// is data or a name — string literals, quoted identifiers, comments, PostgreSQL `::casts` and dollar quotes.

export type Dialect = 'postgres' | 'mysql' | 'sqlite';

export type Segment = { kind: 'text'; text: string } | { kind: 'param'; name: string };

interface DialectRules {
  backslashEscapes: boolean; // mysql: '\'' is an escaped quote inside every string
  hashComments: boolean; // mysql: '#' starts a comment
  dollarQuotes: boolean; // postgres: $tag$ ... $tag$
  nestedComments: boolean; // postgres: /* /* */ */
  bracketIdentifiers: boolean; // sqlite: [name]
}

const rules: Record<Dialect, DialectRules> = {
  postgres: {
    backslashEscapes: false,
    hashComments: false,
    dollarQuotes: true,
    nestedComments: true,
    bracketIdentifiers: false,
  },
  mysql: {
    backslashEscapes: true,
    hashComments: true,
    dollarQuotes: false,
    nestedComments: false,
    bracketIdentifiers: false,
  },
  sqlite: {
    backslashEscapes: false,
    hashComments: false,
    dollarQuotes: false,
    nestedComments: false,
    bracketIdentifiers: true,
  },
};

const identStart = /[A-Za-z_]/;
const identPart = /[A-Za-z0-9_]/;

/** Index just past a quoted run that starts at `start` (the opening quote), doubling the quote to escape it. */
function skipQuoted(sql: string, start: number, close: string, backslash: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    const ch = sql[i];
    if (backslash && ch === '\\') {
      i += 2;
      continue;
    }
    if (ch === close) {
      if (sql[i + 1] === close && close !== ']') {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i += 1;
  }
  throw new EngineError('SYNTAX', 'The query has an unterminated quoted string or identifier');
}

function skipBlockComment(sql: string, start: number, nested: boolean): number {
  let depth = 1;
  let i = start + 2;
  while (i < sql.length) {
    if (nested && sql.startsWith('/*', i)) {
      depth += 1;
      i += 2;
    } else if (sql.startsWith('*/', i)) {
      depth -= 1;
      i += 2;
      if (depth === 0) return i;
    } else i += 1;
  }
  throw new EngineError('SYNTAX', 'The query has an unterminated comment');
}

function skipLineComment(sql: string, start: number): number {
  const end = sql.indexOf('\n', start);
  return end === -1 ? sql.length : end + 1;
}

/** `$tag$` at i (tag may be empty, never starting with a digit) → index past the closing tag, or -1. */
function skipDollarQuote(sql: string, i: number): number {
  const match = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i, i + 64));
  if (!match) return -1;
  const tag = match[0];
  const end = sql.indexOf(tag, i + tag.length);
  if (end === -1) throw new EngineError('SYNTAX', 'The query has an unterminated dollar-quoted string');
  return end + tag.length;
}

/** Where a comment or literal that starts at i ends, or -1 when nothing to skip starts there. */
function skipNonCode(sql: string, i: number, r: DialectRules): number {
  const ch = sql[i]!;
  const prev = i > 0 ? sql[i - 1]! : '';
  if (ch === "'") {
    // PostgreSQL E'...' strings take backslash escapes.
    const eString = r.dollarQuotes && (prev === 'E' || prev === 'e') && !identPart.test(sql[i - 2] ?? '');
    return skipQuoted(sql, i, "'", r.backslashEscapes || eString);
  }
  if (ch === '"') return skipQuoted(sql, i, '"', r.backslashEscapes);
  if (ch === '`' && !r.dollarQuotes) return skipQuoted(sql, i, '`', false);
  if (ch === '[' && r.bracketIdentifiers) return skipQuoted(sql, i, ']', false);
  if (ch === '-' && sql[i + 1] === '-') return skipLineComment(sql, i);
  if (ch === '#' && r.hashComments) return skipLineComment(sql, i);
  if (ch === '/' && sql[i + 1] === '*') return skipBlockComment(sql, i, r.nestedComments);
  if (ch === '$' && r.dollarQuotes && !identPart.test(prev)) return skipDollarQuote(sql, i);
  return -1;
}

/** Only whitespace and comments from i to the end? */
function onlyTrivia(sql: string, from: number, r: DialectRules): boolean {
  let i = from;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (/\s/.test(ch) || ch === ';') i += 1;
    else if ((ch === '-' && sql[i + 1] === '-') || (ch === '#' && r.hashComments)) i = skipLineComment(sql, i);
    else if (ch === '/' && sql[i + 1] === '*') i = skipBlockComment(sql, i, r.nestedComments);
    else return false;
  }
  return true;
}

/**
 * Splits SQL into text and `:name` placeholders. Refuses a second statement; drops a trailing `;`.
 */
export function scanSql(sql: string, dialect: Dialect): Segment[] {
  const r = rules[dialect];
  const segments: Segment[] = [];
  let textStart = 0;
  let i = 0;
  const pushText = (end: number) => {
    if (end > textStart) segments.push({ kind: 'text', text: sql.slice(textStart, end) });
  };
  while (i < sql.length) {
    const skipped = skipNonCode(sql, i, r);
    if (skipped !== -1) {
      i = skipped;
      continue;
    }
    const ch = sql[i]!;
    if (ch === ';') {
      if (!onlyTrivia(sql, i + 1, r)) throw new EngineError('MULTIPLE_STATEMENTS');
      pushText(i);
      return segments;
    }
    if (ch === ':' && sql[i + 1] === ':') {
      i += 2; // a PostgreSQL cast: the name after it is a type
      continue;
    }
    if (ch === ':' && identStart.test(sql[i + 1] ?? '') && !identPart.test(sql[i - 1] ?? '')) {
      let end = i + 2;
      while (end < sql.length && identPart.test(sql[end]!)) end += 1;
      pushText(i);
      segments.push({ kind: 'param', name: sql.slice(i + 1, end) });
      textStart = end;
      i = end;
      continue;
    }
    i += 1;
  }
  pushText(sql.length);
  return segments;
}

/** The placeholder names in order of first appearance, for the editor. Dialect-neutral rules unless given. */
export function detectParameters(sql: string, dialect: Dialect = 'postgres'): string[] {
  const names = new Set<string>();
  for (const segment of scanSql(sql, dialect)) if (segment.kind === 'param') names.add(segment.name);
  return [...names];
}

/** The SQL with every literal, quoted identifier and comment replaced by a space: only the code is left. */
export function codeText(sql: string, dialect: Dialect): string {
  const r = rules[dialect];
  let code = '';
  let i = 0;
  while (i < sql.length) {
    const skipped = skipNonCode(sql, i, r);
    if (skipped === -1) {
      code += sql[i];
      i += 1;
    } else {
      code += ' ';
      i = skipped;
    }
  }
  return code;
}

/** Which quote opens a quoted identifier (rather than a string) in each dialect. */
const identifierQuotes: Record<Dialect, string> = { postgres: '"', mysql: '`', sqlite: '"`[' };

/**
 * Like codeText, but a quoted identifier is kept as the plain name it stands for (`"pg_read_file"` → pg_read_file),
 * so a check for function names sees a name however it was quoted.
 */
export function codeWithNames(sql: string, dialect: Dialect): string {
  const r = rules[dialect];
  let code = '';
  let i = 0;
  while (i < sql.length) {
    const skipped = skipNonCode(sql, i, r);
    if (skipped === -1) {
      code += sql[i];
      i += 1;
      continue;
    }
    const open = sql[i]!;
    if (identifierQuotes[dialect].includes(open) && skipped - i >= 2) {
      const close = open === '[' ? ']' : open;
      const inner = sql.slice(i + 1, skipped - 1);
      code += ` ${close === ']' ? inner : inner.split(close + close).join(close)} `;
    } else code += ' ';
    i = skipped;
  }
  return code;
}
