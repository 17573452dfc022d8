// Prometheus metrics of the webhook (prom-client), one registry per app so tests can run several side by side.
// Labels stay low-cardinality: webhook (mutate|validate), operation, HTTP code; never object names.
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type WebhookName = 'mutate' | 'validate';

export interface WebhookMetrics {
  registry: Registry;
  requests: Counter<'webhook' | 'operation' | 'code'>;
  latency: Histogram<'webhook' | 'operation'>;
  denials: Counter<'webhook' | 'operation' | 'reason'>;
  patches: Counter<'operation'>;
  certificateReloads: Counter<'result'>;
}

const KNOWN_OPERATIONS = new Set(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']);

/** Bounds the `operation` label: anything unexpected is counted as `other`, so bad input cannot grow the series. */
export function operationLabel(operation: unknown): string {
  return typeof operation === 'string' && KNOWN_OPERATIONS.has(operation) ? operation : 'other';
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): WebhookMetrics {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'cluster_probe_' });
  return {
    registry,
    requests: new Counter({
      name: 'cluster_probe_webhook_requests_total',
      help: 'Admission requests answered, by webhook, operation and HTTP status code.',
      labelNames: ['webhook', 'operation', 'code'],
      registers: [registry],
    }),
    latency: new Histogram({
      name: 'cluster_probe_webhook_request_duration_seconds',
      help: 'Time from the request body being read to the answer being written, by webhook and operation.',
      labelNames: ['webhook', 'operation'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers: [registry],
    }),
    denials: new Counter({
      name: 'cluster_probe_webhook_denials_total',
      help: 'Admission requests denied, by webhook, operation and status reason.',
      labelNames: ['webhook', 'operation', 'reason'],
      registers: [registry],
    }),
    patches: new Counter({
      name: 'cluster_probe_webhook_patches_total',
      help: 'Mutating answers that carried a JSON Patch, by operation.',
      labelNames: ['operation'],
      registers: [registry],
    }),
    certificateReloads: new Counter({
      name: 'cluster_probe_webhook_certificate_reloads_total',
      help: 'Serving certificate loads, by result (loaded|rejected).',
      labelNames: ['result'],
      registers: [registry],
    }),
  };
}
