import { chmodSync, closeSync, openSync } from 'node:fs';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { SqliteAdapter, SqliteDialect, type DialectAdapter, type SqliteDatabase, type SqliteStatement } from 'kysely';

// Kysely's SQLite dialect speaks to a better-sqlite3-like object; node:sqlite (built into Node 24)
// is close enough that a thin wrapper does it, and there is no native addon to build.

type Param = null | number | bigint | string | NodeJS.ArrayBufferView;

function toSqliteParam(value: unknown): Param {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && !ArrayBuffer.isView(value)) return JSON.stringify(value);
  return value as Param;
}

/**
 * The rows of a single-row statement (`insert … values (?, …)`), passed as its one parameter: the statement runs
 * once per row in this one call (modules/reporting/bulk.repository.ts). A batch of 500 rows then costs 500 steps of the
 * prepared statement, not 500 queries through Kysely, nor a JSON text parsed again for every column.
 */
export class SqliteRows {
  readonly rows: readonly (readonly unknown[])[];
  constructor(rows: readonly (readonly unknown[])[]) {
    this.rows = rows;
  }
}

class NodeSqliteStatement implements SqliteStatement {
  readonly reader: boolean;
  readonly #statement: StatementSync;
  readonly #onRun: (() => void) | undefined;

  /** `onRun`: called each time the statement runs (a write that counts, see WriteCount). */
  constructor(statement: StatementSync, onRun?: () => void) {
    this.#statement = statement;
    this.reader = statement.columns().length > 0;
    this.#onRun = onRun;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    this.#onRun?.();
    return this.#statement.all(...parameters.map(toSqliteParam));
  }

  run(parameters: ReadonlyArray<unknown>) {
    this.#onRun?.();
    const [batch] = parameters;
    if (parameters.length === 1 && batch instanceof SqliteRows) {
      let changes = 0;
      for (const row of batch.rows) changes += Number(this.#statement.run(...row.map(toSqliteParam)).changes);
      return { changes, lastInsertRowid: 0 };
    }
    const { changes, lastInsertRowid } = this.#statement.run(...parameters.map(toSqliteParam));
    return { changes, lastInsertRowid };
  }

  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    this.#onRun?.();
    return this.#statement.iterate(...parameters.map(toSqliteParam));
  }
}

/** Reads and transaction control: they never move the write count (the writes in a transaction do). */
const READING = /^\s*(?:select|begin|commit|rollback|end|savepoint|release)\b/i;
/** Writes to the recording's tables (every call makes them): they change nothing a definition is made of. */
const RECORDING = /^\s*(?:insert\s+into|update|delete\s+from)\s+"?(?:usage_\w+|application_logs)"?[\s(]/i;

/**
 * How many statements that may change the store's content (anything but reads and the recording's tables) ran on
 * this process's connection. The embedded store is locked to this process (locking_mode EXCLUSIVE): while the count
 * stays the same, nothing another query could read has changed — the calling layer then reuses a loaded asset
 * definition without reading its stamp (modules/calling/definitions.ts). A write that rolls back counts too.
 */
export class WriteCount {
  value = 0;
  /** Whether statements of this text move the count. */
  static counts(sql: string): boolean {
    return !READING.test(sql) && !RECORDING.test(sql);
  }
}

/** Statements are prepared once per distinct SQL text; the application's queries are a small, fixed set. */
const STATEMENT_CACHE_MAX = 500;

class NodeSqliteDatabase implements SqliteDatabase {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, NodeSqliteStatement>();
  readonly #writes: WriteCount;
  readonly #countWrite = () => {
    this.#writes.value += 1;
  };

  constructor(db: DatabaseSync, writes: WriteCount) {
    this.#db = db;
    this.#writes = writes;
  }

  prepare(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = new NodeSqliteStatement(this.#db.prepare(sql), WriteCount.counts(sql) ? this.#countWrite : undefined);
      if (this.#statements.size >= STATEMENT_CACHE_MAX) this.#statements.clear();
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  close(): void {
    this.#statements.clear();
    if (this.#db.isOpen) this.#db.close();
  }
}

/** SQLite runs DDL inside transactions, so a failed migration rolls back whole. */
class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class NodeSqliteDialect extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new TransactionalSqliteAdapter();
  }
}

/** The store file is readable by its owner only (0600); SQLite gives its WAL the same mode. */
function createPrivateFile(file: string) {
  if (file === ':memory:' || file.startsWith('file:')) return;
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

export function createSqliteDialect(file: string, writes = new WriteCount()): SqliteDialect {
  createPrivateFile(file);
  const db = new DatabaseSync(file);
  // One process owns the embedded store: take the file lock once, not at every statement. Set
  // before WAL, so the WAL index lives in memory instead of a shared-memory file.
  db.exec('PRAGMA locking_mode = EXCLUSIVE');
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA busy_timeout = 5000');
  // Recording appends a batch of calls every second or so, rewriting the same index pages: checkpointing every
  // 10,000 pages (~40 MB of WAL) instead of 1,000, with a 4 MB page cache instead of 2, writes each page back
  // less often (the inserts of a recorded call ~16–20 → ~11 µs; decision 120).
  db.exec('PRAGMA wal_autocheckpoint = 10000');
  db.exec('PRAGMA cache_size = -4096');
  return new NodeSqliteDialect({ database: new NodeSqliteDatabase(db, writes) });
}
