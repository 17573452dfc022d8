// packages/schema/src/schema/x509.ts against the verdict it stands in for, node:crypto's `new X509Certificate(block)` (OpenSSL 3.0):
// real certificates, their PEM written every way a bundle may write it, certificates built field by field with each
// encoding OpenSSL refuses or allows, and every truncation and many single-byte changes of real ones. It passes on
// Node 20 (OpenSSL 3.0) and Node 24 (3.5); the one rule they differ on is a test of its own.
import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { isX509CertificatePem } from '../../../packages/schema/src/schema/x509.js';
import { EC_PEM, ED_PEM, RSA_PEM, V1_PEM } from './x509-fixtures.js';

const nodeReads = (block: string): boolean => {
  try {
    new X509Certificate(block);
    return true;
  } catch {
    return false;
  }
};

/** The blocks on which the two disagree, with node's verdict. */
function disagreements(blocks: Iterable<[string, string]>): string[] {
  const out: string[] = [];
  for (const [label, block] of blocks) {
    const node = nodeReads(block);
    if (isX509CertificatePem(block) !== node) out.push(`${label}: node:crypto says ${node} (${JSON.stringify(block)})`);
  }
  return out;
}

const REAL = { rsa: RSA_PEM, ec: EC_PEM, ed: ED_PEM, v1: V1_PEM };
const body = (pem: string): string[] => pem.trim().split('\n').slice(1, -1);
const derOf = (pem: string): Buffer => Buffer.from(body(pem).join(''), 'base64');
const pemOf = (der: Uint8Array): string => {
  const b64 = Buffer.from(der).toString('base64');
  return `-----BEGIN CERTIFICATE-----\n${(b64.match(/.{1,64}/g) ?? []).join('\n')}\n-----END CERTIFICATE-----`;
};

// A small DER writer: certificates are built field by field (nothing is signed: reading checks no signature).
const H = (hex: string): Buffer => Buffer.from(hex.replace(/ /g, ''), 'hex');
const length = (n: number): Buffer =>
  n < 128 ? Buffer.from([n]) : n < 256 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 255]);
const tlv = (tag: number, ...content: Buffer[]): Buffer => {
  const c = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(c.length), c]);
};
const CN = H('06 03 55 04 03');
const SHA256_RSA = tlv(0x30, H('06092a864886f70d01010b'), H('0500'));
const TIME = tlv(0x17, Buffer.from('261203154925Z'));
const SPKI = tlv(
  0x30,
  tlv(0x30, H('06072a8648ce3d0201'), H('06082a8648ce3d030107')),
  tlv(0x03, H('0004'), Buffer.alloc(64, 1)),
);
const V3 = H('a003020102');
const nameOf = (value: Buffer): Buffer => tlv(0x30, tlv(0x31, tlv(0x30, CN, value)));
const ext = (...e: Buffer[]): Buffer => tlv(0xa3, tlv(0x30, ...e));
const BASIC = (critical?: Buffer): Buffer =>
  tlv(0x30, H('0603551d13'), ...(critical ? [critical] : []), tlv(0x04, H('3000')));

interface Parts {
  version?: Buffer;
  serial?: Buffer;
  subject?: Buffer;
  validity?: Buffer;
  extra?: Buffer[];
  tail?: Buffer;
}
function cert(p: Parts = {}): Buffer {
  const tbs = tlv(
    0x30,
    ...(p.version ? [p.version] : []),
    p.serial ?? H('020101'),
    SHA256_RSA,
    nameOf(tlv(0x0c, Buffer.from('issuer'))),
    p.validity ?? tlv(0x30, TIME, TIME),
    p.subject ?? nameOf(tlv(0x0c, Buffer.from('subject'))),
    SPKI,
    ...(p.extra ?? []),
  );
  return Buffer.concat([tlv(0x30, tbs, SHA256_RSA, tlv(0x03, H('00ab'))), p.tail ?? Buffer.alloc(0)]);
}

const NAME_VALUES: [string, Buffer][] = [
  ['UTF8String with a surrogate', tlv(0x0c, H('eda080'))],
  ['UTF8String with 0xff', tlv(0x0c, H('ff'))],
  ['an overlong UTF8String', tlv(0x0c, H('c080'))],
  ['UTF8String past U+10FFFF', tlv(0x0c, H('f4908080'))],
  ['UTF8String U+FFFE', tlv(0x0c, H('efbfbe'))],
  ['an empty UTF8String', tlv(0x0c)],
  ['BMPString with a lone surrogate', tlv(0x1e, H('d800'))],
  ['BMPString with a pair', tlv(0x1e, H('d83dde00'))],
  ['BMPString of odd length', tlv(0x1e, H('004100'))],
  ['UniversalString past U+10FFFF', tlv(0x1c, H('00110000'))],
  ['UniversalString of 3 bytes', tlv(0x1c, H('000041'))],
  ['UniversalString A', tlv(0x1c, H('00000041'))],
  ['PrintableString with 0xff', tlv(0x13, H('ff00'))],
  ['IA5String with 0xff', tlv(0x16, H('ff'))],
  ['NumericString of junk', tlv(0x12, H('ffab'))],
  ['VisibleString', tlv(0x1a, H('61'))],
  ['INTEGER', tlv(0x02, H('01'))],
  ['OCTET STRING', tlv(0x04, H('01'))],
  ['NULL', tlv(0x05)],
  ['SEQUENCE', tlv(0x30)],
  ['a primitive SEQUENCE', tlv(0x10)],
  ['BIT STRING of 8 unused bits', tlv(0x03, H('08'))],
  ['BIT STRING', tlv(0x03, H('00'))],
  ['tag 7', tlv(0x07, H('01'))],
  ['tag 29', tlv(0x1d)],
  ['a high tag', H('1f1f0100')],
  ['UTCTime', tlv(0x17, H('00'))],
  ['a constructed UTF8String', tlv(0x2c, tlv(0x04, Buffer.from('ab')))],
  ['a constructed UTF8String of 0xff', tlv(0x2c, tlv(0x04, H('ff')))],
  ['an indefinite constructed UTF8String', Buffer.concat([H('2c80'), tlv(0x04, Buffer.from('ab')), H('0000')])],
  ['a context tag', tlv(0x80, H('01'))],
  ['a long-form length', H('0c810178')],
  ['a long-form length with a zero byte', H('0c82000178')],
];

const BUILT: [string, Buffer][] = [
  ['the base certificate', cert()],
  ...NAME_VALUES.map(([l, v]): [string, Buffer] => [`a name value that is ${l}`, cert({ subject: nameOf(v) })]),
  ['an empty name', cert({ subject: tlv(0x30) })],
  ['an empty RDN', cert({ subject: tlv(0x30, tlv(0x31)) })],
  ['a primitive name SEQUENCE', cert({ subject: tlv(0x10, tlv(0x31, tlv(0x30, CN, tlv(0x0c, H('61'))))) })],
  [
    'an indefinite-length name',
    cert({ subject: Buffer.concat([H('3080'), tlv(0x31, tlv(0x30, CN, tlv(0x0c, H('61')))), H('0000')]) }),
  ],
  [
    'an attribute of three fields',
    cert({ subject: tlv(0x30, tlv(0x31, tlv(0x30, CN, tlv(0x0c, H('61')), tlv(0x0c, H('61'))))) }),
  ],
  ['version 5', cert({ version: H('a003020105') })],
  ['version -1', cert({ version: H('a0030201ff') })],
  ['a padded version', cert({ version: H('a00402020002') })],
  ['a version that is an OCTET STRING', cert({ version: H('a003040102') })],
  ['a primitive [0] version', cert({ version: H('8003020102') })],
  ['an indefinite [0] version', cert({ version: H('a0800201020000') })],
  ['empty extensions', cert({ version: V3, extra: [ext()] })],
  ['v1 with extensions', cert({ extra: [ext(BASIC())] })],
  ['critical FALSE written out', cert({ version: V3, extra: [ext(BASIC(H('010100')))] })],
  ['a two-byte BOOLEAN', cert({ version: V3, extra: [ext(BASIC(H('01020000')))] })],
  ['an extension of garbage', cert({ version: V3, extra: [ext(tlv(0x30, H('0603551d11'), tlv(0x04, H('ff00'))))] })],
  ['issuerUniqueID', cert({ extra: [tlv(0x81, H('00ff'))] })],
  ['issuerUniqueID of 9 unused bits', cert({ extra: [tlv(0x81, H('09ff'))] })],
  ['unique IDs out of order', cert({ extra: [tlv(0x82, H('00ff')), tlv(0x81, H('00ff'))] })],
  ['data after the extensions', cert({ version: V3, extra: [ext(), H('0500')] })],
  ['a negative serial', cert({ serial: H('0201ff') })],
  ['serial 00 80', cert({ serial: H('02020080') })],
  ['serial 00 01 (padded)', cert({ serial: H('02020001') })],
  ['serial ff 80 (padded)', cert({ serial: H('0202ff80') })],
  ['serial ff 00', cert({ serial: H('0202ff00') })],
  ['an empty serial', cert({ serial: H('0200') })],
  ['one time', cert({ validity: tlv(0x30, TIME) })],
  ['a PrintableString time', cert({ validity: tlv(0x30, tlv(0x13, Buffer.from('x')), TIME) })],
  ['auxiliary trust data', cert({ tail: tlv(0x30, tlv(0x30, H('0603551d13'))) })],
  ['an auxiliary alias of 0xff', cert({ tail: tlv(0x30, tlv(0x0c, H('ff'))) })],
  ['a byte after the certificate', cert({ tail: H('ff') })],
  ['end-of-contents after the certificate', cert({ tail: H('0000') })],
  ['auxiliary data and then junk', cert({ tail: Buffer.concat([tlv(0x30), H('ffff')]) })],
  ['auxiliary data holding NULL', cert({ tail: tlv(0x30, H('0500')) })],
  ['auxiliary [1] other', cert({ tail: tlv(0x30, tlv(0xa1, tlv(0x30, H('0603551d13')))) })],
];

function* pemSpellings(): Generator<[string, string]> {
  for (const [name, pem] of Object.entries(REAL)) {
    const lines = body(pem);
    const flat = lines.join('');
    const wrap = (inner: string): string => `-----BEGIN CERTIFICATE-----\n${inner}\n-----END CERTIFICATE-----`;
    yield [`${name}`, pem.trim()];
    yield [`${name} with CRLF`, pem.trim().replace(/\n/g, '\r\n')];
    yield [`${name} on one line`, wrap(flat)];
    yield [
      `${name} after a blank line`,
      `-----BEGIN CERTIFICATE-----\n\n${lines.join('\n')}\n-----END CERTIFICATE-----`,
    ];
    yield [`${name} before a blank line`, wrap(`${lines.join('\n')}\n`)];
    yield [`${name} under a header`, wrap(`Foo: bar\n\n${lines.join('\n')}`)];
    yield [`${name} with trailing blanks`, wrap(lines.join(' \t\n'))];
    yield [`${name} with a trailing é a line`, wrap(lines.join('é\n'))];
    yield [`${name} with a tab inside a line`, wrap(lines.map((l) => `${l.slice(0, 9)}\t${l.slice(9)}`).join('\n'))];
    yield [`${name} with a CR inside a line`, wrap(lines.map((l) => `${l.slice(0, 9)}\r${l.slice(9)}`).join('\n'))];
    yield [
      `${name} with text after BEGIN`,
      `-----BEGIN CERTIFICATE-----x\n${lines.join('\n')}\n-----END CERTIFICATE-----`,
    ];
    yield [`${name} with a second BEGIN`, `-----BEGIN CERTIFICATE-----x\n${wrap(lines.join('\n'))}`];
    yield [
      `${name} with END on the last line`,
      `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}-----END CERTIFICATE-----`,
    ];
    yield [
      `${name} 76 a line after a blank`,
      `-----BEGIN CERTIFICATE-----\n\n${(flat.match(/.{1,76}/g) ?? []).join('\n')}\n-----END CERTIFICATE-----`,
    ];
    for (const w of [1, 3, 4, 63, 65, 253, 254, 255, 300])
      yield [`${name} ${w} a line`, wrap((flat.match(new RegExp(`.{1,${w}}`, 'g')) ?? []).join('\n'))];
  }
}

/** A deterministic stream of small random numbers, so that a failure repeats. */
function random(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
}

describe('x509: reading a certificate as node:crypto reads it', () => {
  it('reads the real certificates and refuses the garbage the validation table uses', () => {
    for (const pem of Object.values(REAL)) expect(isX509CertificatePem(pem.trim())).to.equal(true);
    expect(
      isX509CertificatePem('-----BEGIN CERTIFICATE-----\nMIIBdzCCAR2gAwIBAgIUJd2\n-----END CERTIFICATE-----'),
    ).to.equal(false);
    expect(isX509CertificatePem('-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----')).to.equal(false);
  });

  it('agrees on every way of writing the PEM', () => {
    expect(disagreements(pemSpellings())).to.deep.equal([]);
  });

  it('agrees on certificates built field by field', () => {
    expect(disagreements(BUILT.map(([l, der]): [string, string] => [l, pemOf(der)]))).to.deep.equal([]);
  });

  it('refuses a time too short to be one, as OpenSSL 3.5 (Node 24) does and 3.0 (Node 20) does not', () => {
    for (const time of [tlv(0x18, Buffer.from('20261203154925')), tlv(0x17, Buffer.from('2612031549Z'))]) {
      const block = pemOf(cert({ validity: tlv(0x30, time, TIME) }));
      expect(isX509CertificatePem(block)).to.equal(false);
      expect(nodeReads(block)).to.equal(process.versions.openssl.startsWith('3.0.'));
    }
  });

  it('agrees on every truncation and on single-byte changes of real certificates', () => {
    const next = random(28);
    function* mutations(): Generator<[string, string]> {
      for (const [name, pem] of Object.entries(REAL)) {
        const der = derOf(pem);
        for (let n = 0; n < der.length; n += name === 'v1' ? 1 : 7)
          yield [`${name} cut at ${n}`, pemOf(der.subarray(0, n))];
        for (let k = 0; k < 400; k++) {
          const m = Uint8Array.from(der);
          const i = next(der.length);
          m[i] = [0x00, 0x80, 0xff, (m[i] as number) ^ 0x20, next(256)][k % 5] as number;
          yield [`${name} byte ${i} = ${m[i]}`, pemOf(m)];
        }
      }
    }
    expect(disagreements(mutations())).to.deep.equal([]);
  });

  it('agrees on random edits of the PEM text', () => {
    const next = random(5);
    function* edits(): Generator<[string, string]> {
      const chars = 'A-=\n\r \t:é+/0x\u0000';
      for (const pem of Object.values(REAL)) {
        const text = pem.trim();
        for (let k = 0; k < 300; k++) {
          let t = text;
          for (let j = 0, n = 1 + next(3); j < n; j++) {
            const i = 27 + next(t.length - 52);
            const ch = chars[next(chars.length)] as string;
            const op = next(3);
            t = op === 0 ? t.slice(0, i) + t.slice(i + 1) : t.slice(0, i) + ch + t.slice(op === 1 ? i : i + 1);
          }
          yield [`edit ${k}`, t];
        }
      }
    }
    expect(disagreements(edits())).to.deep.equal([]);
  });
});
