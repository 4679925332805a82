import { DatabaseSync, type StatementSync, constants } from 'node:sqlite';
import { EngineError, abortError } from '../errors.ts';
import { bindNamed } from '../sql/bind.ts';
import type {
  Column,
  ColumnType,
  ConnectionTestResult,
  Connector,
  Row,
  RowStream,
  RunRequest,
  SchemaTable,
} from '../types.ts';
import { Gate } from './gate.ts';
import { runControl } from './run-control.ts';
import { type SqliteSettings, sqliteSettingsSchema } from './settings.ts';

// SQLite through node:sqlite, opened read-only (a write fails in SQLite itself), ATTACH refused by an authorizer.
// node:sqlite is synchronous and has no interrupt here, so the time limit is checked between rows and the
// iteration yields to the event loop every batch; one long step (a big sort) cannot be stopped midway.

const YIELD_EVERY = 500;

function affinity(declared: string | null): ColumnType | undefined {
  if (!declared) return undefined;
  const t = declared.toUpperCase();
  if (t.includes('BOOL')) return 'boolean';
  if (t.includes('INT')) return 'integer';
  if (t.includes('DATETIME') || t.includes('TIMESTAMP')) return 'datetime';
  if (t.includes('DATE')) return 'date';
  if (t.includes('JSON')) return 'json';
  if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'string';
  if (t.includes('BLOB')) return 'binary';
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB') || t.includes('NUM') || t.includes('DEC'))
    return 'decimal';
  return 'string';
}

function typeOfValue(value: unknown): ColumnType {
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'decimal';
  if (typeof value === 'bigint') return 'integer';
  if (value instanceof Uint8Array) return 'binary';
  return 'string';
}

function mapSqliteError(error: unknown): EngineError {
  if (error instanceof EngineError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/readonly database|read-only/i.test(message))
    return new EngineError('WRITE_REFUSED', undefined, { cause: error });
  if (/syntax error|incomplete input/i.test(message))
    return new EngineError('SYNTAX', `The query has a syntax error: ${message}`, { cause: error });
  if (/unable to open|not a database|cannot open/i.test(message))
    return new EngineError('UNREACHABLE', undefined, { cause: error });
  if (/not authorized/i.test(message)) return new EngineError('WRITE_REFUSED', undefined, { cause: error });
  return new EngineError('QUERY_FAILED', `The query failed: ${message}`, { cause: error });
}

export function createSqliteConnector(input: SqliteSettings): Connector {
  const settings = sqliteSettingsSchema.parse(input);
  const gate = new Gate({ size: settings.maxConnections, acquireTimeoutMs: settings.acquireTimeoutMs });
  const idle: DatabaseSync[] = [];
  const all = new Set<DatabaseSync>();

  function open(): DatabaseSync {
    const reused = idle.pop();
    if (reused) return reused;
    try {
      const db = new DatabaseSync(settings.path, { readOnly: true, timeout: settings.connectTimeoutMs });
      db.setAuthorizer((action) => (action === constants.SQLITE_ATTACH ? constants.SQLITE_DENY : constants.SQLITE_OK));
      all.add(db);
      return db;
    } catch (error) {
      throw new EngineError('UNREACHABLE', undefined, { cause: error });
    }
  }

  async function run(request: RunRequest): Promise<RowStream> {
    const bound = bindNamed(request.sql, request.values, 'sqlite');
    const control = runControl(request.timeoutMs, request.signal);
    let releaseGate: (() => void) | undefined;
    let db: DatabaseSync | undefined;
    let iterator: Iterator<Record<string, unknown>>;
    let columns: Column[];
    let first: IteratorResult<Record<string, unknown>>;
    try {
      releaseGate = await gate.acquire(control.signal);
      request.onAcquired?.();
      db = open();
      const statement: StatementSync = db.prepare(bound.sql);
      iterator = statement.iterate(...(bound.values.map(toSqlite) as [])) as Iterator<Record<string, unknown>>;
      first = iterator.next();
      const sample = first.done ? undefined : first.value;
      columns = statement
        .columns()
        .map((c) => ({ name: c.name, type: affinity(c.type) ?? typeOfValue(sample?.[c.name]) }));
    } catch (error) {
      if (db) idle.push(db);
      releaseGate?.();
      control.dispose();
      throw mapSqliteError(error);
    }
    const connection = db;
    const release = releaseGate;
    let finished = false;
    // Idempotent; also run on timeout or abort, so an abandoned iteration cannot keep its handle.
    const finish = () => {
      if (finished) return;
      finished = true;
      control.signal.removeEventListener('abort', finish);
      iterator.return?.();
      idle.push(connection);
      release();
      control.dispose();
    };
    control.signal.addEventListener('abort', finish, { once: true });
    async function* rows(): AsyncGenerator<Row> {
      try {
        let next = first;
        let count = 0;
        while (!next.done) {
          yield { ...next.value };
          count += 1;
          if (count % YIELD_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve));
          if (control.signal.aborted || finished) throw abortError(control.signal);
          next = iterator.next();
        }
      } catch (error) {
        throw mapSqliteError(error);
      } finally {
        finish();
      }
    }
    return { columns, rows: rows(), close: async () => finish() };
  }

  async function testConnection(): Promise<ConnectionTestResult> {
    const stream = await run({ sql: 'select sqlite_version() as v', values: {}, timeoutMs: 5_000 });
    let version = '';
    for await (const row of stream.rows) version = String(row['v']);
    return { ok: true, serverVersion: `SQLite ${version}`, warnings: [] };
  }

  async function listSchema(): Promise<SchemaTable[]> {
    const stream = await run({
      sql: `select m.name as t, p.name as c, p.type as type from sqlite_schema m join pragma_table_info(m.name) p
             where m.type in ('table', 'view') and m.name not like 'sqlite_%' order by m.name, p.cid`,
      values: {},
      timeoutMs: 10_000,
    });
    const tables = new Map<string, SchemaTable>();
    for await (const row of stream.rows) {
      const name = String(row['t']);
      let table = tables.get(name);
      if (!table) tables.set(name, (table = { schema: null, name, columns: [] }));
      table.columns.push({ name: String(row['c']), type: String(row['type'] ?? '') });
    }
    return [...tables.values()];
  }

  return {
    kind: 'sqlite',
    run,
    testConnection,
    listSchema,
    stats: () => ({ size: gate.size, inUse: gate.inUse, waiting: gate.waiting }),
    close: async () => {
      for (const db of all) db.close();
      all.clear();
      idle.length = 0;
    },
  };
}

/** node:sqlite binds numbers, strings, bigints, buffers and null; booleans become 0/1. */
function toSqlite(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined) return null;
  return value;
}
