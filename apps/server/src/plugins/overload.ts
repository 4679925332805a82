import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unavailable, type AppError } from '../lib/errors.ts';

// Load shedding (faults): while the event loop is saturated — its mean delay over the last sample
// (OVERLOAD_MAX_EVENT_LOOP_DELAY_MS) or its utilization (OVERLOAD_MAX_EVENT_LOOP_UTILIZATION) above the limit —
// a new call answers 503 at once, in product §16's shape with Retry-After, instead of queueing behind the work that
// saturates it: a queue that grows faster than it drains makes every call late, and the callers' retries worse.
//
// @fastify/under-pressure samples the loop once a second; app.ts's one onRequest hook asks `app.refuseOverloaded`
// before authentication reads the store or the body is parsed (the library's own hook reads `request.routeOptions`,
// an object built on each request, so it runs with no limits of its own: sampling only). Limits of 0 switch a
// check off; both 0, nothing is sampled and no call is refused.
//
// The health routes are never shed: liveness must stay green (an overloaded process is alive, and restarting it
// loses the work in flight), and readiness reports the dependencies only. Failing readiness under load would take
// every saturated instance out of the balancer together — the surge then lands on fewer instances, which saturate
// in turn — and a probe every few seconds reacts too slowly to a second's overload anyway.

/** Whole seconds: the state holds for at least one sample (1 s), and a client should not come back sooner. */
export const OVERLOAD_RETRY_AFTER_SECONDS = 2;
const SAMPLE_INTERVAL_MS = 1000;
/** At most one warning per this many ms, with the count of calls refused since the last one. */
const WARN_EVERY_MS = 10_000;

export const OVERLOAD_MESSAGE = 'The server is overloaded and refused the call before running it. Try again shortly.';

const isExempt = (request: FastifyRequest) => request.url.startsWith('/health/');

declare module 'fastify' {
  interface FastifyInstance {
    /** The 503 for a call while the event loop is saturated, or undefined; app.ts asks on every request. */
    refuseOverloaded: (request: FastifyRequest) => AppError | undefined;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const { maxEventLoopDelayMs, maxEventLoopUtilization } = app.config.overload;
    if (maxEventLoopDelayMs === 0 && maxEventLoopUtilization === 0) {
      app.decorate('refuseOverloaded', () => undefined);
      return;
    }

    // The start itself (route compilation, the provider's set-up) blocks the loop for a while, and on a crowded
    // machine for long: the samples that may hold it are ignored, so the first calls are never refused for it.
    let armedAt = Number.POSITIVE_INFINITY;
    app.addHook('onReady', async () => {
      armedAt = Date.now() + 2 * SAMPLE_INTERVAL_MS;
    });
    let refused = 0;
    let lastWarnAt = 0;
    const warn = (type: string, value: number) => {
      refused += 1;
      const now = Date.now();
      if (now - lastWarnAt < WARN_EVERY_MS) return;
      app.log.warn({ pressure: type, value, refused }, 'overloaded: refusing new calls with 503');
      lastWarnAt = now;
      refused = 0;
    };

    // The last second's share, not the share since the start: a saturation now must show now.
    await app.register(underPressure, { eventLoopUtilizationMode: 'interval', sampleInterval: SAMPLE_INTERVAL_MS });
    const checkDelay = maxEventLoopDelayMs > 0;
    const checkUtilization = maxEventLoopUtilization > 0;

    app.decorate('refuseOverloaded', (request: FastifyRequest) => {
      const { eventLoopDelay, eventLoopUtilized } = app.memoryUsage();
      const type =
        checkDelay && eventLoopDelay > maxEventLoopDelayMs
          ? 'eventLoopDelay'
          : checkUtilization && eventLoopUtilized > maxEventLoopUtilization
            ? 'eventLoopUtilization'
            : undefined;
      if (type === undefined || isExempt(request) || Date.now() < armedAt) return undefined;
      warn(type, type === 'eventLoopDelay' ? eventLoopDelay : eventLoopUtilized);
      // Handed to the one error handler (plugins/errors.ts): product §16's shape.
      const error = unavailable(OVERLOAD_MESSAGE);
      error.headers['retry-after'] = String(OVERLOAD_RETRY_AFTER_SECONDS);
      return error;
    });
  },
  { name: 'overload', dependencies: ['config', 'errors'] },
);
