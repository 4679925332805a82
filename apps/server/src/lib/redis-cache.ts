import type { Redis as RedisClient } from 'ioredis';
import type { CacheEntry, CacheEntryInfo, CacheEntryType, ResultCache } from './result-cache.ts';
import { CACHE_ENTRY_TYPES, ENTRY_OVERHEAD_BYTES, singleFlight } from './result-cache.ts';

// The result cache in Redis (product §12, REDIS_URL), shared by every instance. Per entry: the value under
// `<p>v:<key>` and its bookkeeping (type, size, created, ttl, hits) in the hash `<p>m:<key>`, both with the same
// PX expiry; an index per type, the sorted set `<p>t:<type>` of keys scored by expiry, so listing reads the index
// and never scans the keyspace. CACHE_MAX_BYTES is a soft cap here: a value larger than it is not stored; Redis's
// own maxmemory (with an eviction policy) bounds the whole, and an index member whose entry was evicted is dropped
// when listed. If Redis is unreachable the cache is bypassed — a miss, a no-op, an empty list — never a failed
// call; ioredis reconnects by itself and the cache works again once it has.

export interface RedisCacheOptions {
  /** Namespaces every key (tests give each their own). */
  prefix?: string;
  maxBytes: number;
  /** Told once per outage that the cache is bypassed, and once when it is back. */
  onUnavailable?: (error: Error) => void;
  onRecovered?: () => void;
}

// Reads the value and counts the hit in one step; a hash without its value (a race with expiry) is not counted.
const GET_SCRIPT = `
local v = redis.call('GET', KEYS[1])
if not v then return nil end
if redis.call('EXISTS', KEYS[2]) == 0 then return nil end
local hits = redis.call('HINCRBY', KEYS[2], 'hits', 1)
local m = redis.call('HMGET', KEYS[2], 'type', 'size', 'created', 'ttl')
return {v, m[1], m[2], m[3], m[4], tostring(hits)}`;

// Removes every indexed entry of one type and the index; answers how many values were still there.
const PURGE_SCRIPT = `
local keys = redis.call('ZRANGE', KEYS[1], 0, -1)
local removed = 0
for _, key in ipairs(keys) do
  removed = removed + redis.call('DEL', ARGV[1] .. 'v:' .. key)
  redis.call('DEL', ARGV[1] .. 'm:' .. key)
end
redis.call('DEL', KEYS[1])
return removed`;

const num = (value: string | Buffer | null | undefined) => Number(value?.toString() ?? 0);

export function createRedisCache(redis: RedisClient, options: RedisCacheOptions): ResultCache {
  const prefix = options.prefix ?? 'datalab:cache:';
  const valueKey = (key: string) => `${prefix}v:${key}`;
  const metaKey = (key: string) => `${prefix}m:${key}`;
  const indexKey = (type: CacheEntryType) => `${prefix}t:${type}`;
  let isDown = false;

  /** Runs a Redis step; when Redis fails, says so once and answers the bypass value instead. */
  const guarded = async <T>(step: () => Promise<T>, bypass: T): Promise<T> => {
    try {
      const result = await step();
      if (isDown) {
        isDown = false;
        options.onRecovered?.();
      }
      return result;
    } catch (error) {
      if (!isDown) {
        isDown = true;
        options.onUnavailable?.(error as Error);
      }
      return bypass;
    }
  };

  const infoOf = (key: string, meta: Record<string, string>): CacheEntryInfo | undefined => {
    if (!meta['type']) return undefined;
    return {
      key,
      type: meta['type'] as CacheEntryType,
      size: num(meta['size']),
      createdAt: new Date(num(meta['created'])),
      ttlMs: num(meta['ttl']),
      hits: num(meta['hits']),
    };
  };

  return {
    get: (key) =>
      guarded(async () => {
        const found = (await redis.callBuffer('EVAL', GET_SCRIPT, 2, valueKey(key), metaKey(key))) as Buffer[] | null;
        if (!found) return undefined;
        const [value, type, size, created, ttl, hits] = found;
        const entry: CacheEntry = {
          key,
          type: String(type) as CacheEntryType,
          value: value!,
          size: num(size),
          createdAt: new Date(num(created)),
          ttlMs: num(ttl),
          hits: num(hits),
        };
        return entry;
      }, undefined),

    peek: (key) =>
      guarded(async () => {
        const [value, meta] = await Promise.all([redis.getBuffer(valueKey(key)), redis.hgetall(metaKey(key))]);
        const info = infoOf(key, meta);
        if (!info || !value) return undefined;
        const entry: CacheEntry = { ...info, value };
        return entry;
      }, undefined),

    async set(key, type, value, ttlMs) {
      if (ttlMs <= 0) return;
      const size = value.length + key.length * 2 + ENTRY_OVERHEAD_BYTES;
      if (size > options.maxBytes) return;
      const now = Date.now();
      await guarded(async () => {
        await redis
          .multi()
          .set(valueKey(key), value, 'PX', ttlMs)
          .del(metaKey(key))
          .hset(metaKey(key), { type, size, created: now, ttl: ttlMs, hits: 0 })
          .pexpire(metaKey(key), ttlMs)
          .zadd(indexKey(type), String(now + ttlMs), key)
          .exec();
      }, undefined);
    },

    keys: (type) =>
      guarded(async () => {
        const found: CacheEntryInfo[] = [];
        for (const each of type ? [type] : CACHE_ENTRY_TYPES) {
          const index = indexKey(each);
          await redis.zremrangebyscore(index, '-inf', String(Date.now()));
          const keys = await redis.zrange(index, '0', '-1');
          if (keys.length === 0) continue;
          const pipeline = redis.pipeline();
          for (const key of keys) pipeline.hgetall(metaKey(key));
          const metas = (await pipeline.exec()) ?? [];
          const gone: string[] = [];
          keys.forEach((key, i) => {
            const [error, meta] = metas[i] ?? [];
            const info = error ? undefined : infoOf(key, meta as Record<string, string>);
            if (info) found.push(info);
            else gone.push(key);
          });
          // Evicted by Redis (maxmemory) or removed between the two reads: the index forgets them.
          if (gone.length > 0) await redis.zrem(index, ...gone);
        }
        return found;
      }, []),

    remove: (key) =>
      guarded(async () => {
        const pipeline = redis.multi().del(valueKey(key)).del(metaKey(key));
        for (const type of CACHE_ENTRY_TYPES) pipeline.zrem(indexKey(type), key);
        const results = (await pipeline.exec()) ?? [];
        return Number(results[0]?.[1] ?? 0) > 0;
      }, false),

    purge: (type) =>
      guarded(async () => {
        let removed = 0;
        for (const each of type ? [type] : CACHE_ENTRY_TYPES) {
          removed += Number(await redis.eval(PURGE_SCRIPT, 1, indexKey(each), prefix));
        }
        return removed;
      }, 0),

    coalesce: singleFlight(),

    // Redis holds the bytes; this process holds none.
    get bytes() {
      return 0;
    },
  };
}
