import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { STORE_UNAVAILABLE_MESSAGE } from '../lib/store-errors.ts';
import {
  buildAsset,
  buildConnection,
  createSqliteSource,
  type CollectionRef,
} from '../../test/support/orders-source.ts';
import { createTestApp, type TestApp } from '../../test/support/app.ts';
import { buildCollection, buildPerson, unique, type Person } from '../../test/support/builders.ts';
import { createPostgresDatabase, isPostgresAvailable } from '../../test/support/stores.ts';
import { startTcpProxy, type TcpProxy } from '../../test/support/tcp-proxy.ts';
import { buildTokenCaller } from '../../test/support/token-caller.ts';

// The PostgreSQL metadata store going away under a running app (faults): the app reaches the machine's
// PostgreSQL through a TCP proxy of the test's own, which it cuts (a closed port) or hangs (a network that drops
// everything). Readiness fails and liveness stays green; every call with a valid credential answers 503 with a
// clear message — never 200, never a 500, never a door left open by a check that could not read the store — and
// fails fast; once the proxy relays again, everything answers as before without a restart. SQLite, the embedded
// store, is a file in the process: its faults are a file that refuses to serve (the last suite).

const postgres = await isPostgresAvailable();
const CONNECT_TIMEOUT_MS = 1000;

(postgres ? describe : describe.skip)('metadata store unreachable [postgres]', () => {
  let proxy: TcpProxy;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let t: TestApp;
  let admin: Person;
  let owner: Person;
  let reader: Person;
  let collection: CollectionRef;
  let assetUid: string;
  let readerToken: Person;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const real = new URL(database.url);
    proxy = await startTcpProxy({ port: Number(real.port || 5432) });
    const viaProxy = new URL(database.url);
    viaProxy.host = proxy.address;
    t = await createTestApp('sqlite', {
      DATABASE_URL: viaProxy.href,
      DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
    });
    [admin, owner, reader] = await Promise.all([
      buildPerson(t, { canManageUsers: true }),
      buildPerson(t),
      buildPerson(t),
    ]);
    collection = await buildCollection(t, owner, { roles: [[reader, 'Reader']] });
    const connectionId = await buildConnection(owner, collection, { driver: 'sqlite', path: createSqliteSource(t) });
    // Cached for an hour: a cached answer must not be handed out while the caller cannot be checked.
    const asset = await buildAsset(owner, collection, connectionId, {
      sql: 'select id, region from orders order by id',
      cacheTtlSeconds: 3600,
    });
    assetUid = asset.uid;
    readerToken = await buildTokenCaller(t, reader, {
      kind: 'personal',
      roles: [{ collectionUid: collection.uid, role: 'Reader' }],
    });
  });

  afterAll(async () => {
    await proxy?.restore();
    await t?.close();
    await proxy?.close();
    await database?.drop();
  });

  /** One call of each family: account, collections, users, logs, cache, tokens, the calling layer (both credentials). */
  const calls = () => [
    { name: 'current user', run: () => reader.call('GET', '/api/Account/GetCurrentUser') },
    { name: 'collections', run: () => owner.call('GET', '/api/DataSourceCollection/GetAll') },
    { name: 'collection', run: () => reader.call('GET', `/api/DataSourceCollection/GetByUid/${collection.uid}`) },
    { name: 'users', run: () => admin.call('GET', '/api/User') },
    { name: 'logs', run: () => admin.call('GET', '/api/ApplicationLog/GetApplicationLogs') },
    { name: 'cache keys', run: () => admin.call('GET', '/api/Caching/GetCacheKeys') },
    { name: 'tokens', run: () => reader.call('GET', '/api/Token/GetAllPersonalAccessTokens') },
    { name: 'asset', run: () => reader.call('GET', `/data/v1/${assetUid}`) },
    { name: 'asset, Data Lab token', run: () => readerToken.call('GET', `/data/v1/${assetUid}`) },
  ];

  async function statuses() {
    const found: Record<string, number> = {};
    for (const call of calls()) found[call.name] = (await call.run()).statusCode;
    return found;
  }

  const everyStatus = (status: number) => Object.fromEntries(calls().map((call) => [call.name, status]));

  it('serves every call family while the store is there (and fills the cache)', async () => {
    expect(await statuses()).toEqual(everyStatus(200));
    expect((await t.app.inject({ method: 'GET', url: '/health/ready' })).json()).toEqual({
      status: 'ok',
      checks: { store: 'ok' },
    });
  });

  it('cut: readiness 503, liveness 200, every call 503 with a clear message and fast, nothing written', async () => {
    await proxy.cut();
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', checks: { store: 'failing' } });
    expect((await t.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);

    for (const call of calls()) {
      const started = performance.now();
      const response = await call.run();
      const ms = performance.now() - started;
      expect({ call: call.name, status: response.statusCode }).toEqual({ call: call.name, status: 503 });
      expect(response.json()).toMatchObject({
        status: 503,
        code: 'unavailable',
        title: 'Service unavailable',
        detail: STORE_UNAVAILABLE_MESSAGE,
        requestId: expect.any(String),
      });
      expect(response.headers['retry-after']).toBe('5');
      expect(response.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/i);
      expect(ms, call.name).toBeLessThan(CONNECT_TIMEOUT_MS + 1500);
    }

    // A token never seen before (its user must be provisioned) is not let through either.
    const newcomer = await buildPerson(t).catch(() => undefined);
    expect(newcomer?.id).toBeUndefined();
    // Without a credential: 401 as ever (nothing to read), never 200.
    expect((await t.app.inject({ method: 'GET', url: '/api/Account/GetCurrentUser' })).statusCode).toBe(401);
    // A write is refused whole.
    const name = unique('During the outage');
    const write = await admin.call('POST', '/api/UserGroup', { name });
    expect(write.statusCode).toBe(503);

    await proxy.restore();
    const groups = await admin.call('GET', '/api/UserGroup');
    expect(groups.statusCode).toBe(200);
    expect(groups.body).not.toContain(name);
  });

  it('hang: calls and readiness fail within their time limits instead of waiting on the dead network', async () => {
    await proxy.hang();
    const started = performance.now();
    const [ready, call, live] = await Promise.all([
      t.app.inject({ method: 'GET', url: '/health/ready' }),
      reader.call('GET', '/api/Account/GetCurrentUser'),
      t.app.inject({ method: 'GET', url: '/health/live' }),
    ]);
    const ms = performance.now() - started;
    expect(live.statusCode).toBe(200);
    expect(ready.statusCode).toBe(503);
    expect(call.statusCode).toBe(503);
    expect(call.json()).toMatchObject({ detail: STORE_UNAVAILABLE_MESSAGE });
    expect(ms).toBeLessThan(CONNECT_TIMEOUT_MS + 2500);
  });

  it('restore: every call answers 200 again, without a restart', async () => {
    await proxy.restore();
    expect((await t.app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
    expect(await statuses()).toEqual(everyStatus(200));
    expect((await buildPerson(t)).id).toEqual(expect.any(Number));
  });
});

// The embedded store cannot fail over a network, but its file can stop serving: another process holding it, a
// read-only or full disk. Made read-only here (`query_only`, as a read-only file system refuses writes), a write
// answers 503 with the same message as a cut network, not 500; readable calls still answer.
describe('metadata store refusing writes [sqlite]', () => {
  let t: TestApp;
  let admin: Person;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    admin = await buildPerson(t, { canManageUsers: true });
  });
  afterAll(async () => t?.close());

  it('answers 503 with a clear message while the file refuses writes, and serves again after', async () => {
    await sql`pragma query_only = on`.execute(t.app.db);
    try {
      const write = await admin.call('POST', '/api/UserGroup', { name: unique('While read-only') });
      expect(write.statusCode, write.body).toBe(503);
      expect(write.json()).toMatchObject({ status: 503, code: 'unavailable', detail: STORE_UNAVAILABLE_MESSAGE });
      expect(write.headers['retry-after']).toBe('5');
      expect(write.body).not.toMatch(/readonly|sqlite/i);
      expect((await admin.call('GET', '/api/UserGroup')).statusCode).toBe(200);
    } finally {
      await sql`pragma query_only = off`.execute(t.app.db);
    }
    expect((await admin.call('POST', '/api/UserGroup', { name: unique('After') })).statusCode).toBe(201);
  });
});
