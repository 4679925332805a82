import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMemoryCache, type ResultCache } from '../lib/result-cache.ts';
import { deploymentId } from '../lib/deployment.ts';
import type { Config } from '../config.ts';

// Registers the result cache (lib/result-cache.ts): in process, or in Redis when REDIS_URL is set.

declare module 'fastify' {
  interface FastifyInstance {
    resultCache: ResultCache;
  }
}

/** How long a start waits for Redis before it goes on bypassing the cache until Redis answers. */
const CONNECT_WAIT_MS = 2_000;

/** The cache's namespace in Redis: one per deployment (lib/deployment.ts). */
export function cacheNamespace(config: Config): string {
  return `datalab:cache:${deploymentId(config)}:`;
}

async function connectRedisCache(app: FastifyInstance, redisUrl: string): Promise<ResultCache> {
  // ioredis is loaded only when Redis is configured: the embedded default never pays its memory.
  const [{ Redis }, { createRedisCache }] = await Promise.all([import('ioredis'), import('../lib/redis-cache.ts')]);
  // No offline queue and a short command timeout: while Redis is away a call misses at once instead of waiting.
  const redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1_000 });
  redis.on('error', () => undefined); // reported once per outage by the cache itself
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, CONNECT_WAIT_MS);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return createRedisCache(redis, {
    prefix: cacheNamespace(app.config),
    maxBytes: app.config.cacheMaxBytes,
    onUnavailable: (error) =>
      app.log.warn({ err: error }, 'result cache: Redis unavailable, calls bypass the cache until it returns'),
    onRecovered: () => app.log.info('result cache: Redis is back, caching again'),
  });
}

export default fp(
  async (app: FastifyInstance) => {
    const { redisUrl, cacheMaxBytes } = app.config;
    const cache = redisUrl ? await connectRedisCache(app, redisUrl) : createMemoryCache(cacheMaxBytes);
    app.decorate('resultCache', cache);
  },
  { name: 'result-cache', dependencies: ['config'] },
);
