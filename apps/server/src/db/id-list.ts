import { PostgresAdapter, sql, type Expression, type SqlBool } from 'kysely';
import type { Database } from './database.ts';

// `column IN (ids)` bound as one parameter however many ids there are: a PostgreSQL array, or a
// JSON array read by SQLite's json_each. Building and binding hundreds of separate parameters
// costs more than the query itself.
export function inIdList(db: Database, column: string, ids: readonly number[]): Expression<SqlBool> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    return sql<SqlBool>`${sql.ref(column)} = any(${[...ids]}::int[])`;
  }
  return sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(ids)}))`;
}
