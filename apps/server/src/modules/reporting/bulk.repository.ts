import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CompiledQuery, PostgresAdapter, type Kysely } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { postgresPoolOf, type Database } from '../../db/database.ts';
import { SqliteRows } from '../../db/sqlite-dialect.ts';

// Many rows at once on the recording path (plugins/usage.ts through recording.service.ts: a usage record and a log
// record per call; and the rollup keys). Kysely's multi-row VALUES bound thousands of values one by one, cost more CPU
// than the calls being recorded, and made a new statement text for every batch size (SQLite prepares each text anew).
// - PostgreSQL: one statement with ONE bound parameter, the rows as a JSON array of arrays unpacked by
//   json_array_elements: one round trip per table.
// - SQLite (in process, no round trip): a prepared single-row statement stepped once per row in one call
//   (db/sqlite-dialect.ts SqliteRows). A JSON parameter unpacked by json_each cost nearly twice as much per row:
//   SQLite parses the row's JSON text again for every column.
// Either way the statement text depends only on the table and columns, so each is prepared once. Table and
// column names come from fixed lists in code, never from input; every value is bound.
// Rows that are only appended (usage records and call log records) go to PostgreSQL through COPY … FROM STDIN
// instead (copyRows): no JSON for the server to parse, no statement to plan; ~7 µs less PostgreSQL CPU a row
// (decision 120). Values travel as COPY's text format, escaped, never as SQL.

export interface BulkColumn {
  name: string;
  /** PostgreSQL's cast for the JSON text (SQLite takes the JSON value as it is). */
  type: 'text' | 'integer' | 'bigint';
}

/** Statement texts by store kind, table, columns and conflict clause: a handful, built once. */
const texts = new Map<string, string>();

function statementText(postgres: boolean, table: string, columns: readonly BulkColumn[], conflict: string) {
  const names = columns.map((column) => column.name).join(', ');
  const tail = conflict ? ` ${conflict}` : '';
  if (!postgres) return `insert into ${table} (${names}) values (${columns.map(() => '?').join(', ')})${tail}`;
  const values = columns.map((column, i) => `cast(r ->> ${i} as ${column.type})`).join(', ');
  return `insert into ${table} (${names}) select ${values} from json_array_elements(cast($1 as json)) as r${tail}`;
}

/** Inserts `rows` (values in `columns` order) into `table`; `conflict` is an optional ON CONFLICT clause. */
export async function insertRows(
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
  await db.executeQuery(CompiledQuery.raw(text, [postgres ? JSON.stringify(rows) : new SqliteRows(rows)]));
}

const COPY_SPECIAL = /[\\\t\n\r\0]/;
const COPY_SPECIALS = new RegExp(COPY_SPECIAL.source, 'g');
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\uFFFD' };

/** COPY's text format for one value: \N for null, backslash escapes for the characters that end a field or row. */
function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = typeof value === 'string' ? value : String(value);
  // PostgreSQL's text holds no NUL: it becomes U+FFFD rather than failing the batch.
  return COPY_SPECIAL.test(text) ? text.replace(COPY_SPECIALS, (char) => COPY_ESCAPES[char]!) : text;
}

/**
 * Appends `rows` (values in `columns` order) to `table` through COPY … FROM STDIN on `client`, in whatever
 * transaction the caller has open there. PostgreSQL converts each text to its column's type.
 */
export async function copyRows(
  client: pg.PoolClient,
  table: string,
  columns: readonly BulkColumn[],
  rows: readonly unknown[][],
): Promise<void> {
  if (rows.length === 0) return;
  let data = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i += 1) data += (i === 0 ? '' : '\t') + copyField(row[i]);
    data += '\n';
  }
  const names = columns.map((column) => column.name).join(', ');
  await pipeline(Readable.from([data]), client.query(copyFrom(`copy ${table} (${names}) from stdin`)));
}

/** Rows for one table, values in `columns` order. */
export interface TableRows {
  table: string;
  columns: readonly BulkColumn[];
  rows: readonly unknown[][];
}

/**
 * Appends each write's rows to its table, all in one transaction: written together or not at all. PostgreSQL: COPY
 * on one connection of the store's pool; SQLite: prepared inserts stepped once per row.
 */
export async function appendRows(db: Database, writes: Iterable<TableRows>): Promise<void> {
  const pool = postgresPoolOf(db);
  if (!pool) {
    await db.transaction().execute(async (trx) => {
      const bulk = trx as unknown as Kysely<never>;
      for (const { table, columns, rows } of writes) await insertRows(bulk, table, columns, rows);
    });
    return;
  }
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('begin');
    for (const { table, columns, rows } of writes) await copyRows(client, table, columns, rows);
    await client.query('commit');
  } catch (error) {
    // A connection that cannot even roll back is not given back to the pool.
    broken = await client.query('rollback').then(
      () => false,
      () => true,
    );
    throw error;
  } finally {
    client.release(broken);
  }
}
