import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteConnector } from './connectors/sqlite.ts';
import { runQuery, writeResult, type RunTimings } from './index.ts';
import { createSqliteTestFile, type TestSqliteFile } from '../test/support/databases.ts';
import type { Connector } from './types.ts';

// Where a run's time goes (RunTimings): the wait for a connection, the database, the transformations and the
// writer, on a real SQLite file with a one-connection pool.

/** A Writable that takes `delayMs` per chunk and says it is full after each, so the writer waits for it. */
function slowSink(delayMs: number) {
  return new Writable({
    highWaterMark: 1,
    write(_chunk: Buffer, _encoding, callback) {
      setTimeout(callback, delayMs);
    },
  });
}

const fastSink = () => slowSink(0);
const hashEmails = [{ name: 'Privacy', rules: [{ type: 'mask' as const, column: 'email', mode: 'hash' as const }] }];
const sql = 'select id, email from customers order by id';

describe('run timings', () => {
  let file: TestSqliteFile;
  let connector: Connector;

  beforeAll(() => {
    file = createSqliteTestFile();
    file.db.exec('create table customers (id integer primary key, email text)');
    const insert = file.db.prepare('insert into customers values (?, ?)');
    file.db.exec('begin');
    for (let id = 1; id <= 5000; id += 1) insert.run(id, `person${id}@example.com`);
    file.db.exec('commit');
    connector = createSqliteConnector({ path: file.path, maxConnections: 1, acquireTimeoutMs: 5000 });
  });

  afterAll(async () => {
    await connector?.close();
    file?.drop();
  });

  it('counts the wait for the only connection as queue, not database', async () => {
    const holder = await runQuery({ connector, sql, rowCap: 10_000, timeoutMs: 10_000 });
    const timings: RunTimings = {};
    const waiting = runQuery({ connector, sql, rowCap: 10_000, timeoutMs: 10_000, timings });
    await new Promise((resolve) => setTimeout(resolve, 150));
    await holder.close();
    const result = await waiting;
    await result.close();
    expect(timings.queueMs).toBeGreaterThanOrEqual(120);
    expect(timings.databaseMs).toBeGreaterThanOrEqual(0);
    expect(timings.databaseMs).toBeLessThan(timings.queueMs ?? 0);
    expect(result.stats.timings).toBe(timings);
  });

  it('measures only queue and database to the first rows unless rows are timed', async () => {
    const result = await runQuery({ connector, sql, rowCap: 10_000, timeoutMs: 10_000, transformations: hashEmails });
    await writeResult('json', result, fastSink(), { maxRows: 10_000 });
    expect(Object.keys(result.stats.timings).sort()).toEqual(['databaseMs', 'queueMs']);
  });

  it('splits each row between database, transformations and writer when rows are timed', async () => {
    const plain = await runQuery({ connector, sql, rowCap: 10_000, timeoutMs: 10_000, timeRows: true });
    await writeResult('json', plain, fastSink(), { maxRows: 10_000 });
    // No rule: every wait for a row is the database's.
    expect(plain.stats.timings.transformMs).toBe(0);

    const masked = await runQuery({
      connector,
      sql,
      rowCap: 10_000,
      timeoutMs: 10_000,
      timeRows: true,
      transformations: hashEmails,
    });
    const started = performance.now();
    await writeResult('json', masked, slowSink(40), { maxRows: 10_000 });
    const elapsed = performance.now() - started;
    const { queueMs = -1, databaseMs = -1, transformMs = -1, writeMs = -1 } = masked.stats.timings;
    expect(queueMs).toBeGreaterThanOrEqual(0);
    expect(transformMs).toBeGreaterThan(0);
    // The sink takes 40 ms a chunk: that is the writer's time, not the database's nor the rules'.
    expect(writeMs).toBeGreaterThanOrEqual(35);
    expect(writeMs).toBeGreaterThan(databaseMs);
    expect(writeMs).toBeGreaterThan(transformMs);
    // The stages after the first rows share the writer's elapsed time, they do not add to more.
    expect(transformMs + writeMs).toBeLessThanOrEqual(elapsed + 1);
  });
});
