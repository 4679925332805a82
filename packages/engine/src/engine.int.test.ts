import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectorRegistry, exportCsv, runQuery, writeResult } from './index.ts';
import { parameterDefinitionsSchema } from './parameters/schema.ts';
import { collect, textSink } from '../test/support/collect.ts';
import { createSqliteTestFile, type TestSqliteFile } from '../test/support/databases.ts';

// The public API end to end on a SQLite file: checks before running, transformations on the stream, writers.

describe('runQuery and writeResult', () => {
  let file: TestSqliteFile;
  const registry = new ConnectorRegistry();
  const parameters = parameterDefinitionsSchema.parse([
    { name: 'minId', label: 'Minimum id', type: 'integer', required: true, min: 1 },
    {
      name: 'region',
      type: 'string',
      allowedValues: { kind: 'fixed', options: [{ value: 'north' }, { value: 'south' }] },
    },
  ]);

  beforeAll(() => {
    file = createSqliteTestFile();
    file.db.exec(`create table customers (id integer primary key, email text, region text);
      insert into customers values (1, 'ann@example.com', 'north'), (2, 'bob@example.com', 'south'),
        (3, '=evil()', 'north');`);
  });

  afterAll(async () => {
    await registry.close();
    file?.drop();
  });

  const connector = () => registry.get('c1', { kind: 'sqlite', settings: { path: file.path } });

  it('checks every value before anything runs, with the product templates', async () => {
    const error = await runQuery({
      connector: connector(),
      sql: 'select nothing_here',
      parameters,
      values: { region: 'west' },
      rowCap: 10,
      timeoutMs: 1000,
    }).catch((e: unknown) => e);
    // The SQL is invalid: reaching the database would have been a SYNTAX error instead.
    expect(error).toMatchObject({
      code: 'INVALID_PARAMETERS',
      errors: {
        minId: ['Minimum id is required'],
        region: ['Invalid option: west is not one of the allowed values of region: north, south'],
      },
    });
  });

  it('masks e-mails, filters and sorts on the stream; CSV neutralises formulas', async () => {
    const result = await runQuery({
      connector: connector(),
      sql: 'select id, email, region from customers where id >= :minId',
      parameters,
      values: { minId: '1' },
      transformations: [
        { rules: [{ type: 'mask', column: 'email', mode: 'partial', keepFirst: 1, keepLast: 0 }] },
        {
          rules: [
            { type: 'filter', column: 'region', op: 'eq', value: 'north' },
            { type: 'sort', by: [{ column: 'id', direction: 'desc' }] },
          ],
        },
      ],
      rowCap: 100,
      timeoutMs: 5000,
    });
    const sink = textSink();
    const stats = await writeResult('csv', result, sink.out, { maxRows: 100 });
    expect(sink.text()).toBe("id,email,region\r\n3,'=******,north\r\n1,a**************,north\r\n");
    expect(stats.rows).toBe(2);
  });

  it('exports CSV through the row writer when the connector has no COPY path', async () => {
    const sink = textSink();
    await exportCsv(
      {
        connector: connector(),
        sql: 'select id from customers where id >= :minId',
        parameters,
        values: { minId: 2 },
        rowCap: 10,
        timeoutMs: 1000,
      },
      sink.out,
      1,
    );
    expect(sink.text()).toBe(
      'id\r\n2\r\n# Truncated: the result has more rows than the export limit of 1; this file holds the first 1\r\n',
    );
  });

  it('reuses one pool per connection id and replaces it when the settings change', () => {
    const a = connector();
    expect(connector()).toBe(a);
    const b = registry.get('c1', { kind: 'sqlite', settings: { path: file.path, maxConnections: 2 } });
    expect(b).not.toBe(a);
  });

  it('refuses an unknown transformation column by field, closing the run', async () => {
    const error = await runQuery({
      connector: connector(),
      sql: 'select id from customers where id >= :minId',
      parameters,
      values: { minId: 1 },
      transformations: [{ rules: [{ type: 'select', columns: ['nope'] }] }],
      rowCap: 10,
      timeoutMs: 1000,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'INVALID_TRANSFORMATION',
      errors: { '0.rules.0.columns.0': ['Column nope does not exist'] },
    });
    // The handle came back: a pool of one still serves.
    const one = registry.get('c2', {
      kind: 'sqlite',
      settings: { path: file.path, maxConnections: 1, acquireTimeoutMs: 100 },
    });
    await runQuery({
      connector: one,
      sql: 'select 1',
      transformations: [{ rules: [{ type: 'select', columns: ['nope'] }] }],
      rowCap: 1,
      timeoutMs: 1000,
    }).catch(() => undefined);
    expect(
      await collect((await runQuery({ connector: one, sql: 'select 1 as ok', rowCap: 1, timeoutMs: 1000 })).rows),
    ).toEqual([{ ok: 1 }]);
  });
});
