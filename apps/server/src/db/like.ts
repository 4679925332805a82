import { sql, type RawBuilder } from 'kysely';

// The one LIKE helper: a search text matches as a substring, case-insensitively, with `%`, `_` and
// the escape character itself taken literally (both stores honour `escape '\'`).

/** `%text%` with LIKE's wildcards and the escape character escaped, lower-cased. */
export function containsPattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The right-hand side of `lower(column) like …`: the pattern with its escape clause. */
export function likeContains(search: string): RawBuilder<string> {
  return sql<string>`${containsPattern(search)} escape '\\'`;
}
