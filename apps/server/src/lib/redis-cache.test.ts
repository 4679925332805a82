import { randomUUID } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRedisCache } from './redis-cache.ts';

// The result cache in the machine's Redis (127.0.0.1:6379, each test under its own key prefix): values expire
// with their TTL, an index per type lists them with their hits, removal and purge, the soft byte cap; and when
// Redis cannot be reached — a TCP relay to it that the test closes and reopens, never the machine's Redis — the
// cache is bypassed, says so once, and works again by itself when Redis is back.

const REDIS_PORT = 6379;
const clients: Redis[] = [];

function client(port = REDIS_PORT) {
  const redis = new Redis({ host: '127.0.0.1', port, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  clients.push(redis);
  return redis;
}

async function ready(redis: Redis) {
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
}

const prefix = () => `datalab:test:${randomUUID()}:`;
const bytes = (n: number) => Buffer.alloc(n, 7);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterAll(async () => {
  for (const redis of clients) redis.disconnect();
});

describe('result cache in Redis', () => {
  it('stores, counts hits, lists by type from its index, removes and purges', async () => {
    const redis = client();
    await ready(redis);
    const p = prefix();
    const cache = createRedisCache(redis, { prefix: p, maxBytes: 10_000 });
    await cache.set('results:1:1:a', 'results', bytes(100), 60_000);
    await cache.set('results:1:1:b', 'results', bytes(200), 60_000);
    await cache.set('parameterData:2:1:c', 'parameterData', Buffer.from('[]'), 60_000);

    expect((await cache.get('results:1:1:a'))?.value).toEqual(bytes(100));
    await cache.get('results:1:1:a');
    expect((await cache.peek('results:1:1:a'))?.hits).toBe(2);
    expect(await cache.get('missing')).toBeUndefined();

    const results = await cache.keys('results');
    expect(results.map((e) => e.key).sort()).toEqual(['results:1:1:a', 'results:1:1:b']);
    const a = results.find((e) => e.key === 'results:1:1:a');
    expect(a).toMatchObject({ type: 'results', hits: 2, ttlMs: 60_000 });
    expect(a?.size).toBeGreaterThan(100);
    expect(Date.now() - (a?.createdAt.getTime() ?? 0)).toBeLessThan(5_000);
    expect(await redis.pttl(`${p}v:results:1:1:a`)).toBeGreaterThan(55_000);
    expect((await cache.keys()).length).toBe(3);

    expect(await cache.remove('results:1:1:b')).toBe(true);
    expect(await cache.remove('results:1:1:b')).toBe(false);
    expect((await cache.keys('results')).map((e) => e.key)).toEqual(['results:1:1:a']);

    expect(await cache.purge('parameterData')).toBe(1);
    expect(await cache.keys('parameterData')).toEqual([]);
    expect(await cache.purge()).toBe(1);
    expect(await cache.keys()).toEqual([]);
    expect(await redis.keys(`${p}*`)).toEqual([]);
  });

  it('lets entries expire, refuses a value over the soft cap, and drops index members whose entry went', async () => {
    const redis = client();
    await ready(redis);
    const p = prefix();
    const cache = createRedisCache(redis, { prefix: p, maxBytes: 1_000 });
    await cache.set('short', 'results', bytes(10), 50);
    await cache.set('off', 'results', bytes(10), 0);
    await cache.set('huge', 'results', bytes(2_000), 60_000);
    await cache.set('evicted', 'metadata', Buffer.from('{}'), 60_000);
    expect(await cache.get('short')).toBeDefined();
    expect(await cache.get('off')).toBeUndefined();
    expect(await cache.get('huge')).toBeUndefined();
    await sleep(80);
    expect(await cache.get('short')).toBeUndefined();
    // As if Redis's maxmemory policy had evicted it: the index still names it, the listing does not.
    await redis.del(`${p}v:evicted`, `${p}m:evicted`);
    expect(await cache.keys()).toEqual([]);
    expect(await redis.zcard(`${p}t:metadata`)).toBe(0);
  });

  it('two caches on one Redis see each other’s entries, and a purge on one holds for the other', async () => {
    const p = prefix();
    const [one, two] = [client(), client()];
    await Promise.all([ready(one), ready(two)]);
    const first = createRedisCache(one, { prefix: p, maxBytes: 10_000 });
    const second = createRedisCache(two, { prefix: p, maxBytes: 10_000 });
    await first.set('results:9:1:x', 'results', bytes(10), 60_000);
    expect((await second.get('results:9:1:x'))?.value).toEqual(bytes(10));
    expect((await first.keys())[0]?.hits).toBe(1);
    expect(await second.purge()).toBe(1);
    expect(await first.get('results:9:1:x')).toBeUndefined();
  });
});

describe('result cache when Redis is unavailable', () => {
  let relay: Server | undefined;
  const sockets = new Set<Socket>();

  /** A TCP relay to Redis on `port` (0: any free port); closing it cuts every connection through it. */
  async function openRelay(port = 0): Promise<number> {
    relay = createServer((socket) => {
      const target = connect(REDIS_PORT, '127.0.0.1');
      sockets.add(socket).add(target);
      socket.pipe(target).pipe(socket);
      const drop = () => {
        socket.destroy();
        target.destroy();
      };
      socket.on('error', drop).on('close', drop);
      target.on('error', drop).on('close', drop);
    });
    await new Promise<void>((resolve) => relay!.listen(port, '127.0.0.1', resolve));
    return (relay.address() as { port: number }).port;
  }

  async function closeRelay() {
    const closing = new Promise((resolve) => relay?.close(resolve));
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await closing;
  }

  afterEach(closeRelay);

  it('bypasses the cache without failing, warns once, and caches again when Redis is back', async () => {
    const port = await openRelay();
    const redis = new Redis({
      host: '127.0.0.1',
      port,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 500,
      retryStrategy: () => 50,
    });
    redis.on('error', () => undefined);
    clients.push(redis);
    await ready(redis);
    const warnings: Error[] = [];
    let recoveries = 0;
    const cache = createRedisCache(redis, {
      prefix: prefix(),
      maxBytes: 10_000,
      onUnavailable: (error) => warnings.push(error),
      onRecovered: () => (recoveries += 1),
    });
    await cache.set('k', 'results', bytes(10), 60_000);
    expect((await cache.get('k'))?.value).toEqual(bytes(10));

    await closeRelay();
    await sleep(50);
    expect(await cache.get('k')).toBeUndefined();
    await expect(cache.set('k2', 'results', bytes(10), 60_000)).resolves.toBeUndefined();
    expect(await cache.keys()).toEqual([]);
    expect(await cache.remove('k')).toBe(false);
    expect(await cache.purge()).toBe(0);
    expect(await cache.peek('k')).toBeUndefined();
    expect(warnings).toHaveLength(1);

    await openRelay(port);
    await ready(redis);
    expect((await cache.get('k'))?.value).toEqual(bytes(10));
    expect(recoveries).toBe(1);
    expect(await cache.purge()).toBe(1);
  });
});
