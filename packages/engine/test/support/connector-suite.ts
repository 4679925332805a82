import { expect, it } from 'vitest';
import { exportCsv, runQuery, writeResult, type QueryResult } from '../../src/index.ts';
import { parameterDefinitionsSchema } from '../../src/parameters/schema.ts';
import { collect, textSink } from './collect.ts';
import type { Connector } from '../../src/types.ts';
import type { z } from 'zod';
import type { networkSettingsSchema } from '../../src/connectors/settings.ts';

// What every networked SQL connector must do the same way, whatever the database: bind values as data, refuse
// writes and second statements, stop on a timeout or an abort, answer for its pool, hide the password, stop at
// the row cap. Each connector's test file calls connectorSuite with its own connectors and SQL dialect.

const parameters = parameterDefinitionsSchema.parse([
  { name: 'region', type: 'string' },
  { name: 'ids', type: 'integer', list: true },
]);

/** Runs body with the connector, then closes it whatever happened. */
export async function withConnector<T>(connector: Connector, body: (connector: Connector) => Promise<T>): Promise<T> {
  try {
    return await body(connector);
  } finally {
    await connector.close();
  }
}

/**
 * Expects a run to give the orders 1 and 3 of the test table with these columns (name:type), the first of them
 * matching first and the amount of the second exact to the cent.
 */
export async function expectOrdersOneAndThree(result: QueryResult, columns: string[], first: Record<string, unknown>) {
  expect(result.columns.map((c) => `${c.name}:${c.type}`)).toEqual(columns);
  const rows = await collect(result.rows);
  expect(rows.map((r) => r['id'])).toEqual([1, 3]);
  expect(rows[0]).toMatchObject(first);
  expect(rows[1]?.['amount']).toBe('99999999999.99');
  expect(result.stats.rows).toBe(2);
}

/** Expects testConnection to refuse the account as privileged, with a message matching pattern. */
export async function expectPrivilegedRefusal(connector: Connector, pattern: RegExp) {
  await withConnector(connector, async (tested) => {
    await expect(tested.testConnection()).rejects.toMatchObject({
      code: 'PRIVILEGED_ACCOUNT',
      message: expect.stringMatching(pattern) as string,
    });
  });
}

/**
 * Expects an account to be refused, as privileged with a message matching pattern, on a connection test, a run,
 * the schema and a CSV export; then closes the connector.
 */
export async function expectAccountRefused(connector: Connector, pattern: RegExp) {
  await withConnector(connector, async (refused) => {
    const expected = { code: 'PRIVILEGED_ACCOUNT', message: expect.stringMatching(pattern) as string };
    await expect(refused.testConnection()).rejects.toMatchObject(expected);
    await expect(refused.run({ sql: 'select 1', values: {}, timeoutMs: 5000 })).rejects.toMatchObject(expected);
    await expect(refused.listSchema()).rejects.toMatchObject(expected);
    const sink = textSink();
    await expect(
      exportCsv(
        { connector: refused, parameters, rowCap: 10, timeoutMs: 5000, sql: 'select 1 as a', values: {} },
        sink.out,
        10,
      ),
    ).rejects.toMatchObject(expected);
  });
}

/** The settings a test overrides on the test database's reader account. */
type SettingOverrides = Partial<
  Pick<
    z.input<typeof networkSettingsSchema>,
    'maxConnections' | 'acquireTimeoutMs' | 'connectTimeoutMs' | 'port' | 'password'
  >
>;

export type Run = (
  sql: string,
  values?: Record<string, unknown>,
  extra?: { timeoutMs?: number; signal?: AbortSignal },
) => ReturnType<typeof runQuery>;

/** What the suite needs of a connector's test file, whose database holds a table `orders` with rows and an empty table `x`. */
export interface ConnectorSuite {
  /** The file's connector on the reader account (at least 2 connections); created in its beforeAll. */
  connector: () => Connector;
  /** A connector on an account that could write, allowed by an administrator. */
  writer: () => Connector;
  /** A new connector on the reader account of the test database, with these settings changed. */
  connect: (overrides: SettingOverrides) => Connector;
  /** The database's own SQL and texts. */
  dialect: {
    /** A statement counting the rows of a table as an integer column n. */
    count: (table: string) => string;
    /** A statement giving the integers 1 to last as a column n. */
    series: (last: number) => string;
    /** A statement that sleeps for 5 s (or longer), for the timeout. */
    sleepUntilTimeout: string;
    /** A statement that sleeps for 5 s, for the abort. */
    sleepUntilAbort: string;
    /** How many of the statements above still run on the server once the engine has stopped them. */
    sleepersLeft: (run: Run) => Promise<number>;
    /** Words of the database's own message for `select 1 +`. */
    syntaxErrorText: string;
    /** The serverVersion the connection test reports. */
    version: RegExp;
  };
  /** A statement with quotes, comments and `:names` outside parameters, and a `region` value that carries SQL. */
  quoting: { sql: string; region: string };
  /** Writes the read-only transaction refuses (message: words the refusal names), and what shows they changed nothing. */
  writes: { refused: { sql: string; message?: string }[]; unchanged: { sql: string; rows: unknown[] }[] };
}

export function connectorSuite({ connector, writer, connect, dialect, quoting, writes }: ConnectorSuite) {
  const run: Run = (sql, values = {}, extra = {}) =>
    runQuery({
      connector: connector(),
      sql,
      parameters,
      values,
      rowCap: 1000,
      timeoutMs: extra.timeoutMs ?? 5000,
      signal: extra.signal,
    });
  const write = (sql: string) =>
    runQuery({ connector: writer(), sql, parameters, values: {}, rowCap: 1000, timeoutMs: 5000 });
  const rows = async (sql: string) => collect((await run(sql)).rows);

  it('keeps quotes, comments and SQL in values as data', async () => {
    const result = await run(quoting.sql, { region: quoting.region });
    expect(await collect(result.rows)).toEqual([]);
    expect(await rows(dialect.count('x'))).toEqual([{ n: 0 }]);
  });

  it('streams a result larger than one cursor batch or stream buffer', async () => {
    const streamed = await rows(dialect.series(5500));
    expect(streamed).toHaveLength(5500);
    expect(streamed.at(-1)).toEqual({ n: 5500 });
  });

  it('refuses a write inside the read-only transaction', async () => {
    for (const { sql, message } of writes.refused) {
      await expect(write(sql)).rejects.toMatchObject({
        code: 'WRITE_REFUSED',
        ...(message === undefined ? {} : { message: expect.stringContaining(message) as string }),
      });
    }
    for (const { sql, rows: expected } of writes.unchanged) expect(await rows(sql)).toEqual(expected);
  });

  it('refuses a second statement before it reaches the database', async () => {
    await expect(run('select 1; drop table x')).rejects.toMatchObject({ code: 'MULTIPLE_STATEMENTS' });
    expect(await rows(dialect.count('x'))).toEqual([{ n: 0 }]);
  });

  it('reports a syntax error with the database message', async () => {
    await expect(run('select 1 +')).rejects.toMatchObject({
      code: 'SYNTAX',
      message: expect.stringContaining(dialect.syntaxErrorText) as string,
    });
  });

  it('stops a query over its timeout and keeps serving', async () => {
    const started = performance.now();
    // The database's own limit may end the statement just before this process's timer fires: the TIMEOUT then comes
    // while the rows are read (MariaDB sends the columns first), not from the run itself.
    const running = run(dialect.sleepUntilTimeout, {}, { timeoutMs: 300 });
    await expect(running.then((result) => collect(result.rows))).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(performance.now() - started).toBeLessThan(2500);
    expect(await dialect.sleepersLeft(run)).toBe(0);
    expect(performance.now() - started).toBeLessThan(4000);
    expect(await rows('select 1 as one')).toEqual([{ one: 1 }]);
  });

  it('cancels the running statement on abort', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await expect(
      run(dialect.sleepUntilAbort, {}, { signal: controller.signal, timeoutMs: 20_000 }),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(await dialect.sleepersLeft(run)).toBe(0);
  });

  it('answers POOL_EXHAUSTED when no connection frees up in time, then serves again', async () => {
    await withConnector(connect({ maxConnections: 1, acquireTimeoutMs: 200 }), async (small) => {
      const held = await small.run({ sql: dialect.series(3), values: {}, timeoutMs: 5000 });
      await expect(small.run({ sql: 'select 1', values: {}, timeoutMs: 5000 })).rejects.toMatchObject({
        code: 'POOL_EXHAUSTED',
      });
      await collect(held.rows); // finishing the first run releases its connection
      const next = await small.run({ sql: 'select 1 as ok', values: {}, timeoutMs: 5000 });
      expect(await collect(next.rows)).toEqual([{ ok: 1 }]);
    });
  });

  it('frees the connection of a run nobody reads once its timeout fires', async () => {
    await withConnector(connect({ maxConnections: 1, acquireTimeoutMs: 100 }), async (small) => {
      await small.run({ sql: dialect.series(5000), values: {}, timeoutMs: 200 }); // never read
      await new Promise((resolve) => setTimeout(resolve, 600));
      const next = await small.run({ sql: 'select 1 as ok', values: {}, timeoutMs: 5000 });
      expect(await collect(next.rows)).toEqual([{ ok: 1 }]);
    });
  });

  it('reports an unreachable host without the password', async () => {
    await withConnector(connect({ port: 1, password: 'sekret-pw', connectTimeoutMs: 1000 }), async (away) => {
      const error = await away.run({ sql: 'select 1', values: {}, timeoutMs: 2000 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'UNREACHABLE', message: 'The database could not be reached' });
      expect(JSON.stringify(error)).not.toContain('sekret-pw');
    });
  });

  it('tests the connection: version, no warning for an account that may only read', async () => {
    const result = await connector().testConnection();
    expect(result.serverVersion).toMatch(dialect.version);
    expect(result.warnings).toEqual([]);
  });

  it('stops interactive JSON at the row cap with truncated: true', async () => {
    const result = await run(dialect.series(50));
    const sink = textSink();
    const stats = await writeResult('json', result, sink.out, { maxRows: 10 });
    const body = JSON.parse(sink.text()) as { rows: unknown[]; truncated: boolean };
    expect(body.rows).toHaveLength(10);
    expect(body.truncated).toBe(true);
    expect(stats.truncated).toBe(true);
    expect(await rows('select 1 as ok')).toEqual([{ ok: 1 }]); // the connection came back
  });
}
