import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis as RedisClient } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { deploymentId } from '../lib/deployment.ts';
import { rateLimited } from '../lib/errors.ts';
import type { AuthUser } from './auth.ts';

// Rate-limit counters (product §11: in process, or in Redis when REDIS_URL is set so that several
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
    /** The calling layer's limits per token or user (RATE_LIMIT_PER_MINUTE, or a data source's own). */
    callLimits: CallLimits;
  }
}

const WINDOW_SECONDS = 60;

/** Where a call's rate-limit fields go: a Fastify reply, or whatever a surface turns into its own reply. */
export interface HeaderSink {
  headers(values: Record<string, string>): unknown;
}

/**
 * Calls per minute through the calling layer, counted per token (a Data Lab token) or per user (an OIDC caller):
 * one budget of RATE_LIMIT_PER_MINUTE across data sources, except that a data source with its own limit
 * (`data_sources.rate_limit_per_minute`) counts its calls apart under that limit. One consume per call, on the
 * definition the call loads anyway. Every reply carries the IETF draft's fields (draft-ietf-httpapi-ratelimit-headers):
 * `RateLimit-Policy: "default";q=600;w=60` and `RateLimit: "default";r=599;t=42`; past the limit, 429 with
 * Retry-After and product §8's text.
 */
export class CallLimits {
  readonly #create: (options: LimiterOptions) => RateLimiterAbstract;
  readonly #perMinute: number;
  readonly #limiters = new Map<number, RateLimiterAbstract>();

  constructor(create: (options: LimiterOptions) => RateLimiterAbstract, perMinute: number) {
    this.#create = create;
    this.#perMinute = perMinute;
  }

  #limiter(points: number): RateLimiterAbstract {
    let limiter = this.#limiters.get(points);
    if (!limiter) {
      // Counters of different limits never share a key: a changed limit starts a fresh count.
      limiter = this.#create({ keyPrefix: `data-calls-${points}`, points, duration: WINDOW_SECONDS });
      this.#limiters.set(points, limiter);
    }
    return limiter;
  }

  /** Counts one call and sets the reply's RateLimit fields; throws the 429 (with the same fields) past the limit. */
  async consume(reply: HeaderSink, user: AuthUser, dataSource?: { id: number; rateLimitPerMinute: number | null }) {
    const own = dataSource?.rateLimitPerMinute ?? null;
    const caller = user.token ? `t${user.token.id}` : `u${user.id}`;
    const [policy, points, key] =
      own === null || dataSource === undefined
        ? ['default', this.#perMinute, caller]
        : ['data-source', own, `${caller}:${dataSource.id}`];
    let outcome: RateLimiterRes;
    let refused = false;
    try {
      outcome = await this.#limiter(points).consume(key);
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      outcome = refusal;
      refused = true;
    }
    const resetSeconds = Math.max(1, Math.ceil(outcome.msBeforeNext / 1000));
    const fields = {
      'ratelimit-policy': `"${policy}";q=${points};w=${WINDOW_SECONDS}`,
      ratelimit: `"${policy}";r=${outcome.remainingPoints};t=${resetSeconds}`,
    };
    if (refused) {
      const error = rateLimited(resetSeconds);
      Object.assign(error.headers, fields);
      throw error;
    }
    reply.headers(fields);
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
