import { CompiledQuery, type Compilable } from 'kysely';
import type { Database } from './database.ts';

// A query on a hot path (read on every request) compiled once per store instead of built each time:
// `build` writes it with sample values, whose places the real values then take, in the same order.
// Still a bound-parameter query; only Kysely's building and compiling are skipped.
export function preparedQuery<Args extends readonly unknown[], Row>(
  build: (db: Database, ...sample: Args) => Compilable<Row>,
  sample: Args,
) {
  const compiled = new WeakMap<Database, string>();
  return async (db: Database, ...args: Args): Promise<Row[]> => {
    let sql = compiled.get(db);
    if (sql === undefined) {
      const query = build(db, ...sample).compile();
      if (query.parameters.length !== args.length) throw new Error('preparedQuery: one sample value per parameter');
      sql = query.sql;
      compiled.set(db, sql);
    }
    const result = await db.executeQuery<Row>(CompiledQuery.raw(sql, [...args]));
    return result.rows;
  };
}
