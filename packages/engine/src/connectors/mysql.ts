import mysql from 'mysql2';
import { EngineError } from '../errors.ts';
import { bindNamed } from '../sql/bind.ts';
import type { Column, ConnectionTestResult, Connector, Row, RowStream, RunRequest, SchemaTable } from '../types.ts';
import { raceAbort } from './abort.ts';
import { accountCheck, allowedAccountWarning } from './account.ts';
import { Gate } from './gate.ts';
import { mysqlFindings } from './mysql-account.ts';
import { mapMysqlError, mysqlColumnType, normaliseMysqlValue } from './mysql-support.ts';
import { groupSchema } from './postgres.ts';
import { type RunControl, runControl } from './run-control.ts';
import { type MysqlSettings, mysqlSettingsSchema } from './settings.ts';

// MySQL/MariaDB: a bounded mysql2 pool behind a Gate, multipleStatements and LOCAL INFILE off; each run in
// START TRANSACTION READ ONLY with the server's statement time limit, ended with ROLLBACK; rows streamed with
// backpressure. The pool's account is checked before its first run and every minute after (account.ts).

type Connection = mysql.PoolConnection;

function call<T>(connection: Connection, sql: string, values: unknown[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    connection.query(sql, values, (error, result) => (error ? reject(error) : resolve(result as T)));
  });
}

export function createMysqlConnector(input: MysqlSettings): Connector {
  const settings = mysqlSettingsSchema.parse(input);
  const connectionOptions: mysql.ConnectionOptions = {
    host: settings.host,
    port: settings.port ?? 3306,
    database: settings.database,
    user: settings.user,
    password: settings.password,
    ssl: settings.ssl ? { rejectUnauthorized: true } : undefined,
    connectTimeout: settings.connectTimeoutMs,
    multipleStatements: false,
    flags: ['-LOCAL_FILES'],
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    ...(settings.guard ? { stream: settings.guard.mysqlStream } : {}),
  };
  const pool = mysql.createPool({
    ...connectionOptions,
    connectionLimit: settings.maxConnections,
    queueLimit: settings.maxConnections * 4,
  });
  pool.on('connection', (connection) => connection.on('error', () => undefined));
  const gate = new Gate({ size: settings.maxConnections, acquireTimeoutMs: settings.acquireTimeoutMs });
  let flavour: Promise<'mariadb' | 'mysql'> | undefined;

  async function kill(threadId: number | null): Promise<void> {
    if (!threadId) return;
    const connection = mysql.createConnection(connectionOptions);
    await new Promise<void>((resolve) => connection.query('KILL QUERY ?', [threadId], () => resolve()));
    connection.destroy();
  }

  async function lease(timeoutMs: number, signal: AbortSignal | undefined, onAcquired?: () => void) {
    const control: RunControl = runControl(timeoutMs, signal);
    let releaseGate: (() => void) | undefined;
    let connection: Connection | undefined;
    try {
      releaseGate = await gate.acquire(control.signal);
      onAcquired?.();
      const connecting = new Promise<Connection>((resolve, reject) =>
        pool.getConnection((e, c) => (e ? reject(e) : resolve(c))),
      );
      connection = await raceAbort(connecting, control.signal).catch((error: unknown) => {
        // Given up on (abort, timeout): a connection the pool hands over later is destroyed, not leaked.
        connecting.then(
          (late) => late.destroy(),
          () => undefined,
        );
        throw error;
      });
      const c = connection;
      flavour ??= call<{ v: string }[]>(c, 'SELECT VERSION() AS v').then(
        ([row]) => (/mariadb/i.test(row?.v ?? '') ? 'mariadb' : 'mysql'),
        (error: unknown) => {
          flavour = undefined; // ask again next time
          throw error;
        },
      );
      const limit = Math.max(1, Math.ceil(timeoutMs));
      await call(
        c,
        (await flavour) === 'mariadb'
          ? `SET SESSION max_statement_time = ${limit / 1000}`
          : `SET SESSION max_execution_time = ${limit}`,
      );
      await call(c, 'START TRANSACTION READ ONLY');
    } catch (error) {
      connection?.destroy();
      releaseGate?.();
      control.dispose();
      throw mapMysqlError(error, control.signal);
    }
    const leased = connection;
    let finished: Promise<void> | undefined;
    // 'discard' destroys the connection (the server rolls back); 'cancel' first stops a statement still running.
    const finish = (outcome: 'end' | 'discard' | 'cancel') => {
      finished ??= (async () => {
        control.signal.removeEventListener('abort', onAbort);
        try {
          if (outcome !== 'end') {
            if (outcome === 'cancel') await kill(leased.threadId);
            leased.destroy();
          } else {
            await call(leased, 'ROLLBACK');
            leased.release();
          }
        } catch {
          leased.destroy();
        } finally {
          releaseGate();
          control.dispose();
        }
      })();
      return finished;
    };
    const onAbort = () => void finish('cancel');
    control.signal.addEventListener('abort', onAbort, { once: true });
    return { connection: leased, control, finish };
  }

  async function run(request: RunRequest): Promise<RowStream> {
    const bound = bindNamed(request.sql, request.values, 'mysql');
    await account.ensure(request.signal);
    const { connection, control, finish } = await lease(request.timeoutMs, request.signal, request.onAcquired);
    const query = connection.query(bound.sql, bound.values);
    // The stream listens from the start: rows may arrive in the same packet batch as the fields.
    const stream = query.stream({ highWaterMark: 1000 });
    stream.on('error', () => undefined); // surfaced through iteration below
    let columns: Column[];
    try {
      columns = await raceAbort(
        new Promise<Column[]>((resolve, reject) => {
          query.once('fields', (fields: mysql.FieldPacket[]) =>
            resolve(
              fields.map((f) => ({ name: f.name, type: mysqlColumnType(f.columnType ?? 253, f.characterSet ?? 0) })),
            ),
          );
          query.once('error', reject);
          query.once('end', () => resolve([]));
        }),
        control.signal,
      );
    } catch (error) {
      stream.destroy();
      await finish(control.signal.aborted ? 'cancel' : 'discard');
      throw mapMysqlError(error, control.signal);
    }
    async function* rows(): AsyncGenerator<Row> {
      let outcome: 'end' | 'discard' | 'cancel' = 'cancel'; // an early return leaves rows coming
      try {
        for await (const raw of stream) {
          if (control.signal.aborted) break;
          const row = raw as Row;
          for (const column of columns) row[column.name] = normaliseMysqlValue(column.type, row[column.name]);
          yield row;
        }
        // The server's own limit (max_statement_time) may end a statement past the deadline with rows missing and no
        // error (MariaDB: a SLEEP it interrupts returns, and the result ends): a result that ends after the deadline
        // is a timeout, even when this process's timer has not fired yet because its event loop was busy.
        if (!control.signal.aborted && control.expired()) control.abort(new EngineError('TIMEOUT'));
        if (control.signal.aborted) throw mapMysqlError(new Error('aborted'), control.signal);
        outcome = 'end';
      } catch (error) {
        if (!control.signal.aborted) outcome = 'discard'; // the server reported the error: nothing runs
        throw mapMysqlError(error, control.signal);
      } finally {
        stream.destroy();
        await finish(outcome);
      }
    }
    return {
      columns,
      rows: rows(),
      close: async () => {
        stream.destroy();
        await finish('cancel');
      },
    };
  }

  async function query<T>(sql: string, values: unknown[], signal?: AbortSignal): Promise<T> {
    const { connection, control, finish } = await lease(10_000, signal);
    try {
      const result = await raceAbort(call<T>(connection, sql, values), control.signal);
      await finish('end');
      return result;
    } catch (error) {
      await finish(control.signal.aborted ? 'cancel' : 'discard');
      throw mapMysqlError(error, control.signal);
    }
  }

  const account = accountCheck(
    (signal) =>
      mysqlFindings(async (subject) => {
        const rows = await query<Record<string, string>[]>(`SHOW GRANTS FOR ${subject}`, [], signal);
        return rows.map((row) => Object.values(row)[0] ?? '');
      }),
    settings.allowPrivilegedAccount,
  );

  async function testConnection(signal?: AbortSignal): Promise<ConnectionTestResult> {
    const [version] = await query<{ v: string }[]>('SELECT VERSION() AS v', [], signal);
    const findings = await account.verify(signal);
    const warnings = findings.length > 0 ? [allowedAccountWarning(findings)] : [];
    const v = version?.v ?? '';
    return { ok: true, serverVersion: /mariadb/i.test(v) ? `MariaDB ${v}` : `MySQL ${v}`, warnings };
  }

  async function listSchema(signal?: AbortSignal): Promise<SchemaTable[]> {
    await account.ensure(signal);
    const rows = await query<{ s: string; t: string; c: string; type: string }[]>(
      `SELECT TABLE_SCHEMA AS s, TABLE_NAME AS t, COLUMN_NAME AS c, DATA_TYPE AS type FROM information_schema.COLUMNS
        WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION LIMIT 20000`,
      [],
      signal,
    );
    return groupSchema(rows);
  }

  return {
    kind: 'mysql',
    run,
    testConnection,
    listSchema,
    stats: () => ({ size: gate.size, inUse: gate.inUse, waiting: gate.waiting }),
    close: () => new Promise<void>((resolve) => pool.end(() => resolve())),
  };
}
