import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { rateLimited } from './errors.ts';
import type { AuthUser } from './auth-user.ts';

// What a rate limiter is asked for, and the calling layer's limits built on such limiters (plugins/rate-limits.ts
// makes the limiters, in process or in Redis, and hands them in).

export interface LimiterOptions {
  /** Distinguishes the counters of one limiter from another's in the shared store. */
  keyPrefix: string;
  points: number;
  /** Seconds over which points are counted. */
  duration: number;
  /** Seconds a key stays refused once it has used its points (0: until the window ends). */
  blockDuration?: number;
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
