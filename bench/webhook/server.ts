// A server for the webhook bench, run as a child process so the load generator does not share its CPU:
// `floor` is plain node:https that parses the body and answers a constant allowed review; `webhook` is the real one.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pino } from 'pino';
import { DEFAULT_DENY_CIDRS, WebhookServer } from '../../src/webhook/index.js';
import { handleReview } from '../../src/webhook/handle.js';
import { createMetrics } from '../../src/webhook/metrics.js';
import { DEFAULT_CONNECTION_TIMEOUTS } from '../../src/webhook/options.js';

// Floor variants (BENCH_FLOOR_VARIANT, comma-separated; bench/webhook/profile.ts sets it), to split the webhook's cost
// from the floor's: `handler` answers with the webhook's pipeline (handleReview, then its JSON) instead of the
// constant; `metrics` adds the webhook's per-review prom-client counter and histogram; `opts` the webhook's
// connection timeouts. Unset (as bench/webhook/index.ts runs it), the floor is the plain one.
const variant = new Set((process.env.BENCH_FLOOR_VARIANT ?? '').split(','));
const metrics = variant.has('metrics') ? createMetrics({ defaultMetrics: false }) : undefined;
const handlerOptions = { probeLocation: 'field' as const, denyHosts: [...DEFAULT_DENY_CIDRS] };
const [kind, certDir] = process.argv.slice(2);
if ((kind !== 'floor' && kind !== 'webhook') || !certDir) {
  process.stderr.write('usage: server.ts floor|webhook CERT_DIR\n');
  process.exit(2);
}

const ALLOWED = JSON.stringify({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  response: { uid: '00000000-0000-0000-0000-000000000000', allowed: true },
});

async function main(): Promise<void> {
  if (kind === 'floor') {
    const server = https.createServer(
      {
        cert: readFileSync(path.join(certDir!, 'tls.crt')),
        key: readFileSync(path.join(certDir!, 'tls.key')),
        minVersion: 'TLSv1.2',
        ...(variant.has('opts')
          ? {
              handshakeTimeout: DEFAULT_CONNECTION_TIMEOUTS.handshakeMs,
              headersTimeout: DEFAULT_CONNECTION_TIMEOUTS.headersMs,
              requestTimeout: DEFAULT_CONNECTION_TIMEOUTS.requestMs,
              connectionsCheckingInterval: 1000,
            }
          : {}),
      },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          if (variant.has('handler')) {
            const started = performance.now();
            const webhook = req.url === '/mutate' ? 'mutate' : 'validate';
            const handled = handleReview(webhook, req.headers, Buffer.concat(chunks), handlerOptions);
            const text = JSON.stringify(handled.body);
            res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
            res.end(text);
            metrics?.requests.inc({ webhook, operation: 'CREATE', code: '200' });
            metrics?.latency.observe({ webhook, operation: 'CREATE' }, (performance.now() - started) / 1e3);
            return;
          }
          JSON.parse(Buffer.concat(chunks).toString('utf8'));
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(ALLOWED);
        });
      },
    );
    server.keepAliveTimeout = variant.has('opts') ? DEFAULT_CONNECTION_TIMEOUTS.keepAliveMs : 30_000;
    if (variant.has('opts')) server.timeout = DEFAULT_CONNECTION_TIMEOUTS.headersMs;
    server.listen(0, '127.0.0.1', () => {
      process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
    });
    process.once('SIGTERM', () => server.close(() => process.exit(0)));
    return;
  }
  const server = new WebhookServer({
    host: '127.0.0.1',
    port: 0,
    certDir: certDir!,
    probeLocation: 'field',
    denyHosts: [...DEFAULT_DENY_CIDRS],
    logger: pino({ level: 'warn' }),
    shutdownDelayMs: 0,
  });
  await server.start();
  process.stdout.write(`${JSON.stringify({ port: server.port })}\n`);
  process.once('SIGTERM', () => void server.shutdown().then(() => process.exit(0)));
}

void main();
