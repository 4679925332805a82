import { describe, expect, it } from 'vitest';
import { createMemoryCache } from './result-cache.ts';

// The in-process result cache: bounded in bytes, entries expire, typed listing and removal, single flight.

const bytes = (n: number) => Buffer.alloc(n, 1);

describe('in-process result cache', () => {
  it('keeps at most its bound in bytes, dropping the least recently used', async () => {
    const cache = createMemoryCache(3_000);
    await cache.set('a', 'results', bytes(1_000), 60_000);
    await cache.set('b', 'results', bytes(1_000), 60_000);
    await cache.get('a'); // 'b' is now the least recently used
    await cache.set('c', 'results', bytes(1_000), 60_000);
    expect(cache.bytes).toBeLessThanOrEqual(3_000);
    expect(await cache.get('b')).toBeUndefined();
    expect((await cache.get('a'))?.value.length).toBe(1_000);
    await cache.set('huge', 'results', bytes(5_000), 60_000);
    expect(await cache.get('huge')).toBeUndefined();
  });

  it('forgets an entry after its TTL and never stores one with TTL 0', async () => {
    const cache = createMemoryCache(10_000);
    await cache.set('short', 'results', bytes(10), 30);
    await cache.set('off', 'results', bytes(10), 0);
    expect(await cache.get('short')).toBeDefined();
    expect(await cache.get('off')).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await cache.get('short')).toBeUndefined();
  });

  it('lists, counts hits, removes and purges entries by type', async () => {
    const cache = createMemoryCache(10_000);
    await cache.set('r', 'results', bytes(10), 60_000);
    await cache.set('p', 'parameterData', bytes(10), 60_000);
    await cache.get('r');
    await cache.get('r');
    expect(await cache.keys('results')).toEqual([
      expect.objectContaining({ key: 'r', type: 'results', hits: 2, ttlMs: 60_000 }),
    ]);
    expect(await cache.purge('parameterData')).toBe(1);
    expect((await cache.keys()).map((entry) => entry.key)).toEqual(['r']);
    expect(await cache.remove('r')).toBe(true);
    expect(await cache.keys()).toEqual([]);
  });

  it('runs simultaneous computations of one key once, and a failure is not remembered', async () => {
    const cache = createMemoryCache(10_000);
    let runs = 0;
    const compute = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return runs;
    };
    const results = await Promise.all([cache.coalesce('k', compute), cache.coalesce('k', compute)]);
    expect(runs).toBe(1);
    expect(results.map((r) => r.shared).sort()).toEqual([false, true]);
    await expect(cache.coalesce('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect((await cache.coalesce('k', compute)).shared).toBe(false);
  });
});
