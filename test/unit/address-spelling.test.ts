// Properties of the one address parser (packages/schema/src/address): any IPv4 address in any spelling reads as the URL parser and
// the system resolver (inet_aton) read it, and gets the verdict of its dotted form at admission and at connect time;
// IPv6 reads as Node reads it; one CIDR parser behind the webhook flag, the schema library and the engine.
import { expect } from 'chai';
import fc from 'fast-check';
import { promises as dns } from 'node:dns';
import net from 'node:net';
import {
  checkAddress,
  denyListFor,
  parseAddress,
  parseIPv4,
  parseIPv6,
} from '../../packages/schema/src/address/index.js';
import { AddressGuard, DEFAULT_DENY_LIST, parseCidr as engineCidr } from '../../packages/probe/src/index.js';
import { DEFAULT_DENY_CIDRS, parseDenyList, validateCluster } from '../../packages/schema/src/schema/index.js';
import { parseCidrFlag as flagCidr } from '../../src/cli/cidr-option.js';

const u32 = fc.integer({ min: 0, max: 0xffffffff });

/** One part in a radix, with the prefix the URL parser and inet_aton know (0x / 0X, 0), maybe extra leading zeros. */
const partIn = (n: number) =>
  fc.tuple(fc.constantFrom('dec', 'hex', 'HEX', 'oct'), fc.nat(3), fc.boolean()).map(([radix, zeros, upper]) => {
    const pad = '0'.repeat(zeros);
    if (radix === 'dec') return String(n);
    if (radix === 'oct') return n === 0 ? '0'.repeat(zeros + 1) : `0${pad}${n.toString(8)}`;
    const digits = n.toString(16);
    return `${radix === 'HEX' ? '0X' : '0x'}${pad}${upper ? digits.toUpperCase() : digits}`;
  });

/** `value` spelt in 1 to 4 parts, each in its own radix. */
const spelling = (value: number) =>
  fc.integer({ min: 1, max: 4 }).chain((count) => {
    const bytes = [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
    const head = bytes.slice(0, count - 1);
    const tail = bytes.slice(count - 1).reduce((acc, b) => acc * 256 + b, 0);
    return fc.tuple(...[...head, tail].map(partIn)).map((parts) => parts.join('.'));
  });

const dotted = (v: number): string => `${v >>> 24}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;

// Metadata and unspecified addresses turn up often enough for the verdicts to be exercised, not only "allowed".
const interesting = fc.oneof(
  u32,
  fc.constantFrom(0, 0xa9fea9fe, 0x646464c8, 0x7f000001),
  fc.integer({ min: 0xa9fe0000, max: 0xa9feffff }),
);

function hostVerdict(host: string): string {
  const errors = validateCluster({
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: 'm' },
    spec: { syncMode: 'Pull', livenessProbe: { tcpSocket: { host, port: 80 } } },
  }).errors.filter((e) => e.type === 'FieldValueForbidden');
  return errors.map((e) => e.detail.replace(/^.*? is /, 'is ')).join('; ');
}

describe('address spellings', () => {
  it('reads any IPv4 spelling as the URL parser does, and judges it as its dotted form', () => {
    const guard = new AddressGuard();
    fc.assert(
      fc.property(
        interesting.chain((v) => fc.tuple(fc.constant(v), spelling(v), fc.boolean())),
        ([value, spelt, trailingDot]) => {
          const host = trailingDot ? `${spelt}.` : spelt;
          expect(parseIPv4(host), host).to.equal(value);
          expect(new URL(`http://${host}/`).hostname, host).to.equal(dotted(value));
          // The one policy: the same verdict for the spelling as for the dotted form, at admission and connect time.
          expect(hostVerdict(host), host).to.equal(hostVerdict(dotted(value)));
          expect(guard.deniedBy(host), host).to.equal(guard.deniedBy(dotted(value)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads as inet_aton does: the system resolver turns the same spellings into the same address', async () => {
    const samples = fc.sample(
      interesting.chain((v) => fc.tuple(fc.constant(v), spelling(v))),
      { numRuns: 200, seed: 42 },
    );
    for (const [value, host] of samples) {
      // "0x" alone is 0 to the URL parser but no number to glibc; both are judged as 0.0.0.0 by the policy.
      if (/(^|\.)0x$/i.test(host)) continue;
      const { address } = await dns.lookup(host, { family: 4 });
      expect(address, host).to.equal(dotted(value));
    }
  });

  it('says "not an address" exactly where the URL parser reads a name or refuses the host', () => {
    const chars = fc.constantFrom(...'0123456789abcdefxX.'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: chars, minLength: 1, maxLength: 20 }), (s) => {
        let oracle: string | undefined;
        try {
          const h = new URL(`http://${s}/`).hostname;
          oracle = /^\d+\.\d+\.\d+\.\d+$/.test(h) ? h : undefined;
        } catch {
          oracle = undefined;
        }
        const mine = parseIPv4(s);
        expect(mine === undefined ? undefined : dotted(mine), s).to.equal(oracle);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads IPv6 as Node does, with brackets and zones, and finds the IPv4 address it carries', () => {
    fc.assert(
      fc.property(fc.ipV6(), (ip) => {
        expect(net.isIP(ip)).to.equal(6);
        const v = parseIPv6(ip);
        expect(v, ip).not.to.equal(undefined);
        // The URL parser's canonical text reads back to the same number.
        const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
        expect(parseIPv6(canonical), `${ip} / ${canonical}`).to.equal(v);
        expect(parseIPv6(`[${ip}]`)).to.equal(v);
        expect(parseIPv6(`${ip}%eth0`)).to.equal(v);
      }),
      { numRuns: 500 },
    );
    for (const bad of [
      '1::2::3',
      ':::',
      '1:2:3:4:5:6:7:8:9',
      '12345::',
      '::ffff:01.2.3.4',
      '::1.2.3',
      'g::',
      '[::1',
      ':',
    ])
      expect(parseIPv6(bad), bad).to.equal(undefined);
  });

  it('checks every IPv6 form that carries a metadata address against the IPv4 list', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0xa9fe0000, max: 0xa9feffff }), (v) => {
        const hex = (n: number): string => n.toString(16);
        const hi = hex(v >>> 16);
        const lo = hex(v & 0xffff);
        for (const host of [
          `::ffff:${dotted(v)}`,
          `::ffff:${hi}:${lo}`,
          `::${hi}:${lo}`,
          `::ffff:0:${hi}:${lo}`,
          `64:ff9b::${hi}:${lo}`,
          `2002:${hi}:${lo}::1`,
        ]) {
          const verdict = checkAddress(host, denyListFor(undefined));
          expect(verdict.allowed, host).to.equal(false);
          expect(parseAddress(host)?.family, host).to.equal(6);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('denies the unspecified addresses even with an empty deny list', () => {
    const none = denyListFor([]);
    for (const host of ['0', '0.0.0.0', '0x0', '::', '[::]', '::ffff:0.0.0.0', '64:ff9b::'])
      expect(checkAddress(host, none), host).to.deep.include({ allowed: false, reason: 'unspecified' });
    expect(new AddressGuard([]).deniedBy('0.0.0.0')).to.equal('unspecified address');
    expect(new AddressGuard([]).deniedBy('169.254.169.254')).to.equal(undefined);
  });
});

describe('one CIDR parser and one default deny list', () => {
  it('is the same default list in the schema library and in the probe engine', () => {
    expect(DEFAULT_DENY_LIST).to.equal(DEFAULT_DENY_CIDRS);
  });

  const GOOD = ['169.254.0.0/16', '100.100.100.200', 'fe80::/10', '::ffff:169.254.0.0/112', '0.0.0.0/0', '::/0'];
  const BAD = [
    '10.0.0.0/',
    '10.0.0.0/ 8',
    '10.0.0.0/8/1',
    '10.0.0.0/33',
    'fe80::/129',
    'example.com/8',
    '0xa9fe0000/16',
    '010.0.0.0/8',
    '[fe80::]/10',
    'fe80::%eth0/10',
    '10.0.0.0/08x',
    '',
  ];

  it('accepts and refuses the same entries behind --deny-cidr, the schema library and the engine', () => {
    for (const entry of GOOD) {
      expect(() => flagCidr(entry), entry).not.to.throw();
      expect(() => parseDenyList([entry]), entry).not.to.throw();
      expect(() => engineCidr(entry), entry).not.to.throw();
      expect(() => new AddressGuard([entry]), entry).not.to.throw();
    }
    for (const entry of BAD) {
      expect(() => flagCidr(entry), entry).to.throw(`--deny-cidr ${JSON.stringify(entry)}: `);
      expect(() => parseDenyList([entry]), entry).to.throw(`deny list entry ${JSON.stringify(entry)}: `);
      expect(() => engineCidr(entry), entry).to.throw(`deny list entry ${JSON.stringify(entry)}: `);
      const r = validateCluster({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster' }, { denyHosts: [entry] });
      expect(
        r.errors.map((e) => e.field),
        entry,
      ).to.include('options.denyHosts');
    }
  });

  it('reads an IPv4-mapped range as the IPv4 range it maps', () => {
    const list = denyListFor(['::ffff:169.254.0.0/112']);
    expect(checkAddress('169.254.169.254', list)).to.deep.include({ allowed: false, cidr: '::ffff:169.254.0.0/112' });
    expect(checkAddress('169.255.0.1', list).allowed).to.equal(true);
  });
});
