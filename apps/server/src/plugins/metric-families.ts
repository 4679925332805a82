import { Counter, Histogram, type Metric, type Registry, type RegistryContentType } from 'prom-client';

// Target: GetCurrentUser ≥ 0.7 × a bare Fastify route (bench/RESULTS.md, "GetCurrentUser against a bare route"): every
// request is counted. Oracle: metric-families.unit.test.ts (the same exposition as prom-client's) and metrics.test.ts
// (the app run on each); switch: BuildOptions.metricFamilies 'prom-client' (metricFamilies() below).
//
// Counters and histograms for the metrics a request or a call moves, served by prom-client's Registry. prom-client's
// own label children hash their label values on every increment and observation (bench/RESULTS.md); here
// a child is a plain object that holds its numbers, made once per label set and found by one Map lookup of its joined
// values, so that counting is an addition. The Registry reads a family through `get()` (name, help, type, values) like one of its own.

type Labels = Record<string, string>;

/** What a counter and a histogram share: names, label names, children by label values; the Registry's `reset()`. */
abstract class MetricFamily<Child> {
  abstract readonly type: 'counter' | 'histogram';
  readonly aggregator = 'sum';
  readonly children = new Map<string, Child>();
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];

  constructor(name: string, help: string, labelNames: readonly string[]) {
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
  }

  /** The child of these label values, made the first time they are asked for. */
  protected childOf(values: readonly string[], make: (labels: Labels) => Child): Child {
    if (values.length !== this.labelNames.length) {
      throw new Error(`${this.name} takes ${this.labelNames.length} label values, not ${values.length}`);
    }
    const key = values.join('\u0000');
    let child = this.children.get(key);
    if (!child) {
      const labels = Object.fromEntries(this.labelNames.map((name, index) => [name, values[index]!]));
      child = make(labels);
      this.children.set(key, child);
    }
    return child;
  }

  reset(): void {
    this.children.clear();
  }
}

export class CounterChild {
  readonly labels: Labels;
  value = 0;

  constructor(labels: Labels) {
    this.labels = labels;
  }

  inc(by = 1): void {
    this.value += by;
  }
}

export class CounterFamily extends MetricFamily<CounterChild> {
  readonly type = 'counter';

  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, labelNames);
  }

  /** The child of these label values (a caller may keep it and skip even the lookup). */
  labels(...values: string[]): CounterChild {
    return this.childOf(values, (labels) => new CounterChild(labels));
  }

  get() {
    const values = [...this.children.values()].map((child) => ({ labels: child.labels, value: child.value }));
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

export class HistogramChild {
  readonly labels: Labels;
  readonly #bounds: readonly number[];
  /** Observations per bucket (not cumulative); the last counts those above every bound. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(labels: Labels, bounds: readonly number[]) {
    this.labels = labels;
    this.#bounds = bounds;
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    let index = 0;
    const bounds = this.#bounds;
    while (index < bounds.length && value > bounds[index]!) index += 1;
    this.counts[index]! += 1;
    this.sum += value;
    this.count += 1;
  }
}

export class HistogramFamily extends MetricFamily<HistogramChild> {
  readonly type = 'histogram';
  readonly buckets: readonly number[];

  constructor(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]) {
    super(name, help, labelNames);
    this.buckets = buckets;
    if (buckets.some((bound, index) => index > 0 && bound <= buckets[index - 1]!)) {
      throw new Error(`${name}: bucket bounds must increase`);
    }
  }

  labels(...values: string[]): HistogramChild {
    return this.childOf(values, (labels) => new HistogramChild(labels, this.buckets));
  }

  /** Prometheus's shape: cumulative `_bucket` samples with `le`, then `+Inf`, `_sum` and `_count`. */
  get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const child of this.children.values()) {
      let total = 0;
      this.buckets.forEach((bound, index) => {
        total += child.counts[index]!;
        values.push({ labels: { le: bound, ...child.labels }, value: total, metricName: `${this.name}_bucket` });
      });
      values.push(
        { labels: { le: '+Inf', ...child.labels }, value: child.count, metricName: `${this.name}_bucket` },
        { labels: child.labels, value: child.sum, metricName: `${this.name}_sum` },
        { labels: child.labels, value: child.count, metricName: `${this.name}_count` },
      );
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

/** A counter by label values, whichever implementation holds it. */
export interface CounterMetric {
  labels(...values: string[]): { inc(by?: number): void };
}

/** A histogram by label values, whichever implementation holds it. */
export interface HistogramMetric {
  labels(...values: string[]): { observe(value: number): void };
}

/** Makes the counters and histograms of one Registry. */
export interface MetricFamilies {
  counter(name: string, help: string, labelNames?: readonly string[]): CounterMetric;
  histogram(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]): HistogramMetric;
}

/** The families here ('own', the default) or prom-client's own Counter and Histogram, the library path. */
export type MetricFamiliesKind = 'own' | 'prom-client';

export function metricFamilies(registry: Registry, kind: MetricFamiliesKind = 'own'): MetricFamilies {
  if (kind === 'prom-client') {
    return {
      counter: (name, help, labelNames = []) =>
        new Counter({ name, help, labelNames: [...labelNames], registers: [registry] }),
      histogram: (name, help, labelNames, buckets) =>
        new Histogram({ name, help, labelNames: [...labelNames], buckets: [...buckets], registers: [registry] }),
    };
  }
  return {
    counter: (name, help, labelNames = []) => register(registry, new CounterFamily(name, help, labelNames)),
    histogram: (name, help, labelNames, buckets) =>
      register(registry, new HistogramFamily(name, help, labelNames, buckets)),
  };
}

/**
 * Registers a family with the Registry. Its type names prom-client's own classes; what the Registry uses of a metric
 * — `name`, `type`, `get()` and `reset()` — a family has.
 */
export function register<F extends CounterFamily | HistogramFamily>(
  registry: Registry<RegistryContentType>,
  family: F,
): F {
  registry.registerMetric(family as unknown as Metric);
  return family;
}
