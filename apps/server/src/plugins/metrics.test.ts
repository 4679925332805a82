import { expect, it } from 'vitest';
import { buildCollection, buildPerson } from '../../test/support/builders.ts';
import { describeApp } from '../../test/support/suite.ts';
import { buildAsset, buildConnection, createSqliteSource } from '../../test/support/orders-source.ts';

// /metrics through inject: requests by route pattern and status class, the calling layer's calls and cache lookups,
// pools, the result cache, rate-limit refusals, process metrics; open by default, behind METRICS_TOKEN when set.
// The same calls also reach the usage summaries (through the real calling layer, the recorder and the rollups).
// The counts are taken twice: with metric-families.ts, and with prom-client's own Counter and Histogram (the
// library path, BuildOptions.metricFamilies), which must print the same samples.

/** The value of one sample line, or undefined when the text has no such line. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.split(' ').at(-1));
  }
  return undefined;
}

for (const families of ['own', 'prom-client'] as const) {
  describeApp(
    `/metrics (${families} counters)`,
    (ctx) => {
      it('counts requests, calls, cache lookups, pools and rate-limit refusals, with process metrics', async () => {
        const t = ctx();
        const [owner, admin] = [await buildPerson(t), await buildPerson(t, { canManageUsers: true })];
        const collection = await buildCollection(t, owner);
        const connection = await buildConnection(owner, collection, { driver: 'sqlite', path: createSqliteSource(t) });
        const asset = await buildAsset(owner, collection, connection, {
          sql: 'select id from orders',
          cacheTtlSeconds: 60,
        });
        expect((await owner.call('GET', `/data/v1/${asset.uid}`)).statusCode).toBe(200);
        expect((await owner.call('GET', `/data/v1/${asset.uid}`)).statusCode).toBe(200);
        expect((await owner.call('GET', `/data/v1/${asset.uid}?format=csv`)).statusCode).toBe(200);
        // The client-error report allows 10 a minute per address: the 11th is refused.
        for (let i = 0; i < 11; i += 1) {
          await owner.call('POST', '/api/ApplicationLog/ClientErrors', { message: 'boom', path: '/' });
        }

        // A path no route matches, twice, and a route refused before its handler (no token): each counted.
        expect((await t.app.inject({ method: 'GET', url: '/api/NoSuchCall' })).statusCode).toBe(404);
        expect((await t.app.inject({ method: 'GET', url: '/api/NoSuchCall/Either' })).statusCode).toBe(404);
        expect((await t.app.inject({ method: 'GET', url: '/api/Account/GetCurrentUser' })).statusCode).toBe(401);

        const response = await t.app.inject({ method: 'GET', url: '/metrics' });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toContain('text/plain');
        const text = response.body;
        const calls = { route: '/data/v1/:dataAssetUid', method: 'GET', status_class: '2xx' };
        expect(sample(text, 'datalab_http_requests_total', calls)).toBe(3);
        expect(sample(text, 'datalab_http_request_duration_seconds_count', calls)).toBe(3);
        const unmatched = { route: '(unmatched)', method: 'GET', status_class: '4xx' };
        expect(sample(text, 'datalab_http_requests_total', unmatched)).toBe(2);
        const refused = { route: '/api/Account/GetCurrentUser', method: 'GET', status_class: '4xx' };
        expect(sample(text, 'datalab_http_requests_total', refused)).toBe(1);
        expect(sample(text, 'datalab_http_request_duration_seconds_count', refused)).toBe(1);
        expect(sample(text, 'datalab_calls_total', { channel: 'data-api', format: 'json', status: '200' })).toBe(2);
        expect(sample(text, 'datalab_calls_total', { format: 'csv', status: '200' })).toBe(1);
        expect(sample(text, 'datalab_call_cache_total', { result: 'hit' })).toBe(1);
        expect(sample(text, 'datalab_call_cache_total', { result: 'miss' })).toBe(1);
        expect(sample(text, 'datalab_rate_limited_total', { route: '/api/ApplicationLog/ClientErrors' })).toBe(1);
        expect(sample(text, 'datalab_pool_connections', { kind: 'sqlite' })).toBe(5);
        expect(sample(text, 'datalab_pool_idle', { kind: 'sqlite' })).toBe(5);
        expect(sample(text, 'datalab_result_cache_entries')).toBeGreaterThanOrEqual(1);
        expect(sample(text, 'datalab_result_cache_bytes')).toBeGreaterThan(0);
        expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);

        const period = new URLSearchParams({
          from: new Date(Date.now() - 3_600_000).toISOString(),
          to: new Date(Date.now() + 3_600_000).toISOString(),
          granularity: 'hour',
          dataAssetUid: asset.uid,
        });
        await t.app.usage.flush();
        const summary = await admin.call('GET', `/api/Reporting/GetDataSourceMetricsSummaries?${period}`);
        expect(summary.json().totals).toMatchObject({ calls: 3, errors: 0, distinctUsers: 1 });
        expect(summary.json().totals.cacheHitRatio).toBeCloseTo(1 / 3);
      });
    },
    { metricFamilies: families },
  );
}

describeApp(
  '/metrics with METRICS_TOKEN',
  (ctx) => {
    it('answers only the bearer of the secret', async () => {
      const { app } = ctx();
      const get = (authorization?: string) =>
        app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect((await get()).statusCode).toBe(401);
      expect((await get('Bearer wrong-secret-of-some-length')).statusCode).toBe(401);
      expect((await get('metrics-secret-0123456789')).statusCode).toBe(401);
      const allowed = await get('Bearer metrics-secret-0123456789');
      expect(allowed.statusCode).toBe(200);
      expect(allowed.body).toContain('datalab_http_requests_total');
    });
  },
  { env: { METRICS_TOKEN: 'metrics-secret-0123456789' } },
);
