import { CompiledQuery, PostgresAdapter, type Kysely } from 'kysely';

// Many rows in one statement with ONE bound parameter: the rows as a JSON array of arrays, unpacked by the store
// (PostgreSQL json_array_elements, SQLite json_each). This runs on the recording path (plugins/usage.ts: a usage
// record, a log record and 8 rollup keys per call): binding thousands of values one by one cost more CPU than
// the calls being recorded, and every batch size made a new statement text (SQLite prepares each text anew).
// The statement text depends only on the table and columns, so each is prepared once. Table and column names
// come from fixed lists in code, never from input; every value travels inside the bound parameter.

export interface BulkColumn {
  name: string;
  /** PostgreSQL's cast for the JSON text (SQLite takes the JSON value as it is). */
  type: 'text' | 'integer' | 'bigint';
}

/** Statement texts by store kind, table, columns and conflict clause: a handful, built once. */
const texts = new Map<string, string>();

function statementText(postgres: boolean, table: string, columns: readonly BulkColumn[], conflict: string) {
  const names = columns.map((column) => column.name).join(', ');
  const values = postgres
    ? columns.map((column, i) => `cast(r ->> ${i} as ${column.type})`).join(', ')
    : columns.map((_, i) => `r.value ->> ${i}`).join(', ');
  const from = postgres ? 'json_array_elements(cast($1 as json)) as r' : 'json_each(?) as r where true';
  // SQLite needs the WHERE before ON CONFLICT to parse an upsert from a SELECT.
  return `insert into ${table} (${names}) select ${values} from ${from}${conflict ? ` ${conflict}` : ''}`;
}

/** Inserts `rows` (values in `columns` order) into `table`; `conflict` is an optional ON CONFLICT clause. */
export async function insertJsonRows(
  db: Kysely<never>,
  table: string,
  columns: readonly BulkColumn[],
  rows: readonly unknown[][],
  conflict = '',
): Promise<void> {
  if (rows.length === 0) return;
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const key = `${postgres}\u0000${table}\u0000${columns.map((c) => c.name).join(',')}\u0000${conflict}`;
  let text = texts.get(key);
  if (text === undefined) texts.set(key, (text = statementText(postgres, table, columns, conflict)));
  await db.executeQuery(CompiledQuery.raw(text, [JSON.stringify(rows)]));
}
