import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCsv, runQuery, writeResult } from '../index.ts';
import { parameterDefinitionsSchema } from '../parameters/schema.ts';
import {
  collect,
  createPostgresTestDatabase,
  postgresAvailable,
  type TestDatabase,
} from '../../test/support/databases.ts';
import type { Connector } from '../types.ts';
import {
  connectorSuite,
  expectOrdersOneAndThree,
  expectAccountRefused,
  expectPrivilegedRefusal,
  withConnector,
  type Run,
} from '../../test/support/connector-suite.ts';
import { textSink } from '../../test/support/collect.ts';
import { createPostgresConnector } from './postgres.ts';

/** A PostgreSQL escape-string literal of any text without NUL. */
const literalOf = (text: string) =>
  `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''").replaceAll('\t', '\\t').replaceAll('\r', '\\r').replaceAll('\n', '\\n')}'`;

/** How many statements starting with `query` are still active in this database, 200 ms after they were stopped. */
async function sleepersLeft(run: Run, query: string) {
  await new Promise((resolve) => setTimeout(resolve, 200));
  const active = await run(
    `select count(*)::int as n from pg_stat_activity where query like '${query}%' and state = 'active' and datname = current_database()`,
  );
  return ((await collect(active.rows))[0] as { n: number }).n;
}

const parameters = parameterDefinitionsSchema.parse([
  { name: 'region', type: 'string' },
  { name: 'ids', type: 'integer', list: true },
  { name: 'min', type: 'decimal' },
]);

describe.skipIf(!postgresAvailable)('PostgreSQL connector', () => {
  let db: TestDatabase;
  let connector: Connector;

  beforeAll(async () => {
    db = await createPostgresTestDatabase();
    await db.exec(`create table orders (id int primary key, region text, amount numeric(14,2), day date, at timestamptz,
      data jsonb, flag boolean, big bigint, raw bytea)`);
    await db.exec(`insert into orders values
      (1, 'north', 10.50, '2024-03-01', '2024-03-01T10:00:00Z', '{"a":1}', true, 9007199254740993, '\\x6869'),
      (2, 'south', 2.25, '2024-01-15', null, null, false, 2, null),
      (3, 'north', 99999999999.99, '2024-02-10', null, null, null, 3, null),
      (4, '=cmd|'' /C calc''!A0', 1.00, null, null, null, null, 4, null)`);
    await db.exec('create table x (id int)');
    await db.exec('create sequence s');
    connector = createPostgresConnector({ ...db.settings, maxConnections: 3, acquireTimeoutMs: 300 });
    writer = createPostgresConnector({ ...writerSettings(), maxConnections: 2 });
  });

  afterAll(async () => {
    await connector?.close();
    await writer?.close();
    await db?.drop();
  });

  /** The superuser, allowed by an administrator: only the read-only transaction and the guard stand in its way. */
  const writerSettings = () => ({ ...db.adminSettings, allowPrivilegedAccount: true });
  let writer: Connector;
  const write = (sql: string) =>
    runQuery({ connector: writer, sql, parameters, values: {}, rowCap: 1000, timeoutMs: 5000 });

  const run = (
    sql: string,
    values: Record<string, unknown> = {},
    extra: { timeoutMs?: number; readLimit?: number } = {},
  ) =>
    runQuery({
      connector,
      sql,
      parameters,
      values,
      rowCap: 1000,
      timeoutMs: extra.timeoutMs ?? 5000,
      ...(extra.readLimit === undefined ? {} : { readLimit: extra.readLimit }),
    });

  describe('a run that reads a known number of rows (one round trip, committed with the statement)', () => {
    const once = (sql: string, values: Record<string, unknown> = {}, extra: { timeoutMs?: number } = {}) =>
      run(sql, values, { ...extra, readLimit: 3 });

    it('binds values and types columns as a streamed run does', async () => {
      const result = await once('select id, amount, day from orders where region = :region and id = ANY(:ids)', {
        region: 'north',
        ids: '1,3',
      });
      expect(result.columns.map((c) => `${c.name}:${c.type}`)).toEqual(['id:integer', 'amount:decimal', 'day:date']);
      expect(await collect(result.rows)).toEqual([
        { id: 1, amount: '10.50', day: '2024-03-01' },
        { id: 3, amount: '99999999999.99', day: '2024-02-10' },
      ]);
    });

    it('writes JSON from the database texts byte for byte as from typed rows, whatever the column types', async () => {
      // Every kind of cell text (digits, bigint, text, timestamp, boolean) and kinds written through their values
      // (float, json, bytea, interval, arrays), NULLs, a repeated column name, and texts JSON must escape.
      const sql = `select g as id, (g * 1000000000000)::bigint as big, (9007199254740993 + g)::bigint as huge,
          (g::numeric / 3)::numeric(10, 4) as amount, (g / 3.0)::float8 as ratio, 'NaN'::float8 as nan,
          case when g % 2 = 0 then null else 'row ' || chr(34) || g || chr(34) || chr(92) || ' ' || chr(233) || chr(20013)
            || chr(128512) || chr(10) || chr(9) || chr(1) end as note,
          date '2024-03-01' + g as day, timestamptz '2024-03-01 10:00:00+00' + g * interval '1 hour' as at,
          timestamp '2024-03-01 10:00:00.5' as local, g % 2 = 0 as even, jsonb_build_object('g', g, 's', 'x"y') as data,
          '\\x6869'::bytea as raw, interval '1 day 2 hours' as span, array[g, g + 1] as pair, gen_random_uuid() is not null as ok,
          'first' as dup, 'second' as dup
        from generate_series(1, 5) g order by g`;
      const write = async (readLimit?: number) => {
        const sink = textSink();
        const result = await run(sql, {}, readLimit === undefined ? {} : { readLimit });
        await writeResult('json', result, sink.out, { maxRows: 1000, startedAt: 0 });
        return sink.text().replace(/"durationMs":\d+/, '"durationMs":0');
      };
      const fromTexts = await write(10);
      expect(fromTexts).toBe(await write());
      const reply = JSON.parse(fromTexts) as { rows: Record<string, unknown>[] };
      expect(reply.rows[0]).toMatchObject({ id: 1, big: 1000000000000, huge: '9007199254740994', amount: '0.3333' });
      expect(reply.rows[0]).toMatchObject({
        note: 'row "1"\\ é中😀\n\t\u0001',
        at: '2024-03-01T11:00:00+00:00',
        dup: 'second',
      });
      expect(reply.rows[0]).toMatchObject({
        span: { days: 1, hours: 2 },
        pair: [1, 2],
        ratio: 1 / 3,
        local: '2024-03-01T10:00:00.5',
      });
      expect(reply.rows[1]).toMatchObject({ note: null, even: true, nan: null, data: { g: 2, s: 'x"y' }, raw: 'aGk=' });
    });

    /** A connector of its own on the reader account (or on settings), for a test that watches its connections. */
    const own = (pool: { maxConnections: number; acquireTimeoutMs: number }, settings = db.settings) =>
      createPostgresConnector({ ...settings, ...pool });
    /** All the rows of sql, run on a connector with a readLimit, or streamed without one. */
    const rowsOn = async (on: Connector, sql: string, readLimit?: number, timeoutMs = 5000) =>
      collect((await on.run({ sql, values: {}, timeoutMs, ...(readLimit === undefined ? {} : { readLimit }) })).rows);

    it('prepares each statement once on a connection and keeps at most 100 there', async () => {
      await withConnector(own({ maxConnections: 1, acquireTimeoutMs: 500 }), async (small) => {
        const rows = (sql: string, readLimit?: number) => rowsOn(small, sql, readLimit);
        const statements = () => rows('select statement from pg_prepared_statements order by statement', 1000);
        for (const readLimit of [2, undefined, 2]) await rows('select 1 as a', readLimit);
        const prepared = (await statements()).map((row) => row['statement']);
        expect(prepared.filter((text) => text === 'select 1 as a')).toHaveLength(1);
        expect(prepared.filter((text) => text === 'BEGIN READ ONLY')).toHaveLength(1);
        for (let i = 0; i < 105; i += 1) await rows(`select ${i} as n`, 2);
        expect((await statements()).length).toBeLessThanOrEqual(100);
        expect(await rows('select 104 as n', 2)).toEqual([{ n: 104 }]);
      });
    });

    it('runs a statement again, prepared afresh on every connection, once its table changed columns', async () => {
      await db.exec('create table changing (a int)');
      await db.exec('insert into changing values (1)');
      await withConnector(own({ maxConnections: 2, acquireTimeoutMs: 500 }), async (small) => {
        const all = () => rowsOn(small, 'select * from changing', 5);
        // Both connections prepare it (two at once), then the table gets a column.
        await Promise.all([all(), all()]);
        await db.exec('alter table changing add column b int default 2');
        expect(await Promise.all([all(), all(), all()])).toEqual([
          [{ a: 1, b: 2 }],
          [{ a: 1, b: 2 }],
          [{ a: 1, b: 2 }],
        ]);
      });
    });

    it('hands over at most readLimit rows and frees the connection before they are read', async () => {
      await withConnector(own({ maxConnections: 1, acquireTimeoutMs: 200 }), async (small) => {
        const first = await small.run({
          sql: 'select g from generate_series(1, 50) g',
          values: {},
          timeoutMs: 5000,
          readLimit: 4,
        });
        // Not read yet, yet the only connection is free again: the run committed in its one round trip.
        expect(await rowsOn(small, 'select 2 as two', 2)).toEqual([{ two: 2 }]);
        expect(await collect(first.rows)).toEqual([{ g: 1 }, { g: 2 }, { g: 3 }, { g: 4 }]);
      });
    });

    it('gives a clean connection back to the pool: one backend serves run after run, streamed or not', async () => {
      await withConnector(own({ maxConnections: 1, acquireTimeoutMs: 500 }), async (small) => {
        const pid = async (readLimit?: number) => {
          const [row] = await rowsOn(small, 'select pg_backend_pid() as pid', readLimit);
          return (row as { pid: number }).pid;
        };
        const pids = [await pid(), await pid(2), await pid(2), await pid(), await pid(2)];
        expect(new Set(pids).size).toBe(1);
      });
    });

    it('runs read-only with its own time limit set on the server for each run', async () => {
      await withConnector(own({ maxConnections: 1, acquireTimeoutMs: 200 }), async (small) => {
        const limited =
          "select current_setting('transaction_read_only') as ro, current_setting('statement_timeout') as t";
        expect(await rowsOn(small, limited, 2, 4321)).toEqual([{ ro: 'on', t: '4321ms' }]);
        // The same connection, outside any run's transaction: SET LOCAL did not outlive the run.
        const outside = "select current_setting('statement_timeout') as t";
        expect(await rowsOn(small, outside, 2, 1234)).toEqual([{ t: '1234ms' }]);
      });
    });

    it('refuses writes, reports errors and timeouts, and keeps serving on the same connection', async () => {
      // An account that could write (allowed by an administrator): the read-only transaction alone refuses.
      await withConnector(own({ maxConnections: 1, acquireTimeoutMs: 500 }, writerSettings()), async (small) => {
        const go = (sql: string, timeoutMs = 5000) => small.run({ sql, values: {}, timeoutMs, readLimit: 5 });
        await expect(go("select nextval('s')")).rejects.toMatchObject({ code: 'WRITE_REFUSED' });
        await expect(go('select 1 +')).rejects.toMatchObject({ code: 'SYNTAX' });
        await expect(go('select pg_sleep(5)', 300)).rejects.toMatchObject({ code: 'TIMEOUT' });
        await expect(go('select 1/0 as x')).rejects.toMatchObject({ code: 'QUERY_FAILED' });
        expect(await collect((await go('select 1 as ok')).rows)).toEqual([{ ok: 1 }]);
      });
      expect(await collect((await once('select last_value::int as v from s')).rows)).toEqual([{ v: 1 }]);
    });

    it('cancels the running statement on abort', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      await expect(
        connector.run({
          sql: 'select pg_sleep(4)',
          values: {},
          timeoutMs: 5000,
          signal: controller.signal,
          readLimit: 2,
        }),
      ).rejects.toMatchObject({ code: 'CANCELLED' });
      expect(await sleepersLeft(once, 'select pg_sleep(4)')).toBe(0);
    });

    it('says truncated when the result is longer than the row cap', async () => {
      const result = await run('select g as n from generate_series(1, 50) g', {}, { readLimit: 11 });
      const sink = textSink();
      const stats = await writeResult('json', result, sink.out, { maxRows: 10 });
      expect((JSON.parse(sink.text()) as { rows: unknown[] }).rows).toHaveLength(10);
      expect(stats.truncated).toBe(true);
    });
  });

  it('binds named and list parameters and reports typed columns with exact values', async () => {
    const result = await run(
      'select * from orders where region = :region and id = ANY(:ids) and amount >= :min order by id',
      {
        region: 'north',
        ids: '1,3',
        min: '10.5',
      },
    );
    await expectOrdersOneAndThree(
      result,
      [
        'id:integer',
        'region:string',
        'amount:decimal',
        'day:date',
        'at:datetime',
        'data:json',
        'flag:boolean',
        'big:integer',
        'raw:binary',
      ],
      {
        amount: '10.50',
        day: '2024-03-01',
        at: '2024-03-01T10:00:00+00:00',
        data: { a: 1 },
        flag: true,
        big: '9007199254740993',
      },
    );
  });

  it('writes date-times as ISO 8601 whatever the offset, with infinities and BC dates as they are', async () => {
    // set_config runs before the row is written out, so the row's timestamptz is shown in that time zone.
    const zoned = async (zone: string) => {
      const sql = `select set_config('TimeZone', '${zone}', true) as z, '2024-03-01 10:00:00+00'::timestamptz as at`;
      return (await collect((await run(sql, {})).rows))[0]?.['at'];
    };
    expect(await zoned('Asia/Kolkata')).toBe('2024-03-01T15:30:00+05:30');
    expect(await zoned('America/Los_Angeles')).toBe('2024-03-01T02:00:00-08:00');
    expect(await zoned('UTC')).toBe('2024-03-01T10:00:00+00:00');
    const plain = await run(
      "select '2024-03-01 10:00:00.5'::timestamp as a, '0044-03-15 10:00:00 BC'::timestamp as b, " +
        "'infinity'::timestamp as c, '-infinity'::timestamptz as d",
      {},
    );
    expect(await collect(plain.rows)).toEqual([
      { a: '2024-03-01T10:00:00.5', b: '0044-03-15T10:00:00 BC', c: 'infinity', d: '-infinity' },
    ]);
  });

  connectorSuite({
    connector: () => connector,
    writer: () => writer,
    connect: (overrides) => createPostgresConnector({ ...db.settings, ...overrides }),
    dialect: {
      count: (table) => `select count(*)::int as n from ${table}`,
      series: (last) => `select g as n from generate_series(1, ${last}) g`,
      sleepUntilTimeout: 'select pg_sleep(5)',
      sleepUntilAbort: 'select pg_sleep(5)',
      sleepersLeft: (run) => sleepersLeft(run, 'select pg_sleep(5)'),
      syntaxErrorText: 'syntax error',
      version: /^PostgreSQL \d+/,
    },
    quoting: {
      sql: "select id from orders where region = :region -- :ignored\n and ':ids' <> ''",
      region: "north'; DROP TABLE x; --",
    },
    writes: {
      refused: [
        { sql: 'insert into x values (1)' },
        { sql: 'with d as (delete from orders returning id) select * from d' },
        { sql: "copy (select 1) to program 'true'" },
      ],
      unchanged: [{ sql: 'select count(*)::int as n from orders', rows: [{ n: 4 }] }],
    },
  });

  it('runs inside a read-only transaction with the run time limit set on the server', async () => {
    const result = await run(
      "select current_setting('transaction_read_only') as ro, current_setting('statement_timeout') as limit",
      {},
      { timeoutMs: 4321 },
    );
    expect(await collect(result.rows)).toEqual([{ ro: 'on', limit: '4321ms' }]);
  });

  describe('the account check', () => {
    const superuser = () => createPostgresConnector({ ...db.adminSettings, maxConnections: 1 });

    it('refuses a superuser on a test, before the first run, the schema and a COPY, naming what to do', async () => {
      await expectAccountRefused(superuser(), /superuser.*"Read-only database accounts" in docs\/operations\.md/);
    });

    it('refuses members of the file-reading roles and accounts that may write, create or administer', async () => {
      const role = `${db.settings.database}_acct`;
      await db.exec(`create role "${role}" login password 'acct-pass'`);
      await db.exec(`grant select on orders to "${role}"`);
      const account = () => createPostgresConnector({ ...db.settings, user: role, password: 'acct-pass' });
      const refusal = (pattern: RegExp) => expectPrivilegedRefusal(account(), pattern);
      const accepted = async () =>
        withConnector(account(), async (tested) => expect((await tested.testConnection()).warnings).toEqual([]));
      try {
        await accepted();
        await db.exec(`grant pg_read_server_files to "${role}"`);
        await refusal(/member of pg_read_server_files/);
        await db.exec(`revoke pg_read_server_files from "${role}"`);
        // Inherited through another role.
        await db.exec(`create role "${role}_group" nologin`);
        await db.exec(`grant pg_execute_server_program to "${role}_group"`);
        await db.exec(`grant "${role}_group" to "${role}"`);
        await refusal(/member of pg_execute_server_program/);
        await db.exec(`revoke "${role}_group" from "${role}"`);
        await db.exec(`grant insert on x to "${role}"`);
        await refusal(/may write to tables \(for example public\.x\)/);
        await db.exec(`revoke insert on x from "${role}"`);
        await db.exec(`grant update on sequence s to "${role}"`);
        await refusal(/may change sequences/);
        await db.exec(`revoke update on sequence s from "${role}"`);
        await db.exec(`grant create on schema public to "${role}"`);
        await refusal(/create objects in schema public/);
        await db.exec(`revoke create on schema public from "${role}"`);
        await db.exec(`alter role "${role}" createrole`);
        await refusal(/create roles/);
        await db.exec(`alter role "${role}" nocreaterole`);
        await accepted();
      } finally {
        await db.exec(`drop owned by "${role}"`);
        await db.exec(`drop role "${role}"`);
        await db.exec(`drop role if exists "${role}_group"`);
      }
    });

    it('warns instead when an administrator allowed the account; runs stay read-only and are rolled back', async () => {
      const result = await writer.testConnection();
      expect(result.warnings.join(' ')).toMatch(/administrator allowed this account.*superuser/);
      // The guard refuses the file and large-object functions outright.
      await expect(write("select pg_read_file('/etc/hostname') as f")).rejects.toMatchObject({
        code: 'WRITE_REFUSED',
        message: expect.stringContaining('pg_read_file()') as string,
      });
      await expect(write("select lo_import('/etc/hostname') as o")).rejects.toMatchObject({ code: 'WRITE_REFUSED' });
      // A function the guard cannot see into: lo_import succeeds inside READ ONLY, and the rollback undoes it.
      await db.exec(`create or replace function import_hostname() returns oid language sql as
        $$ select lo_import('/etc/hostname') $$`);
      const count = "select count(*)::int as n from pg_largeobject_metadata where lomowner = 'postgres'::regrole";
      const before = (await collect((await write(count)).rows))[0]?.['n'];
      for (const readLimit of [undefined, 5]) {
        const imported = await runQuery({
          connector: writer,
          sql: 'select import_hostname() as o',
          values: {},
          rowCap: 10,
          timeoutMs: 5000,
          ...(readLimit ? { readLimit } : {}),
        });
        expect(Number((await collect(imported.rows))[0]?.['o'])).toBeGreaterThan(0);
      }
      const sink = textSink();
      await exportCsv(
        {
          connector: writer,
          parameters,
          rowCap: 10,
          timeoutMs: 5000,
          sql: 'select import_hostname() as o',
          values: {},
        },
        sink.out,
        10,
      );
      expect(sink.text()).toMatch(/^o\r\n\d+\r\n$/);
      expect((await collect((await write(count)).rows))[0]?.['n']).toBe(before);
    });
  });

  it('lists tables and columns for completion', async () => {
    const schema = await connector.listSchema();
    const orders = schema.find((t) => t.name === 'orders');
    expect(orders?.schema).toBe('public');
    expect(orders?.columns.slice(0, 2)).toEqual([
      { name: 'id', type: 'integer' },
      { name: 'region', type: 'text' },
    ]);
  });

  it('exports CSV through COPY with values bound by set_config, formulas neutralised, capped', async () => {
    const options = { connector, parameters, rowCap: 1000, timeoutMs: 5000 };
    const sink = textSink();
    await exportCsv(
      {
        ...options,
        sql: 'select id, region, amount from orders where id = ANY(:ids) and amount >= :min order by id',
        values: { ids: [1, 2, 4], min: '1' },
      },
      sink.out,
      1000,
    );
    expect(sink.text()).toBe("id,region,amount\r\n1,north,10.50\r\n2,south,2.25\r\n4,'=cmd|' /C calc'!A0,1.00\r\n");
    const injected = textSink();
    await exportCsv(
      { ...options, sql: 'select id from orders where region = :region', values: { region: "x'); drop table x; --" } },
      injected.out,
      1000,
    );
    expect(injected.text()).toBe('id\r\n');
    expect(await collect((await run('select count(*)::int as n from x')).rows)).toEqual([{ n: 0 }]);
    const capped = textSink();
    const cappedStats = await exportCsv(
      { ...options, sql: "select g, 'a,b' as t from generate_series(1, 100) g", values: {} },
      capped.out,
      3,
    );
    // Cut at the limit: a marked last record, padded to the header's two fields.
    const note = '# Truncated: the result has more rows than the export limit of 3; this file holds the first 3';
    expect(capped.text()).toBe(`g,t\r\n1,"a,b"\r\n2,"a,b"\r\n3,"a,b"\r\n${note},\r\n`);
    expect(cappedStats).toMatchObject({ rows: 3, truncated: true });
    const exact = textSink();
    const exactStats = await exportCsv(
      { ...options, sql: 'select g from generate_series(1, 3) g', values: {} },
      exact.out,
      3,
    );
    expect(exact.text()).toBe('g\r\n1\r\n2\r\n3\r\n');
    expect(exactStats).toMatchObject({ rows: 3, truncated: false });
  });

  describe('CSV through COPY with column rules run by the database', () => {
    const people = `select * from (values
      (1, 'Ada Lovelace', 'ada@example.org', 'plain'),
      (2, 'Zoë 😀 Ørsted', 'z@x.io', '=HYPERLINK("x")'),
      (3, null, '', 'with, comma and "quotes"'),
      (4, 'ab', 'a''b\\c@example.org', e'two\\nlines'),
      (5, '+cmd', null, '-1')
    ) as p(id, name, email, note)
    where id <= :max order by id`;
    const maxParameter = parameterDefinitionsSchema.parse([{ name: 'max', type: 'integer' }]);
    const rules = [
      { type: 'mask', column: 'email', mode: 'partial', keepFirst: 2, keepLast: 4, maskChar: '#' },
      { type: 'mask', column: 'name', mode: 'hash', salt: "s'al\\t" },
      { type: 'rename', from: 'email', to: 'contact' },
      { type: 'select', columns: ['note', 'contact', 'id', 'name'] },
      { type: 'mask', column: 'note', mode: 'full' },
      { type: 'limit', count: 4 },
    ] as const;

    /** The CSV export of a run through COPY and through the row path. */
    async function bothPaths(options: Parameters<typeof exportCsv>[0]) {
      const copied = textSink();
      await exportCsv(options, copied.out, 1000);
      const rowPath = textSink();
      await exportCsv(options, rowPath.out, 1000, 'rows');
      return { copied: copied.text(), rowPath: rowPath.text() };
    }

    const both = (transformations: { name: string; rules: readonly Record<string, unknown>[] }[]) =>
      bothPaths({
        connector,
        sql: people,
        parameters: maxParameter,
        values: { max: '5' },
        transformations: transformations as never,
        rowCap: 1000,
        timeoutMs: 5000,
      });

    it('gives byte for byte what the row path gives: partial, hash and full masks, rename, select, limit', async () => {
      for (let n = 1; n <= rules.length; n += 1) {
        const { copied, rowPath } = await both([{ name: 'T', rules: rules.slice(0, n) }]);
        expect(copied, `first ${n} rules`).toBe(rowPath);
      }
      const { copied } = await both([{ name: 'T', rules }]);
      expect(copied.split('\r\n')[0]).toBe('note,contact,id,name');
      expect(copied).toContain(',ad#########.org,'); // partial: the first 2 and the last 4 kept
      expect(copied).not.toContain('Lovelace');
      expect(copied.trim().split('\r\n')).toHaveLength(5); // header + limit 4
    });

    it('neutralises formulas as the row path does, cell for cell, whatever the first character', async () => {
      const starts = ['=1', '+1', '-1', '@x', '\tx', '\rx', '', 'x=1', ' =1', 'é=1', '＝1', '😀', "'=1", '\n=1'];
      const cells = starts.map((text, i) => `(${i}, ${literalOf(text)}::text, ${literalOf(text)}::varchar)`);
      const { copied, rowPath } = await bothPaths({
        connector,
        sql: `select * from (values ${cells.join(', ')}, (99, null, null)) as c(id, t, v) order by id`,
        parameters: [],
        values: {},
        rowCap: 1000,
        timeoutMs: 5000,
      });
      expect(copied).toBe(rowPath);
      expect(copied).toContain("0,'=1,'=1\r\n");
      expect(copied).toContain('7,x=1,x=1\r\n');
    });

    it('takes the COPY path for text columns and the row path, with the same result, for a mask it cannot run', async () => {
      const request = {
        sql: people,
        values: { max: 5 },
        timeoutMs: 5000,
        parameterTypes: { max: { type: 'integer' } },
        maxRows: 100,
      };
      const text = await connector.copyCsv!({
        ...request,
        transformations: [
          {
            name: 'T',
            rules: [
              { type: 'mask', column: 'email', mode: 'full', keepFirst: 0, keepLast: 0, maskChar: '*', salt: '' },
            ],
          },
        ],
      });
      expect(text).toBeDefined();
      await collect(text!);
      const numeric = await connector.copyCsv!({
        ...request,
        transformations: [
          {
            name: 'T',
            rules: [{ type: 'mask', column: 'id', mode: 'full', keepFirst: 0, keepLast: 0, maskChar: '*', salt: '' }],
          },
        ],
      });
      expect(numeric).toBeUndefined();
      const { copied, rowPath } = await both([
        { name: 'T', rules: [{ type: 'mask', column: 'id', mode: 'partial', keepLast: 1 }] },
      ]);
      expect(copied).toBe(rowPath);
      expect(copied.split('\r\n')[1]).toMatch(/^\*,/); // a one-digit id, fully masked, by the row path
      expect(await collect((await run('select 1 as ok')).rows)).toEqual([{ ok: 1 }]); // the connection came back
    });

    it('refuses a rule on a missing column with the row path message', async () => {
      await expect(
        both([{ name: 'T', rules: [{ type: 'mask', column: 'nope', mode: 'full' }] }]),
      ).rejects.toMatchObject({
        code: 'INVALID_TRANSFORMATION',
      });
    });
  });

  it('neutralises a formula in the header row of the COPY path, as the CSV writer does', async () => {
    const sql = 'select 1 as "=HYPERLINK(""http://x"")", 2 as "+sum", 3 as plain';
    const copied = textSink();
    await exportCsv({ connector, parameters, rowCap: 10, timeoutMs: 5000, sql, values: {} }, copied.out, 10);
    expect(copied.text().split('\r\n')[0]).toBe(`"'=HYPERLINK(""http://x"")",'+sum,plain`);
    const written = textSink();
    await writeResult('csv', await run(sql), written.out, { maxRows: 10 });
    expect(copied.text()).toBe(written.text());
  });

  it('refuses a write through the COPY path too', async () => {
    const sink = textSink();
    await expect(
      exportCsv(
        { connector: writer, parameters, rowCap: 10, timeoutMs: 5000, sql: "select nextval('s') as n", values: {} },
        sink.out,
        10,
      ),
    ).rejects.toMatchObject({ code: 'WRITE_REFUSED' });
    expect(await collect((await run('select last_value::int as v from s')).rows)).toEqual([{ v: 1 }]);
  });
});
