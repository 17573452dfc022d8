// Prometheus metrics of the webhook (prom-client), one registry per app so tests can run several side by side.
// Labels stay low-cardinality: webhook (mutate|validate), operation, HTTP code; never object names.
// The four metrics written on every review are kept here (ReviewCounter, ReviewHistogram) and rendered by prom-client's
// registry when scraped: prom-client's own Counter and Histogram hash and check their labels on every call, which
// cost the webhook about 1.3 us a review in process and 4.6 us in the server (docs/webhook.md), against a budget of a
// few microseconds for everything the webhook adds to a bare HTTPS server.
import { Counter, Registry, collectDefaultMetrics, type Metric } from 'prom-client';

export type WebhookName = 'mutate' | 'validate';

export interface WebhookMetrics {
  registry: Registry;
  requests: ReviewCounter<'webhook' | 'operation' | 'code'>;
  latency: ReviewHistogram<'webhook' | 'operation'>;
  denials: ReviewCounter<'webhook' | 'operation' | 'reason'>;
  patches: ReviewCounter<'operation'>;
  certificateReloads: Counter<'result'>;
}

const KNOWN_OPERATIONS = new Set(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']);

/** Bounds the `operation` label: anything unexpected is counted as `other`, so bad input cannot grow the series. */
export function operationLabel(operation: unknown): string {
  return typeof operation === 'string' && KNOWN_OPERATIONS.has(operation) ? operation : 'other';
}

type Labels<T extends string> = Record<T, string>;

/** One series: its labels as prom-client renders them, and its values. */
interface Series<T extends string> {
  labels: Labels<T>;
  value: number;
  /** Histograms: the count in each bucket (not cumulative), then the sum. */
  buckets?: Float64Array;
  sum?: number;
}

/**
 * Series kept in a Map by label values and registered into a prom-client Registry, which renders them as its own
 * (`get()` gives the shape prom-client's metrics give). Label values must come from a bounded set (the callers'
 * labels are: webhook, operationLabel, HTTP code, status reason).
 */
abstract class ReviewMetric<T extends string> {
  abstract readonly type: 'counter' | 'histogram';
  readonly aggregator = 'sum' as const;
  protected readonly series: Series<T>[] = [];
  /** Series by label values, one Map level per label (looked up with the callers' own strings, whose hashes V8 keeps). */
  private readonly index = new Map<string, unknown>();

  constructor(
    public name: string,
    readonly help: string,
    readonly labelNames: readonly T[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  protected seriesOf(labels: Labels<T>): Series<T> {
    const names = this.labelNames;
    let level = this.index;
    const last = names.length - 1;
    for (let i = 0; i < last; i++) {
      const value = labels[names[i] as T];
      let next = level.get(value) as Map<string, unknown> | undefined;
      if (next === undefined) {
        next = new Map<string, unknown>();
        level.set(value, next);
      }
      level = next;
    }
    const value = labels[names[last] as T];
    let series = level.get(value) as Series<T> | undefined;
    if (series === undefined) {
      const own = {} as Labels<T>;
      for (const name of names) own[name] = labels[name];
      series = this.makeSeries(own);
      level.set(value, series);
      this.series.push(series);
    }
    return series;
  }

  protected abstract makeSeries(labels: Labels<T>): Series<T>;

  reset(): void {
    this.series.length = 0;
    this.index.clear();
  }
}

/** A Prometheus counter (`inc` as prom-client's, with every label given). */
export class ReviewCounter<T extends string> extends ReviewMetric<T> {
  readonly type = 'counter' as const;

  protected makeSeries(labels: Labels<T>): Series<T> {
    return { labels, value: 0 };
  }

  inc(labels: Labels<T>, value = 1): void {
    this.seriesOf(labels).value += value;
  }

  get(): Promise<{ name: string; help: string; type: 'counter'; aggregator: 'sum'; values: unknown[] }> {
    const values = this.series.map((s) => ({ labels: { ...s.labels }, value: s.value }));
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }
}

/** A Prometheus histogram (`observe` as prom-client's, with every label given), rendered as prom-client's. */
export class ReviewHistogram<T extends string> extends ReviewMetric<T> {
  readonly type = 'histogram' as const;

  constructor(
    name: string,
    help: string,
    labelNames: readonly T[],
    readonly upperBounds: readonly number[],
    registry: Registry,
  ) {
    super(name, help, labelNames, registry);
  }

  protected makeSeries(labels: Labels<T>): Series<T> {
    return { labels, value: 0, buckets: new Float64Array(this.upperBounds.length), sum: 0 };
  }

  observe(labels: Labels<T>, value: number): void {
    const series = this.seriesOf(labels);
    series.value += 1;
    series.sum = (series.sum ?? 0) + value;
    const bounds = this.upperBounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= (bounds[i] as number)) {
        (series.buckets as Float64Array)[i]! += 1;
        break;
      }
    }
  }

  get(): Promise<{ name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: unknown[] }> {
    const values: unknown[] = [];
    for (const s of this.series) {
      let cumulative = 0;
      this.upperBounds.forEach((le, i) => {
        cumulative += s.buckets?.[i] ?? 0;
        values.push({
          labels: { le, ...s.labels },
          value: cumulative,
          metricName: `${this.name}_bucket`,
          exemplar: null,
        });
      });
      values.push({
        labels: { le: '+Inf', ...s.labels },
        value: s.value,
        metricName: `${this.name}_bucket`,
        exemplar: null,
      });
      values.push({ labels: { ...s.labels }, value: s.sum ?? 0, metricName: `${this.name}_sum` });
      values.push({ labels: { ...s.labels }, value: s.value, metricName: `${this.name}_count` });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): WebhookMetrics {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'cluster_probe_' });
  return {
    registry,
    requests: new ReviewCounter(
      'cluster_probe_webhook_requests_total',
      'Admission requests answered, by webhook, operation and HTTP status code.',
      ['webhook', 'operation', 'code'],
      registry,
    ),
    latency: new ReviewHistogram(
      'cluster_probe_webhook_request_duration_seconds',
      'Time from the request body being read to the answer being written, by webhook and operation.',
      ['webhook', 'operation'],
      [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registry,
    ),
    denials: new ReviewCounter(
      'cluster_probe_webhook_denials_total',
      'Admission requests denied, by webhook, operation and status reason.',
      ['webhook', 'operation', 'reason'],
      registry,
    ),
    patches: new ReviewCounter(
      'cluster_probe_webhook_patches_total',
      'Mutating answers that carried a JSON Patch, by operation.',
      ['operation'],
      registry,
    ),
    certificateReloads: new Counter({
      name: 'cluster_probe_webhook_certificate_reloads_total',
      help: 'Serving certificate loads, by result (loaded|rejected).',
      labelNames: ['result'],
      registers: [registry],
    }),
  };
}
