// The webhook's per-review metrics (ReviewCounter, ReviewHistogram in src/webhook/metrics.ts) replace prom-client's
// Counter and Histogram on the hot path; scraped, they must read exactly as prom-client's own would after the same
// calls, in both exposition formats (what /metrics serves).
import { expect } from 'chai';
import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { ReviewCounter, ReviewHistogram, createMetrics } from '../../../src/webhook/metrics.js';

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const webhook = fc.constantFrom('mutate', 'validate');
const operation = fc.constantFrom('CREATE', 'UPDATE', 'DELETE', 'CONNECT', 'other');
const code = fc.constantFrom('200', '400', '413', '415', '429');
const seconds = fc.oneof(fc.constantFrom(...BUCKETS, 0, 2), fc.double({ min: 0, max: 3, noNaN: true }));

describe('the webhook per-review metrics', () => {
  for (const contentType of [Registry.PROMETHEUS_CONTENT_TYPE, Registry.OPENMETRICS_CONTENT_TYPE]) {
    it(`render as prom-client's Counter and Histogram after the same calls (${contentType.split(';')[0]})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(webhook, operation, code, seconds), { maxLength: 60 }), async (calls) => {
          const ours = new Registry();
          const theirs = new Registry();
          ours.setContentType(contentType as typeof Registry.PROMETHEUS_CONTENT_TYPE);
          theirs.setContentType(contentType as typeof Registry.PROMETHEUS_CONTENT_TYPE);
          const help = 'Help text.';
          const labelNames = ['webhook', 'operation', 'code'] as const;
          const c1 = new ReviewCounter('x_requests_total', help, labelNames, ours);
          const h1 = new ReviewHistogram('x_seconds', help, ['webhook', 'operation'], BUCKETS, ours);
          const c2 = new Counter({ name: 'x_requests_total', help, labelNames, registers: [theirs] });
          const h2 = new Histogram({
            name: 'x_seconds',
            help,
            labelNames: ['webhook', 'operation'],
            buckets: BUCKETS,
            registers: [theirs],
          });
          for (const [w, o, k, s] of calls) {
            c1.inc({ webhook: w, operation: o, code: k });
            c2.inc({ webhook: w, operation: o, code: k });
            h1.observe({ webhook: w, operation: o }, s);
            h2.observe({ webhook: w, operation: o }, s);
          }
          expect(await ours.metrics()).to.equal(await theirs.metrics());
          ours.resetMetrics();
          theirs.resetMetrics();
          expect(await ours.metrics()).to.equal(await theirs.metrics());
        }),
        { numRuns: 200 },
      );
    });
  }

  it('keeps the webhook metrics in one registry, named as documented', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    metrics.requests.inc({ webhook: 'mutate', operation: 'CREATE', code: '200' });
    metrics.latency.observe({ webhook: 'mutate', operation: 'CREATE' }, 0.002);
    metrics.patches.inc({ operation: 'CREATE' });
    const text = await metrics.registry.metrics();
    expect(text).to.match(
      /^cluster_probe_webhook_requests_total\{webhook="mutate",operation="CREATE",code="200"\} 1$/m,
    );
    expect(text).to.match(
      /^cluster_probe_webhook_request_duration_seconds_bucket\{le="0.0025",webhook="mutate",operation="CREATE"\} 1$/m,
    );
    expect(text).to.match(/^cluster_probe_webhook_patches_total\{operation="CREATE"\} 1$/m);
  });
});
