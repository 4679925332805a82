import { hostname } from 'node:os';
import { beforeAll, expect, it } from 'vitest';
import { sqlConnection } from '@datalab/contract/api/sql-connections';
import { validationProblem } from '@datalab/contract/errors';
import type { TestApp } from '../../testing/app.ts';
import { buildCollection, buildPerson, unique } from '../../testing/builders.ts';
import { describeEachStore } from '../../testing/suite.ts';
import { hostNotAllowed, STORE_DATABASE_REFUSED } from './target-policy.ts';
import { TEST_READER, ensureTestReader } from '../../testing/readers.ts';

// Where SQL connections may point: the hosts of SQL_HOST_ALLOWLIST (when set) and never the metadata store's own
// PostgreSQL database. Checked on create, edit and test, and again before every run, so a connection stored before
// the rule (or the list) changed runs nothing: test, schema, preview and the calling layer all answer 400.

async function world(t: TestApp) {
  const owner = await buildPerson(t);
  const reader = await buildPerson(t);
  const collection = await buildCollection(t, owner, { roles: [[reader, 'Reader']] });
  return { owner, reader, collection };
}

const postgresBody = (collectionUid: string, overrides: Record<string, unknown> = {}) => ({
  collectionUid,
  name: unique('Warehouse'),
  kind: 'postgres',
  host: '127.0.0.1',
  port: 5432,
  database: 'postgres',
  username: TEST_READER,
  ...overrides,
});

const settingsOf = ({ collectionUid: _c, ...rest }: ReturnType<typeof postgresBody>) => rest;

/** Moves a stored connection elsewhere behind the API's back, as a row saved under an older configuration. */
async function moveStoredConnection(t: TestApp, id: number, values: { host?: string; database_name?: string }) {
  await t.app.db
    .updateTable('connections')
    .set({ ...values, updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .execute();
}

// Connections sign in as the test reader: the server refuses a superuser as a data source's account.
beforeAll(ensureTestReader);

describeEachStore(
  'SQL_HOST_ALLOWLIST',
  (ctx) => {
    it('lets connections reach the listed hosts only, on create, edit and test', async () => {
      const { owner, collection } = await world(ctx());
      const allowed = await owner.call('POST', '/api/SqlConnection', postgresBody(collection.uid));
      expect(allowed.statusCode, allowed.body).toBe(201);
      // `localhost` is listed without a port: any port.
      const mysql = postgresBody(collection.uid, { kind: 'mysql', host: 'LOCALHOST', port: 3306, username: 'root' });
      expect((await owner.call('POST', '/api/SqlConnection', mysql)).statusCode).toBe(201);
      const sqlite = {
        collectionUid: collection.uid,
        name: unique('File'),
        kind: 'sqlite',
        database: 'demo/shop.sqlite',
      };
      expect((await owner.call('POST', '/api/SqlConnection', sqlite)).statusCode).toBe(201);

      for (const [host, port] of [
        ['127.0.0.1', 3306],
        ['db.example.invalid', 5432],
        ['127.0.0.2', 5432],
      ] as const) {
        const body = postgresBody(collection.uid, { host, port });
        const expected = { host: [hostNotAllowed(host, port)] };
        const created = await owner.call('POST', '/api/SqlConnection', body);
        expect(created.statusCode, host).toBe(400);
        expect(validationProblem.parse(created.json()).errors).toEqual(expected);
        const tested = await owner.call('POST', '/api/SqlConnection/Test', body);
        expect(validationProblem.parse(tested.json()).errors).toEqual(expected);
        const id = sqlConnection.parse(allowed.json()).id;
        const edited = await owner.call('PUT', `/api/SqlConnection/${id}`, settingsOf(body));
        expect(validationProblem.parse(edited.json()).errors).toEqual(expected);
      }
      const kept = await owner.call('GET', `/api/SqlConnection/${sqlConnection.parse(allowed.json()).id}`);
      expect(kept.json()).toMatchObject({ host: '127.0.0.1', port: 5432 });
    });

    it('refuses every run of a connection stored with a host no longer allowed', async () => {
      const { owner, reader, collection } = await world(ctx());
      const id = sqlConnection.parse(
        (await owner.call('POST', '/api/SqlConnection', postgresBody(collection.uid))).json(),
      ).id;
      const created = await owner.call('POST', '/api/SqlDataSource', {
        collectionUid: collection.uid,
        connectionId: id,
        name: unique('One'),
        sql: 'select 1 as one',
      });
      expect(created.statusCode, created.body).toBe(201);
      const uid = created.json<{ uid: string }>().uid;
      expect((await reader.call('GET', `/data/v1/${uid}`)).statusCode).toBe(200);

      await moveStoredConnection(ctx(), id, { host: '192.0.2.10' });
      const expected = { host: [hostNotAllowed('192.0.2.10', 5432)] };
      const replies = {
        test: await owner.call('POST', `/api/SqlConnection/${id}/Test`),
        schema: await owner.call('GET', `/api/SqlConnection/${id}/Schema`),
        preview: await owner.call('POST', '/api/SqlDataSource/Preview', {
          collectionUid: collection.uid,
          connectionId: id,
          sql: 'select 1 as one',
        }),
        call: await reader.call('GET', `/data/v1/${uid}`),
        export: await reader.call('GET', `/data/v1/${uid}?format=csv`),
      };
      for (const [what, reply] of Object.entries(replies)) {
        expect(reply.statusCode, `${what}: ${reply.body}`).toBe(400);
        expect(validationProblem.parse(reply.json()).errors, what).toEqual(expected);
      }
    });
  },
  { env: { SQL_HOST_ALLOWLIST: '127.0.0.1:5432, localhost' } },
);

describeEachStore("the metadata store's own database", (ctx, store) => {
  const storeDatabase = () => {
    const database = ctx().config.database;
    return database.kind === 'postgres' ? decodeURIComponent(new URL(database.url).pathname.slice(1)) : undefined;
  };

  it('is refused as a connection target under any name of this machine, on create, edit and test', async () => {
    const { owner, collection } = await world(ctx());
    const database = storeDatabase() ?? 'datalab_store_elsewhere';
    // Names of this machine as written, then forms only a lookup reveals (127.1 and 2130706433 are 127.0.0.1).
    const hosts = ['127.0.0.1', 'localhost', 'LOCALHOST.', '[::1]', '0.0.0.0', hostname(), '127.1', '2130706433'];
    for (const host of hosts) {
      const body = postgresBody(collection.uid, { host, database });
      const created = await owner.call('POST', '/api/SqlConnection', body);
      if (store === 'sqlite') {
        // The embedded store is a file: a PostgreSQL database of that name is just another database.
        expect(created.statusCode, created.body).toBe(201);
        continue;
      }
      expect(created.statusCode, host).toBe(400);
      expect(validationProblem.parse(created.json()).errors, host).toEqual({ database: [STORE_DATABASE_REFUSED] });
      const tested = await owner.call('POST', '/api/SqlConnection/Test', body);
      expect(validationProblem.parse(tested.json()).errors, host).toEqual({ database: [STORE_DATABASE_REFUSED] });
    }
    // Another database of the same server, or the same name on another port, is fine.
    const other = await owner.call('POST', '/api/SqlConnection', postgresBody(collection.uid));
    expect(other.statusCode, other.body).toBe(201);
    const otherPort = postgresBody(collection.uid, { database, port: 5433 });
    expect((await owner.call('POST', '/api/SqlConnection', otherPort)).statusCode).toBe(201);
    if (store === 'postgres') {
      const id = sqlConnection.parse(other.json()).id;
      const edited = await owner.call('PUT', `/api/SqlConnection/${id}`, {
        ...settingsOf(postgresBody(collection.uid, { database })),
        name: sqlConnection.parse(other.json()).name,
      });
      expect(validationProblem.parse(edited.json()).errors).toEqual({ database: [STORE_DATABASE_REFUSED] });
    }
  });

  it('refuses a run of a stored connection that points at it', async () => {
    const database = storeDatabase();
    if (!database) return; // only a PostgreSQL store has a database to protect
    const { owner, collection } = await world(ctx());
    const id = sqlConnection.parse(
      (await owner.call('POST', '/api/SqlConnection', postgresBody(collection.uid))).json(),
    ).id;
    expect((await owner.call('POST', `/api/SqlConnection/${id}/Test`)).statusCode).toBe(200);
    await moveStoredConnection(ctx(), id, { database_name: database, host: 'localhost' });
    for (const reply of [
      await owner.call('POST', `/api/SqlConnection/${id}/Test`),
      await owner.call('GET', `/api/SqlConnection/${id}/Schema`),
      await owner.call('POST', '/api/SqlDataSource/Preview', {
        collectionUid: collection.uid,
        connectionId: id,
        sql: 'select name from users',
      }),
    ]) {
      expect(reply.statusCode, reply.body).toBe(400);
      expect(validationProblem.parse(reply.json()).errors).toEqual({ database: [STORE_DATABASE_REFUSED] });
    }
  });
});
