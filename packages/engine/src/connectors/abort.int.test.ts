import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collect,
  createMysqlTestDatabase,
  createPostgresTestDatabase,
  mysqlAvailable,
  postgresAvailable,
  type TestDatabase,
} from '../../test/support/databases.ts';
import type { Connector } from '../types.ts';
import { createMysqlConnector } from './mysql.ts';
import { createPostgresConnector } from './postgres.ts';

// A caller who goes away while its run is still waiting for the pool to open a connection (an HTTP client that
// disconnects, a load generator stopping mid-call) must not keep that connection: once every slot had leaked so,
// each later run waited for a connection that never came back and failed (UNREACHABLE after the pool's timeout).

const servers = [
  {
    name: 'PostgreSQL',
    available: postgresAvailable,
    database: createPostgresTestDatabase,
    connector: (db: TestDatabase) =>
      createPostgresConnector({ ...db.settings, maxConnections: 2, acquireTimeoutMs: 2000 }),
  },
  {
    name: 'MySQL/MariaDB',
    available: mysqlAvailable,
    database: createMysqlTestDatabase,
    connector: (db: TestDatabase) =>
      createMysqlConnector({ ...db.settings, maxConnections: 2, acquireTimeoutMs: 2000 }),
  },
];

describe.each(servers)('$name connector, runs given up on while connecting', (server) => {
  let db: TestDatabase;

  beforeAll(async () => {
    if (server.available) db = await server.database();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it.skipIf(!server.available)('gives the connection back to the pool, so later runs still get one', async () => {
    // A fresh pool has no connection yet: every run below waits for one to be opened when it is aborted.
    const connector: Connector = server.connector(db);
    try {
      const aborted = Array.from({ length: 2 }, () => {
        const controller = new AbortController();
        const run = connector.run({ sql: 'select 1', values: {}, timeoutMs: 5000, signal: controller.signal });
        setImmediate(() => controller.abort());
        return run.then(
          () => 'ran',
          (error: { code?: string }) => error.code,
        );
      });
      expect(await Promise.all(aborted)).toEqual(['CANCELLED', 'CANCELLED']);
      for (let i = 0; i < 3; i += 1) {
        const next = await connector.run({ sql: 'select 1 as ok', values: {}, timeoutMs: 5000 });
        expect(await collect(next.rows)).toEqual([{ ok: 1 }]);
      }
    } finally {
      await connector.close();
    }
  });
});
