import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { texts } from '@datalab/contract/texts';
import {
  createMysqlTestDatabase,
  createPostgresTestDatabase,
  mysqlAvailable,
  postgresAvailable,
  type TestDatabase,
} from '@datalab/engine/testing/databases';
import { buildAsset, type CollectionRef } from '../../test/support/orders-source.ts';
import { freePort } from '../../test/support/ports.ts';
import { buildCollection, buildPerson, unique, type Person } from '../../test/support/builders.ts';
import { describeApp } from '../../test/support/suite.ts';
import { startTcpProxy, type TcpProxy } from '../../test/support/tcp-proxy.ts';

// A data source's database going down under a running app (faults): an asset over PostgreSQL and one over
// MariaDB reach their databases through TCP proxies of the test's own; cut, a call answers 502 with product §8's text
// (nothing about the database in the reply) and quickly; restored, the same call answers 200 again (the engine's
// pool drops the dead connections). A port nobody listens on is a 502 too. The preview call's 502 is covered in
// modules/data-sources/engine-errors.test.ts; here it is the calling layer, with connections that worked before.

const SOURCES = [
  { kind: 'postgres' as const, port: 5432, available: postgresAvailable, create: createPostgresTestDatabase },
  { kind: 'mysql' as const, port: 3306, available: mysqlAvailable, create: createMysqlTestDatabase },
];

describeApp('data source database down', (context) => {
  let owner: Person;
  let reader: Person;
  let collection: CollectionRef;

  beforeAll(async () => {
    const t = context();
    [owner, reader] = await Promise.all([buildPerson(t), buildPerson(t)]);
    collection = await buildCollection(t, owner, { roles: [[reader, 'Reader']] });
  });

  async function connection(kind: 'postgres' | 'mysql', database: TestDatabase['settings'], port: number) {
    const response = await owner.call('POST', '/api/SqlConnection', {
      collectionUid: collection.uid,
      name: unique(kind),
      kind,
      host: '127.0.0.1',
      port,
      database: database.database,
      username: database.user,
      ...(database.password ? { password: database.password } : {}),
      poolMax: 2,
      acquireTimeoutMs: 2000,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: number }>().id;
  }

  const expectBadGateway = (response: { statusCode: number; json: () => unknown; body: string }) => {
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ status: 502, code: 'upstream', title: texts.badGateway });
    expect(response.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|Connection terminated/);
  };

  for (const source of SOURCES) {
    (source.available ? describe : describe.skip)(source.kind, () => {
      let database: TestDatabase;
      let proxy: TcpProxy;
      let uid: string;

      beforeAll(async () => {
        database = await source.create();
        await database.exec('create table orders (id integer primary key, region varchar(20) not null)');
        await database.exec("insert into orders values (1, 'North'), (2, 'South')");
        proxy = await startTcpProxy({ port: source.port });
        const connectionId = await connection(source.kind, database.settings, proxy.port);
        uid = (await buildAsset(owner, collection, connectionId, { sql: 'select id, region from orders order by id' }))
          .uid;
      });
      afterAll(async () => {
        await proxy?.close();
        await database?.drop();
      });

      it('answers 502 with product §8 text while its database is cut off, then 200 once it is back', async () => {
        const before = await reader.call('GET', `/data/v1/${uid}`);
        expect(before.statusCode, before.body).toBe(200);
        expect(before.json<{ rows: unknown[] }>().rows).toHaveLength(2);

        await proxy.cut();
        for (let i = 0; i < 2; i += 1) {
          const started = performance.now();
          expectBadGateway(await reader.call('GET', `/data/v1/${uid}`));
          expect(performance.now() - started).toBeLessThan(3000);
        }

        await proxy.restore();
        const after = await reader.call('GET', `/data/v1/${uid}`);
        expect(after.statusCode, after.body).toBe(200);
        expect(after.json<{ rows: unknown[] }>().rows).toHaveLength(2);
      });

      it('answers 502 when nothing listens on the port', async () => {
        const connectionId = await connection(source.kind, database.settings, await freePort());
        const asset = await buildAsset(owner, collection, connectionId, { sql: 'select 1 as one' });
        expectBadGateway(await reader.call('GET', `/data/v1/${asset.uid}`));
      });
    });
  }
});
