// A write refused by a unique constraint, on either store: PostgreSQL's unique_violation (23505, naming the
// constraint) or SQLite's SQLITE_CONSTRAINT_UNIQUE (2067, naming the columns in its message). Services turn it into
// a 409, which also covers two creations at the same instant that both passed a read-before-write check.

export interface UniqueConstraint {
  /** The start of the PostgreSQL constraint's (or unique index's) name. */
  postgres: string;
  /** The start of what SQLite lists after "UNIQUE constraint failed: " (table.column, …). */
  sqlite: string;
}

export function isUniqueViolation(error: unknown, constraint: UniqueConstraint): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; constraint?: unknown; errcode?: unknown; message?: unknown };
  if (e.code === '23505') return typeof e.constraint === 'string' && e.constraint.startsWith(constraint.postgres);
  const message = typeof e.message === 'string' ? e.message : '';
  return e.errcode === 2067 && message.includes(`UNIQUE constraint failed: ${constraint.sqlite}`);
}
