import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCacheKeys } from '@datalab/contract/api/caching';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { buildPerson, callAs } from '../../../test/support/builders.ts';
import { type Instances, startInstances } from '../../../test/support/instances.ts';
import { isPostgresAvailable } from '../../../test/support/stores.ts';
import { buildCacheWorld } from './test-world.ts';

// The result cache in Redis through the whole app: two instances on one PostgreSQL store and one Redis (database
// 9 of the machine's Redis) share entries, and a purge on one is seen by the other; an instance whose Redis cannot
// be reached (a closed port — the machine's Redis keeps running) still answers every call, uncached.

const postgres = await isPostgresAvailable();
const REDIS_URL = 'redis://127.0.0.1:6379/9';

const keysOf = (response: { json: () => unknown }) => getCacheKeys.response.parse(response.json());

(postgres ? describe : describe.skip)('result cache shared by instances through Redis [postgres]', () => {
  let instances: Instances;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    instances = await startInstances(2, { REDIS_URL, DEMO_SHOP_ORDERS: '200' });
    [first, second] = instances.apps as [TestApp, TestApp];
  });

  afterAll(async () => {
    await instances?.close();
  });

  it('serves one instance’s entry from the other, lists it on both, and a purge on one empties both', async () => {
    const owner = await buildPerson(first);
    const admin = await buildPerson(first, { canManageUsers: true });
    const asset = await (await buildCacheWorld(first, owner)).cachedAsset({ withParameter: false });
    // The same people on the second instance: same store, same signing key (one data directory).
    const ownerTwo = callAs(second, owner.token);
    const adminTwo = callAs(second, admin.token);

    expect((await owner.call('GET', `/data/v1/${asset.uid}`)).json()).toMatchObject({ cached: false });
    expect((await ownerTwo('GET', `/data/v1/${asset.uid}`)).json()).toMatchObject({ cached: true });
    const listed = keysOf(await adminTwo('GET', '/api/Caching/GetCacheKeys'));
    expect(listed.items).toEqual([
      expect.objectContaining({ type: 'results', asset: { uid: asset.uid, name: expect.any(String) }, hits: 1 }),
    ]);

    const purged = await adminTwo('POST', '/api/Caching/PurgeCache', {});
    expect(purged.json()).toEqual({ removed: 1 });
    expect(keysOf(await admin.call('GET', '/api/Caching/GetCacheKeys')).totalCount).toBe(0);
    expect((await owner.call('GET', `/data/v1/${asset.uid}`)).json()).toMatchObject({ cached: false });
  });
});

describe('result cache with Redis unreachable', () => {
  let t: TestApp;

  beforeAll(async () => {
    // A port that was free a moment ago and now has no listener.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    t = await createTestApp('sqlite', { REDIS_URL: `redis://127.0.0.1:${port}` });
  });
  afterAll(async () => t?.close());

  it('answers every call uncached, and the cache screen lists nothing', async () => {
    const owner = await buildPerson(t);
    const admin = await buildPerson(t, { canManageUsers: true });
    const asset = await (await buildCacheWorld(t, owner)).cachedAsset({ withParameter: false });
    for (let i = 0; i < 2; i += 1) {
      const response = await owner.call('GET', `/data/v1/${asset.uid}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ cached: false });
    }
    const listed = await admin.call('GET', '/api/Caching/GetCacheKeys');
    expect(listed.statusCode).toBe(200);
    expect(keysOf(listed).items).toEqual([]);
    expect((await admin.call('POST', '/api/Caching/PurgeCache', {})).json()).toEqual({ removed: 0 });
  });
});
