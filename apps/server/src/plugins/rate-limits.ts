import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis as RedisClient } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { deploymentId } from '../lib/deployment.ts';
import { CallLimits, type LimiterOptions } from '../lib/call-limits.ts';

// Rate-limit counters (product §11: in process, or in Redis when REDIS_URL is set so that several
// instances count together). If Redis is unreachable, counting falls back to this process rather
// than failing the request.

declare module 'fastify' {
  interface FastifyInstance {
    createRateLimiter: (options: LimiterOptions) => RateLimiterAbstract;
    /** The calling layer's limits per token or user (RATE_LIMIT_PER_MINUTE, or a data source's own). */
    callLimits: CallLimits;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const { redisUrl } = app.config;
    // ioredis is loaded only when Redis is configured: the embedded default never pays its memory.
    let redis: RedisClient | undefined;
    if (redisUrl) {
      const { Redis } = await import('ioredis');
      redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    }
    if (redis) {
      redis.on('error', (error: Error) =>
        app.log.warn({ err: error }, 'rate limits: Redis unavailable, counting in process'),
      );
      app.addHook('onClose', async () => {
        redis.disconnect();
      });
    }
    // Counters are per deployment in a shared Redis (ids of users and tokens are per metadata store).
    const namespace = `datalab:${deploymentId(app.config)}:`;
    const createRateLimiter = (options: LimiterOptions) => {
      const keyPrefix = `${namespace}${options.keyPrefix}`;
      const memory = new RateLimiterMemory({ ...options, keyPrefix });
      if (!redis) return memory;
      return new RateLimiterRedis({
        ...options,
        keyPrefix,
        storeClient: redis,
        insuranceLimiter: memory,
      });
    };
    app.decorate('createRateLimiter', createRateLimiter);
    app.decorate('callLimits', new CallLimits(createRateLimiter, app.config.rateLimitPerMinute));
  },
  { name: 'rate-limits', dependencies: ['config'] },
);
