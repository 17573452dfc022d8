// HTTPS probes against real TLS servers on 127.0.0.1: verified against caBundle or the system roots, refused for a
// wrong CA or an expired certificate, and accepted unverified only with insecureSkipTLSVerify.
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import { expect } from 'chai';
import { MAX_RESPONSE_HEADER_BYTES, runProbe, type HttpGetAction } from '../../../packages/probe/src/index.js';
import { b64, testPki, type TestPki } from './certs.js';
import { close, listen } from './servers.js';

describe('httpGet probe over HTTPS', function () {
  this.timeout(15_000);
  let pki: TestPki;
  let good: https.Server;
  let expired: https.Server;
  let goodPort: number;
  let expiredPort: number;

  before(async () => {
    pki = await testPki();
    const handler = (_req: unknown, res: { writeHead(n: number): void; end(): void }): void => {
      res.writeHead(200);
      res.end();
    };
    good = https.createServer({ key: pki.server.key, cert: pki.server.cert }, handler);
    expired = https.createServer({ key: pki.expired.key, cert: pki.expired.cert }, handler);
    goodPort = await listen(good);
    expiredPort = await listen(expired);
  });

  after(async () => {
    await close(good);
    await close(expired);
  });

  const https_ = (port: number, extra: Partial<HttpGetAction> = {}): Promise<Awaited<ReturnType<typeof runProbe>>> =>
    runProbe({ httpGet: { scheme: 'HTTPS', host: '127.0.0.1', port, path: '/healthz', ...extra } });

  it('passes when the certificate chains to the caBundle', async () => {
    const res = await https_(goodPort, { caBundle: b64(pki.caPem) });
    expect(res).to.include({ result: 'success', message: 'HTTP probe succeeded with statuscode: 200' });
  });

  it('passes for a name in the certificate (localhost) too', async () => {
    const res = await https_(goodPort, { host: 'localhost', caBundle: b64(pki.caPem) });
    expect(res.result).to.equal('success');
  });

  it('fails against a caBundle of another CA', async () => {
    const res = await https_(goodPort, { caBundle: b64(pki.otherCaPem) });
    expect(res.result).to.equal('failure');
    expect(res.message).to.equal(
      `Get "https://127.0.0.1:${goodPort}/healthz": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );
  });

  it('verifies against the system roots when there is no caBundle, and so fails for a private CA', async () => {
    const res = await https_(goodPort);
    expect(res.result).to.equal('failure');
    expect(res.message).to.contain('certificate signed by unknown authority');
  });

  it('fails on an expired certificate even from the right CA', async () => {
    const res = await https_(expiredPort, { caBundle: b64(pki.caPem) });
    expect(res.result).to.equal('failure');
    expect(res.message).to.contain('x509: certificate has expired or is not yet valid');
  });

  it('passes unverified only with insecureSkipTLSVerify', async () => {
    expect((await https_(expiredPort, { insecureSkipTLSVerify: true })).result).to.equal('success');
    expect((await https_(goodPort, { insecureSkipTLSVerify: true, caBundle: b64(pki.otherCaPem) })).result).to.equal(
      'success',
    );
  });

  it('treats a caBundle that is not PEM as a configuration error, not a failure', async () => {
    const res = await https_(goodPort, {
      caBundle: b64('-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----'),
    });
    expect(res.result).to.equal('error');
    expect(res.message).to.contain('httpGet.caBundle');
  });

  describe("a server that speaks only h2 (ALPN), as the kubelet's transport (SetTransportDefaults) offers it", () => {
    let h2: http2.Http2SecureServer;
    let h2Port: number;
    const seen: http2.IncomingHttpHeaders[] = [];
    let sessions = 0;
    before(async () => {
      h2 = http2.createSecureServer({ key: pki.server.key, cert: pki.server.cert, allowHTTP1: false });
      h2.on('session', (session) => {
        sessions++;
        // The probe closes its session after 10 KiB of a 1 MiB body: a reset the server is told of (Node 24 emits it).
        session.on('error', () => undefined);
      });
      h2.on('stream', (stream, headers) => {
        stream.on('error', () => undefined);
        seen.push(headers);
        const path = headers[':path'] ?? '/';
        if (path.startsWith('/big')) {
          stream.respond({ ':status': 200 });
          stream.end(Buffer.alloc(1024 * 1024, 0x61));
        } else if (path.startsWith('/huge-headers')) {
          stream.respond({ ':status': 200, 'x-big': 'a'.repeat(MAX_RESPONSE_HEADER_BYTES + 1024) });
          stream.end();
        } else if (path.startsWith('/redirect')) {
          stream.respond({ ':status': 302, location: '/status/503' });
          stream.end();
        } else if (path.startsWith('/status/503')) {
          stream.respond({ ':status': 503 });
          stream.end('SECRET');
        } else if (path.startsWith('/stall')) {
          stream.respond({ ':status': 200 });
          stream.write('a');
        } else {
          stream.respond({ ':status': 200 });
          stream.end('ok');
        }
      });
      h2Port = await listen(h2);
    });
    after(() => new Promise<void>((resolve) => h2.close(() => resolve())));

    it("passes over h2, with the headers and request-target Go's h2 transport sends", async () => {
      seen.length = 0;
      const res = await https_(h2Port, {
        caBundle: b64(pki.caPem),
        path: '/a b',
        httpHeaders: [{ name: 'X-Probe', value: 'yes' }],
      });
      expect(res).to.include({ result: 'success', message: 'HTTP probe succeeded with statuscode: 200' });
      expect(seen[0]).to.include({
        ':path': '/a%20b',
        ':authority': `127.0.0.1:${h2Port}`,
        'x-probe': 'yes',
        accept: '*/*',
      });
    });

    it('follows a same-host redirect over h2 and judges the final status', async () => {
      const res = await https_(h2Port, { caBundle: b64(pki.caPem), path: '/redirect' });
      expect(res).to.include({ result: 'failure', message: 'HTTP probe failed with statuscode: 503' });
    });

    it('reads a 1 MiB h2 body only to the limit, on one new session per probe, closed after', async () => {
      const before = sessions;
      expect((await https_(h2Port, { caBundle: b64(pki.caPem), path: '/big' })).result).to.equal('success');
      expect((await https_(h2Port, { caBundle: b64(pki.caPem), path: '/big' })).result).to.equal('success');
      expect(sessions - before).to.equal(2);
    });

    it('fails on an h2 header block above the bound, as over HTTP/1.x', async () => {
      const res = await https_(h2Port, { caBundle: b64(pki.caPem), path: '/huge-headers' });
      expect(res).to.include({
        result: 'failure',
        message: `Get "https://127.0.0.1:${h2Port}/huge-headers": http2: the server closed the stream without a response (response headers are bounded to ${MAX_RESPONSE_HEADER_BYTES} bytes)`,
      });
    });

    it("errors (the kubelet's errored probe) when an h2 body stalls past the timeout", async () => {
      const res = await runProbe({
        httpGet: { scheme: 'HTTPS', host: '127.0.0.1', port: h2Port, path: '/stall', caBundle: b64(pki.caPem) },
        timeoutSeconds: 1,
      });
      expect(res).to.include({
        result: 'error',
        code: 'ProbeErrored',
        message: 'context deadline exceeded (Client.Timeout or context cancellation while reading body)',
      });
    });
  });

  it("fails against a server that does not speak TLS, in Go's words for a first record that is not TLS", async () => {
    const plain = http.createServer((_req, res) => res.end('plain'));
    const plainPort = await listen(plain);
    try {
      const res = await https_(plainPort, { caBundle: b64(pki.caPem) });
      expect(res).to.include({
        result: 'failure',
        message: `Get "https://127.0.0.1:${plainPort}/healthz": tls: first record does not look like a TLS handshake`,
      });
    } finally {
      await close(plain);
    }
  });

  it('accepts a named port (https) through the IANA table', async () => {
    // Port 443 is not ours here; the point is that the name resolves and the probe runs (and fails to connect).
    const res = await runProbe({ httpGet: { scheme: 'HTTPS', host: '127.0.0.1', port: 'https' }, timeoutSeconds: 1 });
    expect(res.result).to.not.equal('error');
    if (res.result === 'failure') expect(res.message).to.contain('127.0.0.1:443');
  });
});
