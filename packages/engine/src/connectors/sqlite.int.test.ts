import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../index.ts';
import { parameterDefinitionsSchema } from '../parameters/schema.ts';
import { collect, createSqliteTestFile, type TestSqliteFile } from '../../test/support/databases.ts';
import type { Connector } from '../types.ts';
import { createSqliteConnector } from './sqlite.ts';

const parameters = parameterDefinitionsSchema.parse([
  { name: 'region', type: 'string' },
  { name: 'ids', type: 'integer', list: true },
  { name: 'flag', type: 'boolean' },
]);

describe('SQLite connector', () => {
  let file: TestSqliteFile;
  let connector: Connector;

  beforeAll(() => {
    file = createSqliteTestFile();
    file.db
      .exec(`create table orders (id integer primary key, region text, amount decimal(14,2), day date, flag boolean,
        raw blob);
      insert into orders values (1, 'north', 10.5, '2024-03-01', 1, x'6869'), (2, 'south', 2.25, '2024-01-15', 0, null),
        (3, 'north', 7, '2024-02-10', 1, null);
      create table x (id int);`);
    connector = createSqliteConnector({ path: file.path, maxConnections: 2, acquireTimeoutMs: 200 });
  });

  afterAll(async () => {
    await connector?.close();
    file?.drop();
  });

  const run = (sql: string, values: Record<string, unknown> = {}, timeoutMs = 5000) =>
    runQuery({ connector, sql, parameters, values, rowCap: 1000, timeoutMs });

  it('expands IN (:list), binds booleans and reports declared and computed column types', async () => {
    const result = await run(
      `select id, region, amount, day, flag, raw, amount * 1.5 as scaled from orders
        where region = :region and id in (:ids) and flag = :flag order by id`,
      {
        region: 'north',
        ids: '1,2,3',
        flag: 'true',
      },
    );
    expect(result.columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      'id:integer',
      'region:string',
      'amount:decimal',
      'day:date',
      'flag:boolean',
      'raw:binary',
      'scaled:decimal',
    ]);
    const rows = await collect(result.rows);
    expect(rows.map((r) => r['id'])).toEqual([1, 3]);
    expect(rows[0]?.['raw']).toEqual(new Uint8Array([0x68, 0x69]));
  });

  it('keeps quotes, comments and SQL in values as data', async () => {
    const result = await run("select id from orders where region = :region -- :ignored\n and '[:ids]' <> ''", {
      region: "north'; DROP TABLE x; --",
    });
    expect(await collect(result.rows)).toEqual([]);
    expect(await collect((await run('select count(*) as n from x')).rows)).toEqual([{ n: 0 }]);
  });

  it('refuses writes: the file is opened read-only, and ATTACH is denied', async () => {
    await expect(run('insert into x values (1)')).rejects.toMatchObject({ code: 'WRITE_REFUSED' });
    // Past the statement guard (it starts with WITH): SQLite's read-only open stops it.
    const write = 'with a as (select 1) insert into x select * from a';
    await expect(run(write)).rejects.toMatchObject({ code: 'WRITE_REFUSED' });
    await expect(run("attach database ':memory:' as other")).rejects.toMatchObject({ code: 'WRITE_REFUSED' });
    expect(file.db.prepare('select count(*) as n from x').get()).toEqual({ n: 0 });
  });

  it('refuses a second statement', async () => {
    await expect(run('select 1; drop table x')).rejects.toMatchObject({ code: 'MULTIPLE_STATEMENTS' });
  });

  it('reports a syntax error', async () => {
    await expect(run('select 1 +')).rejects.toMatchObject({ code: 'SYNTAX' });
  });

  it('stops a long result at its timeout, between rows', async () => {
    const result = await run(
      'with recursive n(i) as (select 1 union all select i + 1 from n) select i from n',
      {},
      200,
    );
    const started = performance.now();
    await expect(collect(result.rows)).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await collect((await run('select 1 as one')).rows)).toEqual([{ one: 1 }]);
  });

  it('answers POOL_EXHAUSTED when every handle is busy, then serves again', async () => {
    const first = await run('select id from orders');
    const second = await run('select id from orders');
    await expect(run('select 1')).rejects.toMatchObject({ code: 'POOL_EXHAUSTED' });
    await collect(first.rows);
    await collect(second.rows);
    expect(await collect((await run('select 1 as ok')).rows)).toEqual([{ ok: 1 }]);
  });

  it('reports a missing file as unreachable', async () => {
    const missing = createSqliteConnector({ path: `${file.path}.missing` });
    await expect(missing.run({ sql: 'select 1', values: {}, timeoutMs: 1000 })).rejects.toMatchObject({
      code: 'UNREACHABLE',
    });
    await missing.close();
  });

  it('tests the connection and lists the schema', async () => {
    expect((await connector.testConnection()).serverVersion).toMatch(/^SQLite 3\./);
    const schema = await connector.listSchema();
    expect(schema.find((t) => t.name === 'orders')?.columns[0]).toEqual({ name: 'id', type: 'INTEGER' });
  });
});
