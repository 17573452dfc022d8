// The webhook over real HTTPS on 127.0.0.1 with certificates from src/certs: health, readiness, metrics, TLS floor,
// every bad input, a fuzz over the socket, and certificate rotation under load without a failed request.
import { expect } from 'chai';
import fc from 'fast-check';
import https from 'node:https';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import {
  createServingCertificate,
  makeCertificates,
  writeServingCertificate,
  type PemPair,
} from '../../../src/certs/index.js';
import { DEFAULT_DENY_CIDRS, WebhookServer } from '../../../src/webhook/index.js';
import { clusterReview, httpsRequest, postReview, startTestServer, waitFor, type TestServer } from './helpers.js';

const silent = pino({ level: 'silent' });

describe('webhook over HTTPS', function () {
  this.timeout(120_000); // catches a hang only: the rotation test's waits have 30 s deadlines each
  let dir: string;
  let ca: PemPair;
  let port: number;

  let test: TestServer;

  before(async () => {
    test = await startTestServer('cluster-probe-https-', { certPollIntervalMs: 200 });
    ({ dir, ca, port } = test);
  });

  after(() => test.stop());

  it('serves /healthz and /readyz once the certificate is loaded', async () => {
    expect((await httpsRequest({ port, ca: ca.cert, path: '/healthz' })).status).to.equal(200);
    const ready = await httpsRequest({ port, ca: ca.cert, path: '/readyz' });
    expect([ready.status, ready.body]).to.deep.equal([200, 'ok']);
  });

  it('refuses TLS below 1.2', async () => {
    let error: unknown;
    try {
      await httpsRequest({ port, ca: ca.cert, path: '/healthz', maxVersion: 'TLSv1.1' });
    } catch (err) {
      error = err;
    }
    expect(String(error)).to.match(/protocol version|unsupported protocol|no protocols available/i);
  });

  it('mutates a Cluster review over the wire, echoing the uid', async () => {
    const res = await postReview(port, ca.cert, '/mutate', clusterReview('wire-1'));
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^application\/json/);
    const body = JSON.parse(res.body) as { response: { uid: string; allowed: boolean; patchType: string } };
    expect(body.response).to.include({ uid: 'wire-1', allowed: true, patchType: 'JSONPatch' });
  });

  it('denies an invalid Cluster with 422 inside a 200 answer', async () => {
    const res = await postReview(port, ca.cert, '/validate', clusterReview('wire-2', { tcpSocket: { port: 70000 } }));
    expect(res.status).to.equal(200);
    const body = JSON.parse(res.body) as { response: { uid: string; allowed: boolean; status: { message: string } } };
    expect(body.response.uid).to.equal('wire-2');
    expect(body.response.allowed).to.equal(false);
    expect(body.response.status.message).to.equal(
      'Cluster "member-dev" is invalid: spec.livenessProbe.tcpSocket.port: Invalid value: 70000: must be between 1 and 65535, inclusive',
    );
  });

  describe('bad input', () => {
    const post = (p: string, headers: Record<string, string>, body: string | Buffer) =>
      httpsRequest({ port, ca: ca.cert, method: 'POST', path: p, headers, body });

    it('400 with a JSON Status for a body that is not JSON', async () => {
      const res = await post('/mutate', { 'content-type': 'application/json' }, '{"kind": AdmissionReview');
      expect(res.status).to.equal(400);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(JSON.parse(res.body)).to.deep.include({ kind: 'Status', reason: 'BadRequest', code: 400 });
    });

    it('415 for a wrong Content-Type', async () => {
      const res = await post('/validate', { 'content-type': 'application/x-yaml' }, 'kind: AdmissionReview');
      expect(res.status).to.equal(415);
      expect(JSON.parse(res.body)).to.deep.include({ reason: 'UnsupportedMediaType', code: 415 });
    });

    it('415 for a missing Content-Type', async () => {
      const res = await post('/validate', {}, '{}');
      expect(res.status).to.equal(415);
    });

    it('413 for a body over 3 MiB (declared or streamed)', async () => {
      const big = Buffer.alloc(3 * 1024 * 1024 + 1, 0x20);
      const declared = await post('/mutate', { 'content-type': 'application/json' }, big);
      expect(declared.status).to.equal(413);
      expect(JSON.parse(declared.body)).to.deep.include({ reason: 'RequestEntityTooLarge', code: 413 });
      const chunked = await post(
        '/mutate',
        { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        big,
      );
      expect(chunked.status).to.equal(413);
    });

    it('accepts a review just under 3 MiB', async () => {
      const review = clusterReview('big-ok') as { request: { object: { metadata: Record<string, unknown> } } };
      review.request.object.metadata.annotations = { filler: 'x'.repeat(3 * 1024 * 1024 - 2048) };
      const res = await postReview(port, ca.cert, '/validate', review);
      expect(res.status).to.equal(200);
      expect((JSON.parse(res.body) as { response: { uid: string } }).response.uid).to.equal('big-ok');
    });

    it('400 for a review without request.uid', async () => {
      const review = clusterReview('x') as { request: Record<string, unknown> };
      delete review.request.uid;
      const res = await postReview(port, ca.cert, '/validate', review);
      expect(res.status).to.equal(400);
      expect(JSON.parse(res.body)).to.deep.include({ message: 'AdmissionReview request.uid is required' });
    });

    it('405 for GET on a webhook path, 404 elsewhere, both JSON', async () => {
      const get = await httpsRequest({ port, ca: ca.cert, path: '/mutate' });
      expect(get.status).to.equal(405);
      expect(get.headers.allow).to.equal('POST');
      const missing = await httpsRequest({ port, ca: ca.cert, path: '/nope', method: 'POST' });
      expect(missing.status).to.equal(404);
      expect(JSON.parse(missing.body)).to.deep.include({ code: 404 });
    });

    it('routes once: the admission paths with a query or a trailing slash, health paths by GET and HEAD only', async () => {
      const review = JSON.stringify(clusterReview('route-1'));
      const headers = { 'content-type': 'application/json' };
      for (const p of ['/validate?timeout=5s', '/validate/', '/Validate']) {
        const res = await httpsRequest({ port, ca: ca.cert, method: 'POST', path: p, headers, body: review });
        expect([p, res.status, (JSON.parse(res.body) as { response: { uid: string } }).response.uid]).to.deep.equal([
          p,
          200,
          'route-1',
        ]);
      }
      const head = await httpsRequest({ port, ca: ca.cert, method: 'HEAD', path: '/healthz/' });
      expect([head.status, head.body, head.headers['content-type']]).to.deep.equal([
        200,
        '',
        'text/plain; charset=utf-8',
      ]);
      const put = await httpsRequest({ port, ca: ca.cert, method: 'PUT', path: '/validate?timeout=5s' });
      expect([put.status, JSON.parse(put.body).message]).to.deep.equal([
        405,
        'PUT is not allowed on /validate; POST an AdmissionReview',
      ]);
      const post = await httpsRequest({ port, ca: ca.cert, method: 'POST', path: '/healthz', headers, body: review });
      expect([post.status, JSON.parse(post.body).message]).to.deep.equal([
        404,
        'no route for POST /healthz; the webhook serves POST /mutate and POST /validate',
      ]);
    });

    it('never a 5xx and always the uid, for random bodies over the socket', async () => {
      const agent = new https.Agent({ keepAlive: true, maxSockets: 4 });
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom('/mutate', '/validate'),
            fc.oneof(
              fc.string(),
              fc.jsonValue().map((v) => JSON.stringify(v)),
              fc
                .record({ uid: fc.uuid(), operation: fc.anything(), object: fc.anything(), kind: fc.anything() })
                .map((request) =>
                  JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request }),
                ),
            ),
            async (p, body) => {
              const res = await httpsRequest({
                port,
                ca: ca.cert,
                method: 'POST',
                path: p,
                headers: { 'content-type': 'application/json' },
                body,
                agent,
              });
              expect(res.status).to.be.below(500);
              if (res.status === 200) {
                const uid = (JSON.parse(body) as { request: { uid: string } }).request.uid;
                expect((JSON.parse(res.body) as { response: { uid: string } }).response.uid).to.equal(uid);
              }
            },
          ),
          { numRuns: 300 },
        );
      } finally {
        agent.destroy();
      }
    });
  });

  describe('metrics (after the requests above)', () => {
    it('exposes request, latency, denial and patch metrics by webhook and operation', async () => {
      await postReview(port, ca.cert, '/mutate', clusterReview('m-1'));
      await postReview(port, ca.cert, '/validate', clusterReview('m-2', { tcpSocket: { port: 0 } }));
      const res = await httpsRequest({ port, ca: ca.cert, path: '/metrics' });
      expect(res.status).to.equal(200);
      expect(res.body).to.match(
        /cluster_probe_webhook_requests_total\{webhook="mutate",operation="CREATE",code="200"\} \d+/,
      );
      expect(res.body).to.match(
        /cluster_probe_webhook_request_duration_seconds_bucket\{le="0.005",webhook="validate",operation="CREATE"\}/,
      );
      expect(res.body).to.match(
        /cluster_probe_webhook_denials_total\{webhook="validate",operation="CREATE",reason="Invalid"\} \d+/,
      );
      expect(res.body).to.match(/cluster_probe_webhook_patches_total\{operation="CREATE"\} \d+/);
      expect(res.body).to.match(
        /cluster_probe_webhook_requests_total\{webhook="validate",operation="other",code="415"\} \d+/,
      );
    });
  });

  it('rotates the certificate under load without a failed request, and ignores a bad pair', async () => {
    const failures: string[] = [];
    const serials = new Set<string>();
    let completed = 0;
    let stop = false;
    const keepAlive = new https.Agent({ keepAlive: true, maxSockets: 8 });
    const worker = async (id: number) => {
      // Half the workers reuse connections (old certificate), half open new ones (they must see the new one).
      const agent = id % 2 === 0 ? keepAlive : false;
      for (let i = 0; !stop && i < 5000; i++) {
        try {
          const res = await postReview(
            port,
            ca.cert,
            id % 3 === 0 ? '/validate' : '/mutate',
            clusterReview(`r-${id}-${i}`),
            agent,
          );
          const uid = (JSON.parse(res.body) as { response?: { uid?: string } }).response?.uid;
          if (res.status !== 200 || uid !== `r-${id}-${i}`) failures.push(`status ${res.status} uid ${uid}`);
          if (res.serialNumber) serials.add(res.serialNumber);
          completed++;
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, (_, id) => worker(id)));
    const issued: string[] = [];
    for (let round = 0; round < 3; round++) {
      await new Promise((r) => setTimeout(r, 300));
      const next = await createServingCertificate(ca, { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
      issued.push(new (await import('node:crypto')).X509Certificate(next.cert).serialNumber);
      await writeServingCertificate(dir, next); // key first, then cert: a torn pair in between is refused
      await waitFor(async () => {
        const res = await httpsRequest({ port, ca: ca.cert, path: '/healthz' });
        return res.serialNumber === issued[issued.length - 1];
      });
    }
    // A pair that does not match is refused; the server keeps serving the last good one.
    await writeFile(
      path.join(dir, 'tls.crt'),
      '-----BEGIN CERTIFICATE-----\nnot a certificate\n-----END CERTIFICATE-----\n',
    );
    // Waited for as an event (the server counted the refusal), not slept on: then it still serves the last good pair.
    await waitFor(async () =>
      /cluster_probe_webhook_certificate_reloads_total\{result="rejected"\} [1-9]/.test(
        (await httpsRequest({ port, ca: ca.cert, path: '/metrics' })).body,
      ),
    );
    const still = await httpsRequest({ port, ca: ca.cert, path: '/healthz' });
    expect(still.serialNumber).to.equal(issued[2]);
    stop = true;
    await load;
    keepAlive.destroy();
    expect(failures).to.deep.equal([]);
    expect(completed).to.be.greaterThan(100);
    for (const serial of issued) expect(serials.has(serial), `requests were served with ${serial}`).to.equal(true);
    const metrics = await httpsRequest({ port, ca: ca.cert, path: '/metrics' });
    expect(metrics.body).to.match(/cluster_probe_webhook_certificate_reloads_total\{result="rejected"\} [1-9]/);
  });
});

describe('webhook readiness before certificates exist', function () {
  this.timeout(60_000);

  it('is not ready (handshakes fail) until tls.crt/tls.key appear, then serves without a restart', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cluster-probe-late-'));
    const server = new WebhookServer({
      host: '127.0.0.1',
      port: 0,
      certDir: dir,
      probeLocation: 'field',
      denyHosts: [...DEFAULT_DENY_CIDRS],
      logger: silent,
      certPollIntervalMs: 100,
      shutdownDelayMs: 0,
    });
    try {
      await server.start();
      expect(server.ready).to.equal(false);
      const { ca } = await makeCertificates(path.join(dir, 'staging'), {
        dnsNames: ['localhost'],
        ipAddresses: ['127.0.0.1'],
      });
      let early: unknown;
      try {
        await httpsRequest({ port: server.port, ca: ca.cert, path: '/readyz', timeoutMs: 2000 });
      } catch (err) {
        early = err;
      }
      expect(early, 'no certificate, no handshake').to.be.instanceOf(Error);
      const { serving } = await makeCertificates(path.join(dir, 'staging'), {
        dnsNames: ['localhost'],
        ipAddresses: ['127.0.0.1'],
      });
      await writeServingCertificate(dir, serving);
      await waitFor(() => server.ready);
      const res = await httpsRequest({ port: server.port, ca: ca.cert, path: '/readyz' });
      expect([res.status, res.body]).to.deep.equal([200, 'ok']);
    } finally {
      await server.shutdown();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
