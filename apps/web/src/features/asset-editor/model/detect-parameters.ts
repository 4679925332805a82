// The `:name` parameters a SQL text uses, in order of first use, as the editor offers them for definition. Quoted
// text, quoted names, comments and PostgreSQL's `::type` casts are skipped, as the engine's binder skips them.

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

function skipQuoted(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i += 1;
  }
  return i;
}

function skipComment(sql: string, i: number): number {
  if (sql.startsWith('--', i)) {
    const end = sql.indexOf('\n', i);
    return end === -1 ? sql.length : end;
  }
  const end = sql.indexOf('*/', i + 2);
  return end === -1 ? sql.length : end + 2;
}

export function detectParameters(sql: string): string[] {
  const names: string[] = [];
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i] ?? '';
    if (ch === "'" || ch === '"' || ch === '`') i = skipQuoted(sql, i, ch);
    else if (sql.startsWith('--', i) || sql.startsWith('/*', i)) i = skipComment(sql, i);
    else if (ch === ':' && sql[i + 1] === ':') i += 2;
    else if (ch === ':') {
      NAME.lastIndex = i + 1;
      const match = NAME.exec(sql);
      if (match && !names.includes(match[0])) names.push(match[0]);
      i = match ? i + 1 + match[0].length : i + 1;
    } else i += 1;
  }
  return names;
}
