import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CounterFamily, HistogramFamily, register } from './metric-families.ts';

// The families are served by prom-client's Registry: for the same counts and observations they must print exactly what
// prom-client's own Counter and Histogram print, in both exposition formats.

const BUCKETS = [0.001, 0.01, 0.1, 1, 10];
/** Edge values on purpose: equal to a bound (counted in it: `le`), between bounds, above every bound, zero. */
const OBSERVATIONS = [0, 0.001, 0.0011, 0.01, 0.05, 0.1, 1, 2.5, 10, 10.5, 99, 0.0005];

type ContentType = typeof Registry.PROMETHEUS_CONTENT_TYPE | typeof Registry.OPENMETRICS_CONTENT_TYPE;

async function printed(fill: (registry: Registry<ContentType>) => void, contentType: ContentType) {
  const registry = new Registry<ContentType>();
  registry.setContentType(contentType);
  fill(registry);
  return registry.metrics();
}

describe('metric families', () => {
  for (const contentType of [Registry.PROMETHEUS_CONTENT_TYPE, Registry.OPENMETRICS_CONTENT_TYPE] as ContentType[]) {
    it(`print counters as prom-client does (${contentType.split(';')[0]})`, async () => {
      const ours = await printed((registry) => {
        const family = register(registry, new CounterFamily('calls_total', 'Calls', ['route', 'status']));
        const ok = family.labels('/a', '200');
        ok.inc();
        ok.inc(2);
        family.labels('/b "quoted"\\', '500').inc();
        expect(family.labels('/a', '200')).toBe(ok);
      }, contentType);
      const theirs = await printed((registry) => {
        const counter = new Counter({
          name: 'calls_total',
          help: 'Calls',
          labelNames: ['route', 'status'] as const,
          registers: [registry],
        });
        counter.inc({ route: '/a', status: '200' });
        counter.inc({ route: '/a', status: '200' }, 2);
        counter.inc({ route: '/b "quoted"\\', status: '500' });
      }, contentType);
      expect(ours).toBe(theirs);
      expect(ours).toContain('calls_total{route="/a",status="200"} 3');
    });

    it(`print histograms as prom-client does (${contentType.split(';')[0]})`, async () => {
      const ours = await printed((registry) => {
        const family = register(registry, new HistogramFamily('took_seconds', 'Time', ['route'], BUCKETS));
        for (const value of OBSERVATIONS) family.labels('/a').observe(value);
        family.labels('/b').observe(0.2);
      }, contentType);
      const theirs = await printed((registry) => {
        const histogram = new Histogram({
          name: 'took_seconds',
          help: 'Time',
          labelNames: ['route'],
          buckets: BUCKETS,
          registers: [registry],
        });
        for (const value of OBSERVATIONS) histogram.observe({ route: '/a' }, value);
        histogram.observe({ route: '/b' }, 0.2);
      }, contentType);
      expect(ours).toBe(theirs);
      expect(ours).toContain('took_seconds_bucket{le="0.001",route="/a"} 3');
      expect(ours).toContain(`took_seconds_count{route="/a"} ${OBSERVATIONS.length}`);
    });
  }

  it('refuses a wrong number of label values and bounds that do not increase', () => {
    const family = new CounterFamily('x_total', 'X', ['a', 'b']);
    expect(() => family.labels('only one')).toThrow('x_total takes 2 label values, not 1');
    expect(() => new HistogramFamily('h', 'H', [], [1, 1, 2])).toThrow('bucket bounds must increase');
  });

  it('starts over on reset, as the Registry asks', async () => {
    const registry = new Registry();
    const family = register(registry, new CounterFamily('y_total', 'Y'));
    family.labels().inc(5);
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('y_total 5');
  });
});
