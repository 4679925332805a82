import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCacheWorld } from '../modules/caching/test-world.ts';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../test/support/app.ts';
import { buildPerson, type Person } from '../../test/support/builders.ts';
import { openLoginForm } from '../../test/support/login-form.ts';
import { startTcpProxy, type TcpProxy } from '../../test/support/tcp-proxy.ts';

// Redis going away under a running app and coming back (faults), through a TCP proxy of the test's own in
// front of the machine's Redis (never stopped: it is shared). What lib/redis-cache.test.ts proves of the cache
// alone is not repeated; here the whole app: every route family keeps answering, readiness stays 200 and names Redis
// as failing, the cache is bypassed, the calling layer's rate limit and the sign-in throttle count in process as
// plugins/rate-limits.ts promises (still enforced: never an open door), and once Redis is back the cache is used
// and the counting is shared again, without a restart.

const REDIS_PORT = 6379;
/** An unusual limit, so that the counters' keys are this test's alone in the shared Redis. */
const LIMIT = 13;
// Under the deployment's namespace (`datalab:<namespace>:data-calls-13:u4`).
const COUNTER_PATTERN = `datalab:*data-calls-${LIMIT}:*`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(100);
  }
}

describe('Redis unreachable, then back', () => {
  let proxy: TcpProxy;
  let direct: Redis;
  let t: TestApp;
  let owner: Person;
  let admin: Person;
  let asset: { uid: string };

  beforeAll(async () => {
    direct = new Redis({ host: '127.0.0.1', port: REDIS_PORT, lazyConnect: true, maxRetriesPerRequest: 1 });
    await direct.connect(); // in CI a missing Redis fails here, loudly
    const stale = await direct.keys(COUNTER_PATTERN);
    if (stale.length > 0) await direct.del(...stale);
    proxy = await startTcpProxy({ port: REDIS_PORT });
    t = await createTestApp('sqlite', {
      REDIS_URL: `redis://${proxy.address}`,
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
    });
    [owner, admin] = await Promise.all([buildPerson(t), buildPerson(t, { canManageUsers: true })]);
    asset = await (await buildCacheWorld(t, owner)).cachedAsset();
  });

  afterAll(async () => {
    await proxy?.restore();
    await t?.close();
    await proxy?.close();
    direct?.disconnect();
  });

  const callAsset = async (most: number) => {
    const response = await owner.call('GET', `/data/v1/${asset.uid}?most=${most}`);
    return { status: response.statusCode, cached: response.json<{ cached?: boolean }>().cached };
  };
  const counted = async () => {
    const keys = await direct.keys(COUNTER_PATTERN);
    return keys.length === 0 ? 0 : Number(await direct.get(keys[0]!));
  };
  const ready = async () => (await t.app.inject({ method: 'GET', url: '/health/ready' })).json<unknown>();

  let countedBeforeCut = 0;

  it('with Redis: caches in it and counts calls in it', async () => {
    // Each of the app's Redis connections is made in the background at start: on a busy machine it takes a moment.
    expect(await eventually(ready, (value) => JSON.stringify(value).includes('"redis":"ok"'))).toEqual({
      status: 'ok',
      checks: { store: 'ok', redis: 'ok' },
    });
    expect(await callAsset(3)).toEqual({ status: 200, cached: false });
    expect(
      await eventually(
        () => callAsset(3),
        (result) => result.cached === true,
      ),
    ).toEqual({
      status: 200,
      cached: true,
    });
    countedBeforeCut = await eventually(
      async () => (await callAsset(4)) && counted(),
      (n) => n > 0,
    );
    expect(countedBeforeCut).toBeGreaterThan(0);
  });

  it('cut: every route family answers, the cache is bypassed, limits still hold in process', async () => {
    await proxy.cut();
    const readiness = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(readiness.statusCode).toBe(200);
    expect(readiness.json()).toEqual({ status: 'ok', checks: { store: 'ok', redis: 'failing' } });
    expect((await t.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);

    const families = {
      'current user': await owner.call('GET', '/api/Account/GetCurrentUser'),
      collections: await owner.call('GET', '/api/DataSourceCollection/GetAll'),
      users: await admin.call('GET', '/api/User'),
      logs: await admin.call('GET', '/api/ApplicationLog/GetApplicationLogs'),
      tokens: await owner.call('GET', '/api/Token/GetAllPersonalAccessTokens'),
      'cache keys': await admin.call('GET', '/api/Caching/GetCacheKeys'),
      purge: await admin.call('POST', '/api/Caching/PurgeCache', {}),
    };
    expect(Object.fromEntries(Object.entries(families).map(([name, r]) => [name, r.statusCode]))).toEqual(
      Object.fromEntries(Object.keys(families).map((name) => [name, 200])),
    );
    expect(families['cache keys'].json()).toMatchObject({ items: [] });
    expect(families.purge.json()).toEqual({ removed: 0 });
    // Sign-in through the real form works without Redis.
    expect(await t.tokenFor('analyst')).toEqual(expect.any(String));

    // The entry cached a moment ago is out of reach: the call runs (answers, uncached) rather than failing.
    expect(await callAsset(3)).toEqual({ status: 200, cached: false });
    expect(await callAsset(3)).toEqual({ status: 200, cached: false });
    // The limit is counted in this process (rate-limits.ts: its in-memory counter, which also took any call made
    // before Redis was first reached), and still refuses within the limit.
    let served = 2;
    let refused = await owner.call('GET', `/data/v1/${asset.uid}?most=3`);
    while (refused.statusCode === 200 && served <= LIMIT) {
      served += 1;
      refused = await owner.call('GET', `/data/v1/${asset.uid}?most=3`);
    }
    expect(served).toBeLessThanOrEqual(LIMIT);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ title: 'The rate limit has been exceeded for this call.' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await counted()).toBe(countedBeforeCut); // nothing reached Redis

    // The sign-in throttle too: four free failures, then a wait.
    const login = await openLoginForm(t.app, TEST_PUBLIC_URL, '10.77.0.1');
    for (let i = 0; i < 4; i += 1) {
      expect((await login.post({ username: 'admin', password: `guess-${i}` })).statusCode).toBe(401);
    }
    expect((await login.post({ username: 'admin', password: 'guess-5' })).statusCode).toBe(429);
  });

  it('restore: the cache is used again and calls are counted in Redis, without a restart', async () => {
    await proxy.restore();
    const back = await eventually(ready, (value) => JSON.stringify(value).includes('"redis":"ok"'));
    expect(back).toEqual({ status: 'ok', checks: { store: 'ok', redis: 'ok' } });
    // The cache's own connection is back once the entry made before the cut is listed again.
    const listed = await eventually(
      () => admin.call('GET', '/api/Caching/GetCacheKeys'),
      (response) => response.json<{ items: unknown[] }>().items.length > 0,
    );
    expect(listed.json<{ items: unknown[] }>().items.length).toBeGreaterThan(0);

    // Counting resumes from Redis's count, not the process's (at the limit): calls are allowed again.
    const first = await eventually(
      () => callAsset(5),
      (result) => result.status === 200,
    );
    expect(first).toEqual({ status: 200, cached: false });
    expect(await callAsset(5)).toEqual({ status: 200, cached: true });
    expect(await counted()).toBeGreaterThanOrEqual(countedBeforeCut + 2);
  });
});
