import { LRUCache } from 'lru-cache';

// The result cache (product §15): in-process, bounded in bytes (CACHE_MAX_BYTES), a TTL per entry; or, with
// REDIS_URL, in Redis and shared by every instance (lib/redis-cache.ts). Values are bytes, so both fill one
// interface; the cache screen (modules/caching) lists entries by type. Single flight (`coalesce`) is per process
// by nature: it shares a run between simultaneous identical calls that reach the same instance.

export const CACHE_ENTRY_TYPES = ['results', 'parameterData', 'metadata'] as const;
export type CacheEntryType = (typeof CACHE_ENTRY_TYPES)[number];

export interface CacheEntry {
  type: CacheEntryType;
  key: string;
  value: Buffer;
  /** Bytes the entry holds (value plus key). */
  size: number;
  createdAt: Date;
  ttlMs: number;
  hits: number;
}

export type CacheEntryInfo = Omit<CacheEntry, 'value'>;

export interface ResultCache {
  /** The live entry under the key (its hit count goes up), or undefined. */
  get(key: string): Promise<CacheEntry | undefined>;
  /** The live entry under the key without counting a hit (the cache screen looks, it does not use). */
  peek(key: string): Promise<CacheEntry | undefined>;
  /** Stores bytes for ttlMs (> 0); an entry larger than the whole cache is not kept. */
  set(key: string, type: CacheEntryType, value: Buffer, ttlMs: number): Promise<void>;
  keys(type?: CacheEntryType): Promise<CacheEntryInfo[]>;
  remove(key: string): Promise<boolean>;
  /** Removes every entry (of one type when given); answers how many went. */
  purge(type?: CacheEntryType): Promise<number>;
  /** Runs compute once for simultaneous callers with the same key; `shared` tells a caller it did not run it. */
  coalesce<T>(key: string, compute: () => Promise<T>): Promise<{ value: T; shared: boolean }>;
  /** Bytes held now. */
  readonly bytes: number;
}

/** Per-entry bookkeeping beyond the bytes: keys and Date objects are small next to any result. */
export const ENTRY_OVERHEAD_BYTES = 128;

/** One run for simultaneous callers with the same key, in this process. */
export function singleFlight(): ResultCache['coalesce'] {
  const flights = new Map<string, Promise<unknown>>();
  return async <T>(key: string, compute: () => Promise<T>) => {
    const running = flights.get(key) as Promise<T> | undefined;
    if (running) return { value: await running, shared: true };
    const flight = compute().finally(() => flights.delete(key));
    flights.set(key, flight);
    return { value: await flight, shared: false };
  };
}

export function createMemoryCache(maxBytes: number): ResultCache {
  const entries = new LRUCache<string, CacheEntry>({
    maxSize: Math.max(1, maxBytes), // lru-cache needs a positive bound; 0 keeps nothing (set refuses)
    sizeCalculation: (entry) => entry.size,
    // Expired entries are treated as missing when read; the LRU bound keeps memory in check between reads.
    allowStale: false,
    updateAgeOnGet: false,
  });
  const info = ({ value: _value, ...rest }: CacheEntry): CacheEntryInfo => rest;

  return {
    async get(key) {
      const entry = entries.get(key);
      if (entry) entry.hits += 1;
      return entry;
    },
    async peek(key) {
      return entries.peek(key);
    },
    async set(key, type, value, ttlMs) {
      if (ttlMs <= 0) return;
      const size = value.length + key.length * 2 + ENTRY_OVERHEAD_BYTES;
      if (size > maxBytes) return;
      entries.set(key, { type, key, value, size, createdAt: new Date(), ttlMs, hits: 0 }, { ttl: ttlMs });
    },
    async keys(type) {
      const found: CacheEntryInfo[] = [];
      for (const entry of entries.values()) if (!type || entry.type === type) found.push(info(entry));
      return found;
    },
    async remove(key) {
      return entries.delete(key);
    },
    async purge(type) {
      let removed = 0;
      for (const [key, entry] of [...entries.entries()]) {
        if (type && entry.type !== type) continue;
        entries.delete(key);
        removed += 1;
      }
      return removed;
    },
    coalesce: singleFlight(),
    get bytes() {
      return entries.calculatedSize;
    },
  };
}

/** The data source id a key names: keys are `<type>:<data source id>:…` (calling/service.ts resultsKey). */
export function assetIdOfKey(key: string): number | undefined {
  const match = /^[A-Za-z]+:(\d+):/.exec(key);
  return match ? Number(match[1]) : undefined;
}
