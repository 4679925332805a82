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
});
