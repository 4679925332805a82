import { createServer, type Server } from 'node:net';
import { hostname } from 'node:os';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sqlConnection } from '@datalab/contract/api/sql-connections';
import { validationProblem } from '@datalab/contract/errors';
import type { Resolver } from '@datalab/engine';
import type { TestApp } from '../../../test/support/app.ts';
import { buildCollection, buildPerson, unique } from '../../../test/support/builders.ts';
import { describeApp, describeEachStore } from '../../../test/support/suite.ts';
import { STORE_DATABASE_REFUSED } from './target-policy.ts';
import { ensureTestReader, postgresConnectionBody } from '../../../test/support/readers.ts';

// Where SQL connections may point: public hosts only unless SQL_HOST_ALLOWLIST allows a host (its names, addresses
// and blocks, even internal), never a metadata address, and never the metadata store's own PostgreSQL database.
// Hosts are judged on the addresses they resolve to, on create, edit and test, and again by every socket when it
// connects: a refused address is never connected to. Names resolve through a hook here (no real DNS).

const HINT = 'an administrator may allow it with SQL_HOST_ALLOWLIST';

/** A TCP listener on loopback that counts the connections it gets: a refused target must never be touched. */
class Listener {
  server: Server | undefined;
  connections = 0;
  port = 0;
  async start() {
    this.server = createServer((socket) => {
      this.connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }
  async stop() {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** Names as a zone would answer them; `flip.example` answers a public address first, then loopback (rebinding). */
let flips = 0;
const zone: Resolver = async (name) => {
  const answers: Record<string, string> = {
    'db.internal': '10.0.0.5',
    'loop.example': '127.0.0.1',
    'mapped.example': '::ffff:127.0.0.1',
    'public.example': '93.184.216.34',
    'pg.internal': '127.0.0.1',
    localhost: '127.0.0.1',
  };
  if (name === 'flip.example') {
    flips += 1;
    return [{ address: flips === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
  }
  const address = answers[name];
  if (!address) throw Object.assign(new Error(`no such name ${name}`), { code: 'ENOTFOUND' });
  return [{ address, family: address.includes(':') ? 6 : 4 }];
};

async function world(t: TestApp) {
  const owner = await buildPerson(t);
  const reader = await buildPerson(t);
  const collection = await buildCollection(t, owner, { roles: [[reader, 'Reader']] });
  return { owner, reader, collection };
}

const settingsOf = ({ collectionUid: _c, ...rest }: ReturnType<typeof postgresConnectionBody>) => rest;

/** Moves a stored connection elsewhere behind the API's back, as a row saved under an older configuration. */
async function moveStoredConnection(
  t: TestApp,
  id: number,
  values: { host?: string; port?: number; database_name?: string },
) {
  await t.app.db
    .updateTable('connections')
    .set({ ...values, updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .execute();
}

// Connections sign in as the test reader: the server refuses a superuser as a data source's account.
beforeAll(ensureTestReader);

describeApp(
  'SQL hosts without SQL_HOST_ALLOWLIST (public only)',
  (ctx) => {
    const listener = new Listener();
    beforeAll(() => listener.start());
    afterAll(() => listener.stop());

    it('refuses loopback, private, metadata and internal names in every form, on create, test and edit', async () => {
      const { owner, collection } = await world(ctx());
      const saved = await owner.call(
        'POST',
        '/api/SqlConnection',
        postgresConnectionBody(collection.uid, { host: 'public.example' }),
      );
      expect(saved.statusCode, saved.body).toBe(201);
      const id = sqlConnection.parse(saved.json()).id;
      const cases: [host: string, message: string][] = [
        ['127.0.0.1', `The host 127.0.0.1 is a loopback address; ${HINT}`],
        ['127.1', `The host 127.0.0.1 is a loopback address; ${HINT}`],
        ['2130706433', `The host 127.0.0.1 is a loopback address; ${HINT}`],
        ['0x7f.0.0.1', `The host 127.0.0.1 is a loopback address; ${HINT}`],
        ['[::1]', `The host ::1 is a loopback address; ${HINT}`],
        ['::ffff:127.0.0.1', `The host ::ffff:7f00:1 is a loopback address inside an IPv6 address; ${HINT}`],
        ['0.0.0.0', `The host 0.0.0.0 is a "this network" address (0.0.0.0/8); ${HINT}`],
        ['10.0.0.5', `The host 10.0.0.5 is a private address; ${HINT}`],
        ['192.168.1.20', `The host 192.168.1.20 is a private address; ${HINT}`],
        ['fd00::5', `The host fd00::5 is a unique-local address; ${HINT}`],
        ['169.254.169.254', 'The host 169.254.169.254 is a cloud metadata address and cannot be reached'],
        [
          'metadata.google.internal',
          'The host metadata.google.internal is a cloud metadata service and cannot be reached',
        ],
        ['db.internal', `The host db.internal resolves to 10.0.0.5, a private address; ${HINT}`],
        ['loop.example', `The host loop.example resolves to 127.0.0.1, a loopback address; ${HINT}`],
        ['LOCALHOST.', `The host localhost resolves to 127.0.0.1, a loopback address; ${HINT}`],
        [
          'mapped.example',
          `The host mapped.example resolves to ::ffff:127.0.0.1, a loopback address inside an IPv6 address; ${HINT}`,
        ],
        [
          '/var/run/postgresql',
          'The host /var/run/postgresql is a Unix socket of this machine; use a host name or address',
        ],
      ];
      for (const [host, message] of cases) {
        const body = postgresConnectionBody(collection.uid, { host });
        const expected = { host: [message] };
        const created = await owner.call('POST', '/api/SqlConnection', body);
        expect(created.statusCode, host).toBe(400);
        expect(validationProblem.parse(created.json()).errors, host).toEqual(expected);
        const tested = await owner.call('POST', '/api/SqlConnection/Test', body);
        expect(validationProblem.parse(tested.json()).errors, host).toEqual(expected);
        const edited = await owner.call('PUT', `/api/SqlConnection/${id}`, settingsOf(body));
        expect(validationProblem.parse(edited.json()).errors, host).toEqual(expected);
      }
      // MariaDB connections follow the same rule.
      const mysql = postgresConnectionBody(collection.uid, { kind: 'mysql', port: 3306, username: 'root' });
      const refused = await owner.call('POST', '/api/SqlConnection/Test', mysql);
      expect(validationProblem.parse(refused.json()).errors).toEqual({
        host: [`The host 127.0.0.1 is a loopback address; ${HINT}`],
      });
    });

    it('never connects to a refused address: not when it is written, nor when a name rebinds to it', async () => {
      const { owner, collection } = await world(ctx());
      const direct = postgresConnectionBody(collection.uid, { port: listener.port });
      expect((await owner.call('POST', '/api/SqlConnection/Test', direct)).statusCode).toBe(400);
      // Saved while the name answered a public address; by the time it connects, the name answers loopback.
      flips = 0;
      const saved = await owner.call(
        'POST',
        '/api/SqlConnection',
        postgresConnectionBody(collection.uid, { host: 'flip.example', port: listener.port }),
      );
      expect(saved.statusCode, saved.body).toBe(201);
      const id = sqlConnection.parse(saved.json()).id;
      for (const kind of ['postgres', 'mysql'] as const) {
        await ctx()
          .app.db.updateTable('connections')
          .set({ driver: kind, updated_at: new Date().toISOString() })
          .where('id', '=', id)
          .execute();
        const schema = await owner.call('GET', `/api/SqlConnection/${id}/Schema`);
        expect(schema.statusCode, schema.body).toBe(400);
        expect(validationProblem.parse(schema.json()).errors).toEqual({
          host: [`The host flip.example resolves to 127.0.0.1, a loopback address; ${HINT}`],
        });
      }
      expect(listener.connections).toBe(0);
    });

    it('refuses every run of a connection stored with a host that is not allowed', async () => {
      const { owner, reader, collection } = await world(ctx());
      const created = await owner.call(
        'POST',
        '/api/SqlConnection',
        postgresConnectionBody(collection.uid, { host: 'public.example' }),
      );
      const id = sqlConnection.parse(created.json()).id;
      await moveStoredConnection(ctx(), id, { host: '127.0.0.1', port: listener.port });
      const asset = await owner.call('POST', '/api/SqlDataSource', {
        collectionUid: collection.uid,
        connectionId: id,
        name: unique('One'),
        sql: 'select 1 as one',
      });
      expect(asset.statusCode, asset.body).toBe(201);
      const uid = asset.json<{ uid: string }>().uid;
      const expected = { host: [`The host 127.0.0.1 is a loopback address; ${HINT}`] };
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
      expect(listener.connections).toBe(0);
    });
  },
  { env: { SQL_HOST_ALLOWLIST: '' }, resolveHost: zone },
);

describeApp(
  'SQL hosts with SQL_HOST_ALLOWLIST',
  (ctx) => {
    it('reaches the listed hosts, addresses and blocks, internal or not, and nothing else', async () => {
      const { owner, collection } = await world(ctx());
      // An address with its port; a name resolving to it; a listed name; a block.
      for (const host of ['127.0.0.1', 'loop.example', 'pg.internal']) {
        const tested = await owner.call(
          'POST',
          '/api/SqlConnection/Test',
          postgresConnectionBody(collection.uid, { host }),
        );
        expect(tested.statusCode, `${host}: ${tested.body}`).toBe(200);
      }
      const mysql = postgresConnectionBody(collection.uid, {
        kind: 'mysql',
        host: '127.0.0.2',
        port: 3306,
        username: 'root',
      });
      expect((await owner.call('POST', '/api/SqlConnection', mysql)).statusCode).toBe(201);
      const refusals: [host: string, port: number, message: string][] = [
        // Another port of a listed address: refused as any loopback address.
        ['127.0.0.1', 3306, `The host 127.0.0.1 is a loopback address; ${HINT}`],
        ['db.internal', 5432, `The host db.internal resolves to 10.0.0.5, a private address; ${HINT}`],
        // No `*` in the list: public hosts not listed are refused too.
        [
          'public.example',
          5432,
          'The database host public.example:5432 (93.184.216.34) is not in SQL_HOST_ALLOWLIST; an administrator may add it',
        ],
        ['169.254.169.254', 5432, 'The host 169.254.169.254 is a cloud metadata address and cannot be reached'],
      ];
      for (const [host, port, message] of refusals) {
        const created = await owner.call(
          'POST',
          '/api/SqlConnection',
          postgresConnectionBody(collection.uid, { host, port }),
        );
        expect(created.statusCode, host).toBe(400);
        expect(validationProblem.parse(created.json()).errors, host).toEqual({ host: [message] });
      }
    });
  },
  {
    env: { SQL_HOST_ALLOWLIST: '127.0.0.1:5432, pg.internal, 127.0.0.2/31:3306, 169.254.0.0/16' },
    resolveHost: zone,
  },
);

describeEachStore(
  "the metadata store's own database",
  (ctx, store) => {
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
        const body = postgresConnectionBody(collection.uid, { host, database });
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
      const other = await owner.call('POST', '/api/SqlConnection', postgresConnectionBody(collection.uid));
      expect(other.statusCode, other.body).toBe(201);
      const otherPort = postgresConnectionBody(collection.uid, { database, port: 5433 });
      expect((await owner.call('POST', '/api/SqlConnection', otherPort)).statusCode).toBe(201);
      if (store === 'postgres') {
        const id = sqlConnection.parse(other.json()).id;
        const edited = await owner.call('PUT', `/api/SqlConnection/${id}`, {
          ...settingsOf(postgresConnectionBody(collection.uid, { database })),
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
        (await owner.call('POST', '/api/SqlConnection', postgresConnectionBody(collection.uid))).json(),
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
  },
  // Every address (but metadata) allowed: the store's database is refused for what it is, not for its host.
  { env: { SQL_HOST_ALLOWLIST: '0.0.0.0/0, ::/0' } },
);
