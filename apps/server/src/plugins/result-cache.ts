import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';

// The result cache (DESIGN §6): in-process, bounded in bytes (CACHE_MAX_BYTES), a TTL per entry. Values are bytes,
// so a shared implementation (Redis, DESIGN §3) can fill the same interface later; the cache screen of a later
// issue lists entries by type. Single flight (`coalesce`) is per process by nature: it shares a run between
// simultaneous identical calls that reach the same instance.

export type CacheEntryType = 'results' | 'parameterData' | 'metadata';

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

declare module 'fastify' {
  interface FastifyInstance {
    resultCache: ResultCache;
  }
}

/** Per-entry bookkeeping beyond the bytes: keys and Date objects are small next to any result. */
const ENTRY_OVERHEAD_BYTES = 128;

export function createMemoryCache(maxBytes: number): ResultCache {
  const entries = new LRUCache<string, CacheEntry>({
    maxSize: Math.max(1, maxBytes), // lru-cache needs a positive bound; 0 keeps nothing (set refuses)
    sizeCalculation: (entry) => entry.size,
    // Expired entries are treated as missing when read; the LRU bound keeps memory in check between reads.
    allowStale: false,
    updateAgeOnGet: false,
  });
  const flights = new Map<string, Promise<unknown>>();
  const info = ({ value: _value, ...rest }: CacheEntry): CacheEntryInfo => rest;

  return {
    async get(key) {
      const entry = entries.get(key);
      if (entry) entry.hits += 1;
      return entry;
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
    async coalesce<T>(key: string, compute: () => Promise<T>) {
      const running = flights.get(key) as Promise<T> | undefined;
      if (running) return { value: await running, shared: true };
      const flight = compute().finally(() => flights.delete(key));
      flights.set(key, flight);
      return { value: await flight, shared: false };
    },
    get bytes() {
      return entries.calculatedSize;
    },
  };
}

export default fp(
  async (app: FastifyInstance) => {
    app.decorate('resultCache', createMemoryCache(app.config.cacheMaxBytes));
  },
  { name: 'result-cache', dependencies: ['config'] },
);
