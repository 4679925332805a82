import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { notFound, unauthenticated } from '../lib/errors.ts';
import {
  type CounterMetric,
  type HistogramMetric,
  type MetricFamilies,
  type MetricFamiliesKind,
  metricFamilies,
} from './metric-families.ts';

// Prometheus metrics at /metrics (not under /api: scrapers hold no Data Lab identity). Open in the embedded default;
// with METRICS_TOKEN it needs `Authorization: Bearer <METRICS_TOKEN>`; in production without one it is not served
// (404), so a public instance never shows its traffic by accident. Other plugins add their own metrics to
// `app.metrics` (plugins/usage.ts counts the calling layer's calls there).
//
// Per request the cost is the route's own onResponse hook, which keeps its children by method and status class and
// counts by an addition (metric-families.ts: prom-client's own children hash their labels each time), and the app's
// hook for requests no route matched.

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Registry;
    /** Makes counters and histograms in `metrics`. */
    metricFamilies: MetricFamilies;
  }
}

/** What the download queue reports, when a download plugin decorates `app.downloads` with a counts method. */
interface DownloadCounts {
  counts?: () => Promise<Record<string, number>> | Record<string, number>;
}

const UNMATCHED = '(unmatched)';
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];
/** Seconds: from a fast cached call to a long export. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time check of the bearer secret (digests make the lengths equal). */
export function bearerMatches(header: string | undefined, secret: string): boolean {
  const given = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  return timingSafeEqual(digest(given), digest(secret));
}

/** Who may read /metrics: everyone in the embedded default, the secret's bearer when set, nobody in production without. */
export function metricsAccess(
  config: { metricsToken: string | undefined; isProduction: boolean },
  authorization: string | undefined,
): 'allow' | 'hidden' | 'unauthenticated' {
  if (config.metricsToken === undefined) return config.isProduction ? 'hidden' : 'allow';
  return bearerMatches(authorization, config.metricsToken) ? 'allow' : 'unauthenticated';
}

type Counting = ReturnType<CounterMetric['labels']>;
type Observing = ReturnType<HistogramMetric['labels']>;

function httpMetrics(app: FastifyInstance, families: MetricFamilies) {
  const labelNames = ['method', 'route', 'status_class'];
  const requests = families.counter(
    'datalab_http_requests_total',
    'HTTP requests answered, by method, route pattern and status class',
    labelNames,
  );
  const durations = families.histogram(
    'datalab_http_request_duration_seconds',
    'Time from receiving a request to sending its reply, by method, route pattern and status class',
    labelNames,
    DURATION_BUCKETS,
  );
  const refusals = families.counter(
    'datalab_rate_limited_total',
    'Requests refused with 429 by a rate limit, by route pattern',
    ['route'],
  );

  /**
   * Counts the replies of one route pattern (or of none: UNMATCHED). Its children, by method and status class, are
   * looked up once and kept: a reply then costs two array reads, an addition and an observation.
   */
  const replyCounter = (route: string) => {
    const kept: Record<string, { requests: Counting; durations: Observing }[]> = {};
    let refused: Counting | undefined;
    return (request: FastifyRequest, reply: FastifyReply) => {
      const status = reply.statusCode;
      const found = Math.floor(status / 100) - 1;
      // A status outside 100–599 counts as a server error.
      const index = found >= 0 && found < STATUS_CLASSES.length ? found : STATUS_CLASSES.length - 1;
      const byClass = (kept[request.method] ??= []);
      let children = byClass[index];
      if (!children) {
        const labels = [request.method, route, STATUS_CLASSES[index]!];
        children = { requests: requests.labels(...labels), durations: durations.labels(...labels) };
        byClass[index] = children;
      }
      children.requests.inc();
      children.durations.observe(reply.elapsedTime / 1000);
      if (status === 429) (refused ??= refusals.labels(route)).inc();
    };
  };

  // A counter of its own on every route, as a route-level hook: the route pattern is known when the route is made,
  // so no reply reads it (Fastify's request.routeOptions builds an object each time it is read).
  app.addHook('onRoute', (options) => {
    const count = replyCounter(options.url);
    const counted = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      count(request, reply);
      done();
    };
    const own = options.onResponse;
    options.onResponse = own === undefined ? [counted] : [...(Array.isArray(own) ? own : [own]), counted];
  });
  // Requests no route matched (the portal's pages, not-found replies) have only the app's hooks.
  const countUnmatched = replyCounter(UNMATCHED);
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done) => {
    if (request.is404) countUnmatched(request, reply);
    done();
  });
}

function stateGauges(app: FastifyInstance, registry: Registry) {
  new Gauge({
    name: 'datalab_result_cache_entries',
    help: 'Entries in the result cache',
    registers: [registry],
    async collect() {
      this.set((await app.resultCache.keys()).length);
    },
  });
  new Gauge({
    name: 'datalab_result_cache_bytes',
    help: 'Bytes held by the result cache',
    registers: [registry],
    collect() {
      this.set(app.resultCache.bytes);
    },
  });
  const poolLabels = ['connection', 'kind'] as const;
  const gauge = (name: string, help: string) => new Gauge({ name, help, labelNames: poolLabels, registers: [] });
  const pools = {
    total: gauge('datalab_pool_connections', 'Connections a data connection’s pool may hold'),
    idle: gauge('datalab_pool_idle', 'Free places in a data connection’s pool'),
    waiting: gauge('datalab_pool_waiting', 'Runs waiting for a connection of a data connection’s pool'),
  };
  // One collect reads every pool once and fills the three gauges; registered after it, so a scrape reads them filled.
  new Gauge({
    name: 'datalab_pools',
    help: 'Open data-connection pools',
    registers: [registry],
    collect() {
      const all = app.connectors.stats();
      for (const pool of Object.values(pools)) pool.reset();
      for (const { id, kind, stats } of all) {
        const labels = { connection: id, kind };
        pools.total.set(labels, stats.size);
        pools.idle.set(labels, stats.size - stats.inUse);
        pools.waiting.set(labels, stats.waiting);
      }
      this.set(all.length);
    },
  });
  for (const pool of Object.values(pools)) registry.registerMetric(pool);
  new Gauge({
    name: 'datalab_download_jobs',
    help: 'Download jobs by state',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      // Read lazily: the download queue is optional and may be registered after this plugin.
      const downloads = (app as unknown as { downloads?: DownloadCounts }).downloads;
      if (typeof downloads?.counts !== 'function') return;
      this.reset();
      for (const [state, count] of Object.entries(await downloads.counts())) this.set({ state }, count);
    },
  });
}

export default fp(
  async (app: FastifyInstance, options: { families?: MetricFamiliesKind }) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const families = metricFamilies(registry, options.families);
    app.decorate('metrics', registry);
    app.decorate('metricFamilies', families);
    httpMetrics(app, families);
    stateGauges(app, registry);

    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const access = metricsAccess(app.config, request.headers.authorization);
      if (access === 'hidden') throw notFound();
      if (access === 'unauthenticated') {
        reply.header('www-authenticate', 'Bearer');
        throw unauthenticated();
      }
      reply.header('cache-control', 'no-store').type(registry.contentType);
      return registry.metrics();
    });
  },
  { name: 'metrics', dependencies: ['config', 'result-cache', 'sql-runtime'] },
);
