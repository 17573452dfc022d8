// The portable stand-ins packages/schema/src/address and packages/schema/src/schema use instead of Node's: ipFamily for node:net's isIP,
// hostToASCII for node:url's domainToASCII, utf8Length for Buffer.byteLength. Each is held to the Node function it
// replaces, on the inputs that reach it at admission and on generated ones.
import { expect } from 'chai';
import fc from 'fast-check';
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { hostToASCII, ipFamily } from '../../packages/schema/src/address/index.js';
import { utf8Length } from '../../packages/schema/src/schema/k8s-names.js';

const IP_TEXTS = [
  '1.2.3.4',
  '01.2.3.4',
  '256.1.1.1',
  '1.2.3',
  '1.2.3.4.',
  '1.2.3.4\n',
  '::',
  '::1',
  ':::',
  '1::2::3',
  '::ffff:1.2.3.4',
  '::ffff:01.2.3.4',
  'a:b:c:d:e:f:1.2.3.4',
  'a:b:c:d:e:f:0:1:2',
  'fe80::1%eth0',
  'fe80::1%',
  '[::1]',
  '0x7f.1',
  '',
];

const HOSTS = [
  '１２７.０.０.１',
  '１６９。２５４。１６９。２５４',
  '0ｘ7f000001',
  '４２９４９６７２９６',
  '１.２.３.４.５',
  'ｘ',
  'x',
  'München',
  'faß.de',
  '例え.テスト',
  'xn--zz',
  'a b',
  'a/b',
  'a?b',
  '#',
  '[::1]',
  'ü:1',
  '\u200d',
  '¹.²',
  'Ⅻ.1',
  '🙂.com',
  'a%41',
  '',
];

/** Any UTF-16 code unit, lone surrogates included. */
const CODE_UNIT = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

describe('portable stand-ins for Node functions', () => {
  it('ipFamily answers as node:net isIP', () => {
    for (const s of IP_TEXTS) expect(ipFamily(s), s).to.equal(isIP(s));
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF:.%x'), maxLength: 24 }), (s) => {
        expect(ipFamily(s)).to.equal(isIP(s));
      }),
      { numRuns: 20000 },
    );
  });

  it('hostToASCII answers as node:url domainToASCII', () => {
    for (const h of HOSTS) expect(hostToASCII(h), h).to.equal(domainToASCII(h));
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'０１９ｘ。.-aZé٣²Ⅻßİ:/ '), maxLength: 12 }), (s) => {
        expect(hostToASCII(s)).to.equal(domainToASCII(s));
      }),
      { numRuns: 3000 },
    );
  });

  it("utf8Length counts as Buffer.byteLength (a lone surrogate as U+FFFD's 3 bytes)", () => {
    for (const s of ['', 'a', 'é', '€', '😀', '\ud800', '\udc00', '\ud83d', 'a\ud800b', '\udc00\ud800'])
      expect(utf8Length(s), JSON.stringify(s)).to.equal(Buffer.byteLength(s, 'utf8'));
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: CODE_UNIT }), (a, b) => {
        expect(utf8Length(a + b)).to.equal(Buffer.byteLength(a + b, 'utf8'));
      }),
      { numRuns: 5000 },
    );
  });
});
