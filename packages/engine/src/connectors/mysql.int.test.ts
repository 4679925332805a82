import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../index.ts';
import { parameterDefinitionsSchema } from '../parameters/schema.ts';
import { collect, createMysqlTestDatabase, mysqlAvailable, type TestDatabase } from '../../test/support/databases.ts';
import type { Connector } from '../types.ts';
import { createMysqlConnector } from './mysql.ts';

const parameters = parameterDefinitionsSchema.parse([
  { name: 'region', type: 'string' },
  { name: 'ids', type: 'integer', list: true },
  { name: 'day', type: 'date' },
]);

describe.skipIf(!mysqlAvailable)('MySQL/MariaDB connector', () => {
  let db: TestDatabase;
  let connector: Connector;

  beforeAll(async () => {
    db = await createMysqlTestDatabase();
    await db.exec(`create table orders (id int primary key, region varchar(50), amount decimal(14,2), day date,
      at datetime,
      big bigint, raw varbinary(10), note text)`);
    await db.exec(`insert into orders values
      (1, 'north', 10.50, '2024-03-01', '2024-03-01 10:00:00', 9007199254740993, x'6869', 'a'),
      (2, 'south', 2.25, '2024-01-15', null, 2, null, null),
      (3, 'north', 99999999999.99, '2024-02-10', null, 3, null, null)`);
    await db.exec('create table x (id int)');
    await db.exec('create function bump() returns int modifies sql data begin insert into x values (1); return 1; end');
    connector = createMysqlConnector({ ...db.settings, maxConnections: 3, acquireTimeoutMs: 300 });
    writer = createMysqlConnector({ ...db.adminSettings, allowPrivilegedAccount: true, maxConnections: 2 });
  });

  afterAll(async () => {
    await connector?.close();
    await writer?.close();
    await db?.drop();
  });

  /** The administrator, allowed on purpose: only the read-only transaction and the guard stand in its way. */
  let writer: Connector;
  const write = (sql: string) =>
    runQuery({ connector: writer, sql, parameters, values: {}, rowCap: 1000, timeoutMs: 5000 });

  const run = (
    sql: string,
    values: Record<string, unknown> = {},
    extra: { timeoutMs?: number; signal?: AbortSignal } = {},
  ) =>
    runQuery({
      connector,
      sql,
      parameters,
      values,
      rowCap: 1000,
      timeoutMs: extra.timeoutMs ?? 5000,
      signal: extra.signal,
    });

  it('expands IN (:list), binds every value and reports typed columns', async () => {
    const result = await run(
      'select * from orders where region = :region and id in (:ids) and day >= :day order by id',
      {
        region: 'north',
        ids: ['1', '2', '3'],
        day: '2024-02-01',
      },
    );
    expect(result.columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      'id:integer',
      'region:string',
      'amount:decimal',
      'day:date',
      'at:datetime',
      'big:integer',
      'raw:binary',
      'note:string',
    ]);
    const rows = await collect(result.rows);
    expect(rows.map((r) => r['id'])).toEqual([1, 3]);
    expect(rows[0]).toMatchObject({
      amount: '10.50',
      day: '2024-03-01',
      at: '2024-03-01T10:00:00',
      big: '9007199254740993',
      note: 'a',
    });
    expect(rows[1]?.['amount']).toBe('99999999999.99');
  });

  it('keeps quotes, backslashes, comments and SQL in values as data', async () => {
    const result = await run("select id from orders where region = :region # :ignored\n and '\\':ids' <> ''", {
      region: "north\\'; DROP TABLE x; -- ",
    });
    expect(await collect(result.rows)).toEqual([]);
    expect(await collect((await run('select count(*) as n from x')).rows)).toEqual([{ n: 0 }]);
  });

  it('refuses a write inside the read-only transaction', async () => {
    await expect(write('insert into x values (1)')).rejects.toMatchObject({ code: 'WRITE_REFUSED' });
    await expect(write('update orders set region = null')).rejects.toMatchObject({ code: 'WRITE_REFUSED' });
    // A reading statement that writes through a function: the read-only transaction stops it.
    await expect(write('select bump() as b')).rejects.toMatchObject({ code: 'WRITE_REFUSED' });
    await expect(write("select load_file('/etc/hostname') as f")).rejects.toMatchObject({
      code: 'WRITE_REFUSED',
      message: expect.stringContaining('load_file()') as string,
    });
    await expect(write("select 1 into outfile '/tmp/datalab-engine-test'")).rejects.toMatchObject({
      code: 'WRITE_REFUSED',
    });
    expect(await collect((await run('select count(*) as n from x')).rows)).toEqual([{ n: 0 }]);
    expect(await collect((await run('select count(*) as n from orders where region is null')).rows)).toEqual([
      { n: 0 },
    ]);
  });

  it('refuses a second statement', async () => {
    await expect(run('select 1; drop table x')).rejects.toMatchObject({ code: 'MULTIPLE_STATEMENTS' });
    expect(await collect((await run('select count(*) as n from x')).rows)).toEqual([{ n: 0 }]);
  });

  it('reports a syntax error', async () => {
    await expect(run('select 1 +')).rejects.toMatchObject({ code: 'SYNTAX' });
  });

  /**
   * Statements of this database still sleeping. KILL QUERY takes effect asynchronously (slower on a
   * loaded machine): poll for up to 2 s, well before a 5 s sleep would have ended by itself.
   */
  const sleepersLeft = async () => {
    let left = -1;
    for (let attempt = 0; attempt < 20 && left !== 0; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const running = await run(
        "select count(*) as n from information_schema.processlist where db = database() and info like 'select sleep(5)%'",
      );
      left = Number(((await collect(running.rows))[0] as { n: number }).n);
    }
    return left;
  };

  it('stops a query over its timeout and keeps serving', async () => {
    const started = performance.now();
    await expect(run('select sleep(5) as s from orders', {}, { timeoutMs: 300 })).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
    expect(performance.now() - started).toBeLessThan(2500);
    expect(await sleepersLeft()).toBe(0);
    expect(performance.now() - started).toBeLessThan(4000);
    expect(await collect((await run('select 1 as one')).rows)).toEqual([{ one: 1 }]);
  });

  it('stops the running statement on abort', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const query = 'select sleep(5) as s from orders where id = 1';
    await expect(run(query, {}, { signal: controller.signal, timeoutMs: 20_000 })).rejects.toMatchObject({
      code: 'CANCELLED',
    });
    expect(await sleepersLeft()).toBe(0);
  });

  it('answers POOL_EXHAUSTED when no connection frees up in time, then serves again', async () => {
    const small = createMysqlConnector({ ...db.settings, maxConnections: 1, acquireTimeoutMs: 200 });
    try {
      const held = await small.run({ sql: 'select id from orders', values: {}, timeoutMs: 5000 });
      await expect(small.run({ sql: 'select 1', values: {}, timeoutMs: 5000 })).rejects.toMatchObject({
        code: 'POOL_EXHAUSTED',
      });
      await collect(held.rows);
      expect(await collect((await small.run({ sql: 'select 1 as ok', values: {}, timeoutMs: 5000 })).rows)).toEqual([
        { ok: 1 },
      ]);
    } finally {
      await small.close();
    }
  });

  it('reports an unreachable host without the password', async () => {
    const away = createMysqlConnector({ ...db.settings, port: 1, password: 'sekret-pw', connectTimeoutMs: 1000 });
    try {
      const error = await away.run({ sql: 'select 1', values: {}, timeoutMs: 2000 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'UNREACHABLE', message: 'The database could not be reached' });
      expect(JSON.stringify(error)).not.toContain('sekret-pw');
    } finally {
      await away.close();
    }
  });

  it('tests the connection: version, no warning for an account that may only read', async () => {
    const result = await connector.testConnection();
    expect(result.serverVersion).toMatch(/^(MariaDB|MySQL) \d+/);
    expect(result.warnings).toEqual([]);
  });

  it('refuses an account holding FILE, SUPER or write grants, unless an administrator allowed it', async () => {
    const admin = createMysqlConnector({ ...db.adminSettings, maxConnections: 1 });
    try {
      const expected = {
        code: 'PRIVILEGED_ACCOUNT',
        message: expect.stringMatching(/ALL PRIVILEGES.*"Read-only database accounts"/) as string,
      };
      await expect(admin.testConnection()).rejects.toMatchObject(expected);
      await expect(admin.run({ sql: 'select 1', values: {}, timeoutMs: 5000 })).rejects.toMatchObject(expected);
      await expect(admin.listSchema()).rejects.toMatchObject(expected);
    } finally {
      await admin.close();
    }
    expect((await writer.testConnection()).warnings.join(' ')).toMatch(/administrator allowed this account/);
    const user = `${db.settings.database}`.slice(-24);
    await db.exec(`create user '${user}'@'%' identified by 'acct-pass'`);
    const account = createMysqlConnector({ ...db.settings, user, password: 'acct-pass', maxConnections: 1 });
    const refusal = async (grant: string, pattern: RegExp) => {
      await db.exec(`grant ${grant} to '${user}'@'%'`);
      const tested = createMysqlConnector({ ...db.settings, user, password: 'acct-pass', maxConnections: 1 });
      try {
        await expect(tested.testConnection()).rejects.toMatchObject({
          code: 'PRIVILEGED_ACCOUNT',
          message: expect.stringMatching(pattern) as string,
        });
      } finally {
        await tested.close();
      }
      await db.exec(`revoke ${grant} from '${user}'@'%'`);
    };
    try {
      await db.exec(`grant select on \`${db.settings.database}\`.* to '${user}'@'%'`);
      expect((await account.testConnection()).warnings).toEqual([]);
      await refusal('file on *.*', /holds FILE/);
      await refusal('super on *.*', /holds SUPER/);
      await refusal(`insert, update on \`${db.settings.database}\`.x`, /holds INSERT, UPDATE on/);
      await db.exec(`create role if not exists '${user}_r'`);
      await db.exec(`grant delete on \`${db.settings.database}\`.* to '${user}_r'`);
      await db.exec(`grant '${user}_r' to '${user}'@'%'`);
      await db.exec(`set default role '${user}_r' for '${user}'@'%'`);
      await refusal(`select on \`${db.settings.database}\`.orders`, /holds DELETE on/);
    } finally {
      await account.close();
      await db.exec(`drop user if exists '${user}'@'%'`);
      await db.exec(`drop role if exists '${user}_r'`);
    }
  });

  it('lists tables and columns for completion', async () => {
    const schema = await connector.listSchema();
    expect(schema.find((t) => t.name === 'orders')?.columns[1]).toEqual({ name: 'region', type: 'varchar' });
  });

  it('streams a result larger than the stream buffer', async () => {
    const result = await run('select seq as n from seq_1_to_5000');
    const rows = await collect(result.rows);
    expect(rows).toHaveLength(5000);
  });
});
