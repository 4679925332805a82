import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unavailable } from '../lib/errors.ts';

// Load shedding (faults): while the event loop is saturated — its mean delay over the last sample
// (OVERLOAD_MAX_EVENT_LOOP_DELAY_MS) or its utilization (OVERLOAD_MAX_EVENT_LOOP_UTILIZATION) above the limit —
// a new call answers 503 at once, in product §16's shape with Retry-After, instead of queueing behind the work that
// saturates it: a queue that grows faster than it drains makes every call late, and the callers' retries worse.
//
// @fastify/under-pressure samples once a second; a call is refused in its onRequest hook, before authentication
// reads the store or the body is parsed. Limits of 0 switch a check off; both 0, the plugin is not registered.
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

export default fp(
  async (app: FastifyInstance) => {
    const { maxEventLoopDelayMs, maxEventLoopUtilization } = app.config.overload;
    if (maxEventLoopDelayMs === 0 && maxEventLoopUtilization === 0) return;

    // The start itself (route compilation, the provider's set-up) blocks the loop for a while, and on a crowded
    // machine for long: the samples that may hold it are ignored, so the first calls are never refused for it.
    let armedAt = Number.POSITIVE_INFINITY;
    app.addHook('onReady', async () => {
      armedAt = Date.now() + 2 * SAMPLE_INTERVAL_MS;
    });
    let refused = 0;
    let lastWarnAt = 0;
    const warn = (type: string, value: number | undefined) => {
      refused += 1;
      const now = Date.now();
      if (now - lastWarnAt < WARN_EVERY_MS) return;
      app.log.warn({ pressure: type, value, refused }, 'overloaded: refusing new calls with 503');
      lastWarnAt = now;
      refused = 0;
    };

    await app.register(underPressure, {
      maxEventLoopDelay: maxEventLoopDelayMs,
      maxEventLoopUtilization,
      // The last second's share, not the share since the start: a saturation now must show now.
      eventLoopUtilizationMode: 'interval',
      sampleInterval: SAMPLE_INTERVAL_MS,
      pressureHandler: (request, _reply, type, value) => {
        if (isExempt(request) || Date.now() < armedAt) return undefined;
        warn(type, value);
        const error = unavailable(OVERLOAD_MESSAGE);
        error.headers['retry-after'] = String(OVERLOAD_RETRY_AFTER_SECONDS);
        // A rejected promise hands the error to the one error handler (plugins/errors.ts): product §16's shape.
        return Promise.reject(error);
      },
    });
  },
  { name: 'overload', dependencies: ['config', 'errors'] },
);
