import pg from 'pg';
import { bindNamed } from '../sql/bind.ts';
import {
  rowsInMemory,
  TextRows,
  type Column,
  type ConnectionTestResult,
  type Connector,
  type CopyCsvRequest,
  type Row,
  type RowStream,
  type RunRequest,
  type SchemaTable,
} from '../types.ts';
import { raceAbort } from './abort.ts';
import { accountCheck, allowedAccountWarning } from './account.ts';
import { Gate } from './gate.ts';
import { type AccountRow, POSTGRES_ACCOUNT_SQL, POWERFUL_ROLES, postgresFindings } from './postgres-account.ts';
import { mapPostgresError } from './postgres-errors.ts';
import { cellTextOf, columnTypeOf, engineTypes } from './postgres-types.ts';
import { copyCsv } from './postgres-copy.ts';
import { PipelinedRun, PreparedStatements } from './postgres-run.ts';
import { type RunControl, runControl } from './run-control.ts';
import { type PostgresSettings, postgresSettingsSchema } from './settings.ts';

// PostgreSQL: a bounded pg Pool behind a Gate; each run in BEGIN READ ONLY with SET LOCAL statement_timeout, sent
// with the statement in one packet (postgres-run.ts), and ended with ROLLBACK; rows fetched from the portal in
// batches, so memory stays flat whatever the result size, or all at once when the caller reads a known number of
// them. The pool's account is checked before its first run and every minute after (account.ts).

/**
 * Rows a streamed run fetches at a time (one more batch is fetched ahead). 250, not 1,000: rows that wait in a batch
 * outlive young-generation collections, and V8 promotes them — a 1,000,000-row XLSX export promoted ~125 MB of rows
 * into the old generation with 1,000 (server peak RSS +40 MB), ~36 MB with 250; the extra round trips overlap with
 * the writer (decision 118).
 */
const BATCH = 250;

export type Outcome = 'end' | 'release' | 'discard' | 'cancel';

export interface PostgresLease {
  client: pg.PoolClient;
  control: RunControl;
  /**
   * Ends the run, once: 'end' rolls the transaction back and returns the connection to the pool; 'release' returns
   * it as it is (the run ended its transaction already); 'discard' destroys it (the server ends the transaction); 'cancel' also stops a
   * statement still running (abort, timeout).
   */
  finish(outcome: Outcome): Promise<void>;
}

export interface PostgresConnectorOptions {
  /**
   * How a statement runs: 'pipelined' (the default) over pg's protocol methods in one packet (postgres-run.ts);
   * 'query' with pg's public client.query, in a transaction begun by its own query, every row fetched at once — the
   * library path the pipelined runner is held to (postgres.int.test.ts).
   */
  runner?: 'pipelined' | 'query';
}

export function createPostgresConnector(input: PostgresSettings, options: PostgresConnectorOptions = {}): Connector {
  const settings = postgresSettingsSchema.parse(input);
  const clientConfig: pg.ClientConfig = {
    host: settings.host,
    port: settings.port ?? 5432,
    database: settings.database,
    user: settings.user,
    password: settings.password,
    ssl: settings.ssl ? { rejectUnauthorized: true } : false,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    application_name: 'datalab-engine',
    ...(settings.guard ? { stream: settings.guard.postgresStream } : {}),
  };
  const pool = new pg.Pool({
    ...clientConfig,
    max: settings.maxConnections,
    idleTimeoutMillis: 30_000,
    allowExitOnIdle: true,
  });
  pool.on('error', () => undefined); // an idle client's socket error must not crash the process
  // Nor a checked-out one's: the run using it fails with that error already; pg also emits it on the client, where
  // the pool listens only while the client is idle (a database restarting under a call crashed the server).
  pool.on('connect', (client) => client.on('error', () => undefined));
  const gate = new Gate({ size: settings.maxConnections, acquireTimeoutMs: settings.acquireTimeoutMs });

  /** Asks the server to cancel the running statement, from a separate short-lived connection. */
  async function cancelBackend(pid: number | undefined): Promise<void> {
    if (!pid) return;
    const client = new pg.Client(clientConfig);
    try {
      await client.connect();
      await client.query('select pg_cancel_backend($1)', [pid]);
    } catch {
      // the statement timeout stops it anyway
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** A pooled connection within the gate; `begin`: in a read-only transaction with the statement timeout set. */
  async function lease(
    timeoutMs: number,
    signal: AbortSignal | undefined,
    begin = true,
    onAcquired?: () => void,
  ): Promise<PostgresLease> {
    const control = runControl(timeoutMs, signal);
    let releaseGate: (() => void) | undefined;
    let client: pg.PoolClient | undefined;
    try {
      releaseGate = await gate.acquire(control.signal);
      onAcquired?.();
      const connecting = pool.connect();
      client = await raceAbort(connecting, control.signal).catch((error: unknown) => {
        // Given up on (abort, timeout): the connection the pool hands over later goes straight back.
        connecting.then(
          (late) => late.release(true),
          () => undefined,
        );
        throw error;
      });
      // One round trip for both (the simple-query protocol runs them in turn): a Q100 call pays per round trip.
      if (begin)
        await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${Math.max(1, Math.ceil(timeoutMs))}`);
    } catch (error) {
      client?.release(true);
      releaseGate?.();
      control.dispose();
      throw mapPostgresError(error, control.signal);
    }
    const leased = client;
    const pid = (leased as unknown as { processID?: number }).processID;
    let finished: Promise<void> | undefined;
    const finish = (outcome: Outcome) => {
      finished ??= (async () => {
        control.signal.removeEventListener('abort', onAbort);
        try {
          if (outcome === 'discard' || outcome === 'cancel') {
            if (outcome === 'cancel') await cancelBackend(pid);
            leased.release(true);
          } else {
            if (outcome === 'end') await leased.query('ROLLBACK');
            leased.release();
          }
        } catch {
          leased.release(true);
        } finally {
          releaseGate();
          control.dispose();
        }
      })();
      return finished;
    };
    const onAbort = () => void finish('cancel');
    control.signal.addEventListener('abort', onAbort, { once: true });
    return { client: leased, control, finish };
  }

  const prepared = new PreparedStatements();

  const account = accountCheck(
    async (signal) => postgresFindings((await query<AccountRow>(POSTGRES_ACCOUNT_SQL, [POWERFUL_ROLES], signal))[0]),
    settings.allowPrivilegedAccount,
  );

  /** The library path: client.query, its rows typed by pg and held in memory. */
  async function runWithQuery(request: RunRequest): Promise<RowStream> {
    const bound = bindNamed(request.sql, request.values, 'postgres');
    await account.ensure(request.signal);
    const { client, control, finish } = await lease(request.timeoutMs, request.signal, true, request.onAcquired);
    try {
      const result = await raceAbort(
        client.query({ text: bound.sql, values: bound.values, types: engineTypes }),
        control.signal,
      );
      await finish('end');
      const columns: Column[] = result.fields.map((field) => ({
        name: field.name,
        type: columnTypeOf(field.dataTypeID),
      }));
      const rows = result.rows as Row[];
      const kept = request.readLimit === undefined ? rows : rows.slice(0, request.readLimit);
      return { columns, rows: rowsInMemory(kept), close: async () => undefined };
    } catch (error) {
      await finish(control.signal.aborted ? 'cancel' : 'discard');
      throw mapPostgresError(error, control.signal);
    }
  }

  async function run(request: RunRequest, retry = true): Promise<RowStream> {
    if (options.runner === 'query') return runWithQuery(request);
    const bound = bindNamed(request.sql, request.values, 'postgres');
    await account.ensure(request.signal);
    // A caller that reads at most readLimit rows gets them in one round trip, the transaction ended with them.
    const single = request.readLimit !== undefined;
    const { client, control, finish } = await lease(request.timeoutMs, request.signal, false, request.onAcquired);
    const pipelined = new PipelinedRun({
      text: bound.sql,
      values: bound.values,
      timeoutMs: request.timeoutMs,
      batch: single ? Math.max(1, request.readLimit ?? BATCH) : BATCH,
      single,
      types: engineTypes,
      texts: single,
      // Interactive runs repeat; an export's one statement would gain nothing from being kept prepared.
      ...(single ? { prepared } : {}),
    });
    let first: Row[];
    try {
      client.query(pipelined as unknown as pg.QueryConfig);
      first = await raceAbort(pipelined.next(), control.signal);
      if (single) await finish('release');
    } catch (error) {
      await finish(control.signal.aborted ? 'cancel' : 'discard');
      // A table's columns changed under a prepared statement: every connection prepares afresh, and the run is made
      // once more (the first rows had not left yet).
      if (retry && isStalePlan(error) && !control.signal.aborted) {
        prepared.reset();
        return run(request, false);
      }
      throw mapPostgresError(error, control.signal);
    }
    const columns: Column[] = pipelined.fields.map((field) => ({
      name: field.name,
      type: columnTypeOf(field.dataTypeID),
    }));
    if (single) {
      // Kept as the database's texts: the JSON writer writes most of them as they are, anything else types them.
      const parsers = pipelined.fields.map((field) => engineTypes.getTypeParser(field.dataTypeID, 'text'));
      const texts = first as unknown as (string | null)[][];
      return {
        columns,
        rows: new TextRows(columns, texts, parsers, parsers.map(cellTextOf)),
        close: async () => undefined,
      };
    }
    async function* rows(): AsyncGenerator<Row> {
      let outcome: Outcome = 'discard'; // an error or an early return: the statement is not finished
      try {
        let batch = first;
        while (batch.length > 0) {
          yield* batch;
          batch = await raceAbort(pipelined.next(), control.signal);
        }
        await raceAbort(pipelined.finish(), control.signal);
        outcome = 'release';
      } catch (error) {
        throw mapPostgresError(error, control.signal);
      } finally {
        await finish(control.signal.aborted ? 'cancel' : outcome);
      }
    }
    return { columns, rows: rows(), close: () => finish('discard') };
  }

  async function query<T>(sql: string, values: unknown[], signal?: AbortSignal): Promise<T[]> {
    const { client, control, finish } = await lease(10_000, signal);
    try {
      const result = await raceAbort(client.query(sql, values), control.signal);
      await finish('end');
      return result.rows as T[];
    } catch (error) {
      await finish(control.signal.aborted ? 'cancel' : 'discard');
      throw mapPostgresError(error, control.signal);
    }
  }

  async function testConnection(signal?: AbortSignal): Promise<ConnectionTestResult> {
    const [row] = await query<{ version: string }>(`select current_setting('server_version') as version`, [], signal);
    const findings = await account.verify(signal);
    const warnings = findings.length > 0 ? [allowedAccountWarning(findings)] : [];
    return { ok: true, serverVersion: `PostgreSQL ${row?.version ?? ''}`.trim(), warnings };
  }

  async function listSchema(signal?: AbortSignal): Promise<SchemaTable[]> {
    await account.ensure(signal);
    const rows = await query<{ s: string; t: string; c: string; type: string }>(
      `select table_schema as s, table_name as t, column_name as c, data_type as type from information_schema.columns
        where table_schema not in ('pg_catalog', 'information_schema')
        order by table_schema, table_name, ordinal_position limit 20000`,
      [],
      signal,
    );
    return groupSchema(rows);
  }

  return {
    kind: 'postgres',
    run,
    testConnection,
    listSchema,
    copyCsv: async (request: CopyCsvRequest) => {
      await account.ensure(request.signal);
      return copyCsv(request, (timeoutMs, signal) => lease(timeoutMs, signal, true, request.onAcquired));
    },
    stats: () => ({ size: gate.size, inUse: gate.inUse, waiting: gate.waiting }),
    close: async () => {
      await pool.end();
    },
  };
}

/** PostgreSQL's refusal to run a prepared statement whose result columns changed since it was prepared. */
function isStalePlan(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '0A000' && typeof message === 'string' && message.includes('cached plan must not change result type');
}

export function groupSchema(rows: { s: string | null; t: string; c: string; type: string }[]): SchemaTable[] {
  const tables = new Map<string, SchemaTable>();
  for (const row of rows) {
    const key = `${row.s ?? ''}.${row.t}`;
    let table = tables.get(key);
    if (!table) {
      table = { schema: row.s, name: row.t, columns: [] };
      tables.set(key, table);
    }
    table.columns.push({ name: row.c, type: row.type });
  }
  return [...tables.values()];
}
