import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../index.ts';
import { parameterDefinitionsSchema } from '../parameters/schema.ts';
import { collect, createMysqlTestDatabase, mysqlAvailable, type TestDatabase } from '../../test/support/databases.ts';
import type { Connector } from '../types.ts';
import {
  connectorSuite,
  expectOrdersOneAndThree,
  expectAccountRefused,
  expectPrivilegedRefusal,
  type Run,
} from '../../test/support/connector-suite.ts';
import { createMysqlConnector } from './mysql.ts';

const parameters = parameterDefinitionsSchema.parse([
  { name: 'region', type: 'string' },
  { name: 'ids', type: 'integer', list: true },
  { name: 'day', type: 'date' },
]);

/**
 * Statements of this database still sleeping. KILL QUERY takes effect asynchronously (slower on a
 * loaded machine): poll for up to 2 s, well before a 5 s sleep would have ended by itself.
 */
async function sleepersLeft(run: Run) {
  let left = -1;
  for (let attempt = 0; attempt < 20 && left !== 0; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const running = await run(
      "select count(*) as n from information_schema.processlist where db = database() and info like 'select sleep(5)%'",
    );
    left = Number(((await collect(running.rows))[0] as { n: number }).n);
  }
  return left;
}

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

  const run = (sql: string, values: Record<string, unknown>) =>
    runQuery({ connector, sql, parameters, values, rowCap: 1000, timeoutMs: 5000 });

  it('expands IN (:list), binds every value and reports typed columns', async () => {
    const result = await run(
      'select * from orders where region = :region and id in (:ids) and day >= :day order by id',
      {
        region: 'north',
        ids: ['1', '2', '3'],
        day: '2024-02-01',
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
        'big:integer',
        'raw:binary',
        'note:string',
      ],
      {
        amount: '10.50',
        day: '2024-03-01',
        at: '2024-03-01T10:00:00',
        big: '9007199254740993',
        note: 'a',
      },
    );
  });

  connectorSuite({
    connector: () => connector,
    writer: () => writer,
    connect: (overrides) => createMysqlConnector({ ...db.settings, ...overrides }),
    dialect: {
      count: (table) => `select count(*) as n from ${table}`,
      series: (last) => `select seq as n from seq_1_to_${last}`,
      sleepUntilTimeout: 'select sleep(5) as s from orders',
      sleepUntilAbort: 'select sleep(5) as s from orders where id = 1',
      sleepersLeft,
      syntaxErrorText: 'SQL syntax',
      version: /^(MariaDB|MySQL) \d+/,
    },
    quoting: {
      sql: "select id from orders where region = :region # :ignored\n and '\\':ids' <> ''",
      region: "north\\'; DROP TABLE x; -- ",
    },
    writes: {
      refused: [
        { sql: 'insert into x values (1)' },
        { sql: 'update orders set region = null' },
        // A reading statement that writes through a function: the read-only transaction stops it.
        { sql: 'select bump() as b' },
        { sql: "select load_file('/etc/hostname') as f", message: 'load_file()' },
        { sql: "select 1 into outfile '/tmp/datalab-engine-test'" },
      ],
      unchanged: [
        { sql: 'select count(*) as n from x', rows: [{ n: 0 }] },
        { sql: 'select count(*) as n from orders where region is null', rows: [{ n: 0 }] },
      ],
    },
  });

  it('refuses an account holding FILE, SUPER or write grants, unless an administrator allowed it', async () => {
    await expectAccountRefused(
      createMysqlConnector({ ...db.adminSettings, maxConnections: 1 }),
      /ALL PRIVILEGES.*"Read-only database accounts"/,
    );
    expect((await writer.testConnection()).warnings.join(' ')).toMatch(/administrator allowed this account/);
    const user = `${db.settings.database}`.slice(-24);
    await db.exec(`create user '${user}'@'%' identified by 'acct-pass'`);
    const account = createMysqlConnector({ ...db.settings, user, password: 'acct-pass', maxConnections: 1 });
    const refusal = async (grant: string, pattern: RegExp) => {
      await db.exec(`grant ${grant} to '${user}'@'%'`);
      await expectPrivilegedRefusal(
        createMysqlConnector({ ...db.settings, user, password: 'acct-pass', maxConnections: 1 }),
        pattern,
      );
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
});
