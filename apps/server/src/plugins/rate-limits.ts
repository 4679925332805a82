import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

// Rate-limit counters (DESIGN §2: in process, or in Redis when REDIS_URL is set so that several
// instances count together). If Redis is unreachable, counting falls back to this process rather
// than failing the request.

export interface LimiterOptions {
  /** Distinguishes the counters of one limiter from another's in the shared store. */
  keyPrefix: string;
  points: number;
  /** Seconds over which points are counted. */
  duration: number;
  /** Seconds a key stays refused once it has used its points (0: until the window ends). */
  blockDuration?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    createRateLimiter: (options: LimiterOptions) => RateLimiterAbstract;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const { redisUrl } = app.config;
    const redis = redisUrl ? new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }) : undefined;
    if (redis) {
      redis.on('error', (error: Error) =>
        app.log.warn({ err: error }, 'rate limits: Redis unavailable, counting in process'),
      );
      app.addHook('onClose', async () => {
        redis.disconnect();
      });
    }
    app.decorate('createRateLimiter', (options: LimiterOptions) => {
      const memory = new RateLimiterMemory({ ...options, keyPrefix: `datalab:${options.keyPrefix}` });
      if (!redis) return memory;
      return new RateLimiterRedis({
        ...options,
        keyPrefix: `datalab:${options.keyPrefix}`,
        storeClient: redis,
        insuranceLimiter: memory,
      });
    });
  },
  { name: 'rate-limits', dependencies: ['config'] },
);
