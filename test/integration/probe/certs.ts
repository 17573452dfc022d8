// Test certificates made at run time with selfsigned (sha256, EC P-256): a CA, a serving certificate it signs for
// 127.0.0.1 and localhost, one that has expired, and an unrelated CA. Nothing is written to disk.
import { generate } from 'selfsigned';

export interface TestPki {
  caPem: string;
  otherCaPem: string;
  server: { key: string; cert: string };
  expired: { key: string; cert: string };
}

const DAY = 24 * 60 * 60 * 1000;

async function makeCa(cn: string): Promise<{ key: string; cert: string }> {
  const ca = await generate([{ name: 'commonName', value: cn }], {
    algorithm: 'sha256',
    keyType: 'ec',
    curve: 'P-256',
    notBeforeDate: new Date(Date.now() - DAY),
    notAfterDate: new Date(Date.now() + 30 * DAY),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  return { key: ca.private, cert: ca.cert };
}

async function makeServing(
  ca: { key: string; cert: string },
  notBefore: Date,
  notAfter: Date,
): Promise<{ key: string; cert: string }> {
  const leaf = await generate([{ name: 'commonName', value: 'probe-test-server' }], {
    algorithm: 'sha256',
    keyType: 'ec',
    curve: 'P-256',
    notBeforeDate: notBefore,
    notAfterDate: notAfter,
    ca,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { key: leaf.private, cert: leaf.cert };
}

let cached: Promise<TestPki> | undefined;

export function testPki(): Promise<TestPki> {
  cached ??= (async () => {
    const ca = await makeCa('probe-test-ca');
    const other = await makeCa('some-other-ca');
    const server = await makeServing(ca, new Date(Date.now() - DAY), new Date(Date.now() + 30 * DAY));
    const expired = await makeServing(ca, new Date(Date.now() - 30 * DAY), new Date(Date.now() - DAY));
    return { caPem: ca.cert, otherCaPem: other.cert, server, expired };
  })();
  return cached;
}

export const b64 = (pem: string): string => Buffer.from(pem, 'utf8').toString('base64');
