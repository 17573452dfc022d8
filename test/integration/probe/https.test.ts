// HTTPS probes against real TLS servers on 127.0.0.1: verified against caBundle or the system roots, refused for a
// wrong CA or an expired certificate, and accepted unverified only with insecureSkipTLSVerify.
import https from 'node:https';
import { expect } from 'chai';
import { runProbe, type HttpGetAction } from '../../../packages/probe/src/index.js';
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

  it('accepts a named port (https) through the IANA table', async () => {
    // Port 443 is not ours here; the point is that the name resolves and the probe runs (and fails to connect).
    const res = await runProbe({ httpGet: { scheme: 'HTTPS', host: '127.0.0.1', port: 'https' }, timeoutSeconds: 1 });
    expect(res.result).to.not.equal('error');
    if (res.result === 'failure') expect(res.message).to.contain('127.0.0.1:443');
  });
});
