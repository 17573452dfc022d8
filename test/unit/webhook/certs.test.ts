// The certificates `cluster-probe certs` and `serve --make-certs` produce: SHA-256, a real CA, the SANs asked for,
// and the checks the reloader applies before handing a pair to the server.
import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  checkKeyPair,
  createCertificateAuthority,
  createServingCertificate,
  ensureCertificates,
  KeyPairError,
  makeCertificates,
  serviceDnsNames,
} from '../../../src/certs/index.js';

describe('certificates', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cluster-probe-certs-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('makes a SHA-256 CA and a serving certificate it signs, with the DNS and IP SANs asked for', async () => {
    const { ca, serving } = await makeCertificates(dir, {
      dnsNames: serviceDnsNames('cluster-probe-system', 'cluster-probe-webhook'),
      ipAddresses: ['127.0.0.1', '::1'],
    });
    const caCert = new X509Certificate(ca.cert);
    const cert = new X509Certificate(serving.cert);
    expect(caCert.ca).to.equal(true);
    expect(cert.ca).to.equal(false);
    expect(cert.verify(caCert.publicKey)).to.equal(true);
    expect(cert.checkIssued(caCert)).to.equal(true);
    expect(cert.subjectAltName).to.equal(
      'DNS:cluster-probe-webhook, DNS:cluster-probe-webhook.cluster-probe-system, ' +
        'DNS:cluster-probe-webhook.cluster-probe-system.svc, ' +
        'DNS:cluster-probe-webhook.cluster-probe-system.svc.cluster.local, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1',
    );
    expect(cert.checkHost('cluster-probe-webhook.cluster-probe-system.svc')).to.equal(
      'cluster-probe-webhook.cluster-probe-system.svc',
    );
    expect(cert.checkIP('127.0.0.1')).to.equal('127.0.0.1');
    // ecdsa-with-SHA256: the signature algorithm OID 1.2.840.10045.4.3.2 sits in the DER.
    const sha256Oid = Buffer.from([0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02]);
    expect(cert.raw.includes(sha256Oid)).to.equal(true);
    expect(caCert.raw.includes(sha256Oid)).to.equal(true);
    expect(cert.keyUsage ?? []).to.include('1.3.6.1.5.5.7.3.1'); // serverAuth
  });

  it('writes ca.crt, ca.key, tls.crt, tls.key with the keys readable by the owner only', async () => {
    await makeCertificates(dir, { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
    for (const file of ['ca.crt', 'ca.key', 'tls.crt', 'tls.key']) {
      expect((await readFile(path.join(dir, file), 'utf8')).startsWith('-----BEGIN')).to.equal(true);
    }
    expect((await stat(path.join(dir, 'tls.key'))).mode & 0o077).to.equal(0);
    expect((await stat(path.join(dir, 'ca.key'))).mode & 0o077).to.equal(0);
  });

  it('reuses the CA already in the directory, so a re-issued certificate still matches the caBundle', async () => {
    const first = await makeCertificates(dir, { dnsNames: ['localhost'], ipAddresses: [] });
    const second = await makeCertificates(dir, { dnsNames: ['localhost', 'other'], ipAddresses: [] });
    expect(second.ca.cert).to.equal(first.ca.cert);
    expect(second.serving.cert).to.not.equal(first.serving.cert);
    expect(new X509Certificate(second.serving.cert).checkIssued(new X509Certificate(first.ca.cert))).to.equal(true);
  });

  it('ensureCertificates makes certificates only when tls.crt/tls.key are absent', async () => {
    expect(await ensureCertificates(dir, { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] })).to.equal(true);
    const before = await readFile(path.join(dir, 'tls.crt'), 'utf8');
    expect(await ensureCertificates(dir, { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] })).to.equal(false);
    expect(await readFile(path.join(dir, 'tls.crt'), 'utf8')).to.equal(before);
  });

  it('refuses an IP SAN that is not an address', async () => {
    const ca = await createCertificateAuthority();
    let error: unknown;
    try {
      await createServingCertificate(ca, { dnsNames: ['x'], ipAddresses: ['300.1.1.1'] });
    } catch (err) {
      error = err;
    }
    expect(String(error)).to.contain('certificate SAN "300.1.1.1" is not an IP address');
  });

  describe('checkKeyPair', () => {
    it('accepts a matching pair and reports only public facts', async () => {
      const ca = await createCertificateAuthority();
      const pair = await createServingCertificate(ca, { dnsNames: ['localhost'], ipAddresses: [] });
      const loaded = checkKeyPair(pair.cert, pair.key);
      expect(loaded.subject).to.equal('CN=localhost');
      expect(loaded.hash).to.match(/^[0-9a-f]{64}$/);
    });

    it('rejects a key that belongs to another certificate', async () => {
      const ca = await createCertificateAuthority();
      const a = await createServingCertificate(ca, { dnsNames: ['a'], ipAddresses: [] });
      const b = await createServingCertificate(ca, { dnsNames: ['b'], ipAddresses: [] });
      expect(() => checkKeyPair(a.cert, b.key)).to.throw(
        KeyPairError,
        'tls.key does not belong to the certificate in tls.crt',
      );
    });

    it('rejects garbage and truncated PEM with the file named', async () => {
      const ca = await createCertificateAuthority();
      const a = await createServingCertificate(ca, { dnsNames: ['a'], ipAddresses: [] });
      expect(() => checkKeyPair('not a cert', a.key)).to.throw(KeyPairError, /^tls\.crt is not a PEM certificate/);
      expect(() => checkKeyPair(a.cert, a.key.slice(0, 60))).to.throw(
        KeyPairError,
        /^tls\.key is not a PEM private key/,
      );
    });

    it('rejects an expired certificate', async () => {
      const ca = await createCertificateAuthority();
      const a = await createServingCertificate(ca, { dnsNames: ['a'], ipAddresses: [], validityDays: 1 });
      expect(() => checkKeyPair(a.cert, a.key, new Date(Date.now() + 3 * 24 * 3600 * 1000))).to.throw(
        KeyPairError,
        /^tls\.crt expired at /,
      );
    });
  });
});
