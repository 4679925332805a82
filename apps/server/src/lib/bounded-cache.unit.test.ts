import { describe, expect, it } from 'vitest';
import { BoundedCache } from './bounded-cache.ts';

describe('BoundedCache', () => {
  it('forgets entries at their expiry', () => {
    const cache = new BoundedCache<string, number>(10);
    cache.set('a', 1, 1000);
    expect(cache.get('a', 999)).toBe(1);
    expect(cache.get('a', 1000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('evicts the least recently used entry past its bound', () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set('a', 1, Infinity);
    cache.set('b', 2, Infinity);
    cache.get('a');
    cache.set('c', 3, Infinity);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, undefined, 3]);
  });

  it('keeps what is used and stays within its bound, whatever the order of use', () => {
    const cache = new BoundedCache<number, number>(100);
    for (let key = 0; key < 100; key += 1) cache.set(key, key, Infinity);
    // The ten in use are looked up between every insert: they are never the ones to go.
    for (let key = 100; key < 1_000; key += 1) {
      for (let used = 0; used < 10; used += 1) expect(cache.get(used)).toBe(used);
      cache.set(key, key, Infinity);
      expect(cache.size).toBe(100);
    }
    // Every entry marked: the sweep gives each its chance, then one goes, never the one inserted.
    for (let key = 0; key < 1_000; key += 1) cache.get(key);
    cache.set(-1, -1, Infinity);
    expect(cache.size).toBe(100);
    expect(cache.get(-1)).toBe(-1);
  });

  it('replaces an entry in place without evicting another', () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set('a', 1, Infinity);
    cache.set('b', 2, Infinity);
    cache.set('a', 3, Infinity);
    expect([cache.get('a'), cache.get('b'), cache.size]).toEqual([3, 2, 2]);
  });
});
