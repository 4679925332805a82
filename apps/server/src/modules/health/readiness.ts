import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis as RedisClient } from 'ioredis';
import { pingDatabase } from '../../db/database.ts';

// What readiness checks, each bounded in time so that a probe gets its answer even when a dependency hangs:
// - the metadata store: every call reads it, so without it the instance is not ready (503);
// - Redis, when configured: the API works without it (the cache is bypassed, rate limits count in process), so
//   the instance stays ready and says `redis: 'failing'` for the operator to see.

/** A probe's own timeout is typically 1–5 s: answer within it. */
export const CHECK_TIMEOUT_MS = 2_000;

type CheckState = 'ok' | 'failing';

export interface Readiness {
  ready: boolean;
  checks: Record<string, CheckState>;
}

async function bounded(name: string, check: () => Promise<unknown>, log: FastifyBaseLogger): Promise<CheckState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch (error) {
    log.warn({ err: error, check: name }, 'readiness check failed');
    return 'failing';
  } finally {
    clearTimeout(timer);
  }
}

/** Its own small Redis connection: the cache's and the rate limits' hide their failures by design. */
async function redisPing(app: FastifyInstance, url: string): Promise<() => Promise<unknown>> {
  const { Redis } = await import('ioredis');
  const redis: RedisClient = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: CHECK_TIMEOUT_MS,
    lazyConnect: true,
  });
  redis.on('error', () => undefined); // told through the check's answer, not per reconnection attempt
  redis.connect().catch(() => undefined); // reconnects by itself; a start with Redis away is not a failed start
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
  return () => redis.ping();
}

export async function readinessChecks(app: FastifyInstance) {
  const { redisUrl } = app.config;
  const ping = redisUrl ? await redisPing(app, redisUrl) : undefined;
  return async (log: FastifyBaseLogger): Promise<Readiness> => {
    const [store, redis] = await Promise.all([
      bounded('store', () => pingDatabase(app.db), log),
      ping ? bounded('redis', ping, log) : undefined,
    ]);
    return { ready: store === 'ok', checks: redis ? { store, redis } : { store } };
  };
}
