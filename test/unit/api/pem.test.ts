// The PEM scan gives what `match(/BEGIN[\s\S]*?END/g)` gave, and in linear time on a bundle of BEGINs without an END
// (the pattern took quadratic time there: 1 MB, 24 s; the old code fails this by timeout).
import { expect } from 'chai';
import fc from 'fast-check';
import { pemCertificateBlocks } from '../../../packages/schema/src/api/index.js';

const B = '-----BEGIN CERTIFICATE-----';
const E = '-----END CERTIFICATE-----';
const lazy = (s: string) => s.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g);

describe('pemCertificateBlocks', () => {
  it('finds the blocks the lazy pattern finds', () => {
    for (const s of ['', B, E, `${B}${E}`, `${B}a\n${E}\n${B}b${E}`, `${B}${B}x${E}${E}`, `${E}${B}y${E}`, `x${B}z`]) {
      expect(pemCertificateBlocks(s), JSON.stringify(s)).to.deep.equal(lazy(s));
    }
    fc.assert(
      fc.property(fc.array(fc.constantFrom(B, E, 'MIIB', '\n', '-----', 'BEGIN', '\r\n')), (parts) => {
        const s = parts.join('');
        expect(pemCertificateBlocks(s)).to.deep.equal(lazy(s));
      }),
      { numRuns: 3000 },
    );
  });

  it('scans a megabyte of BEGINs without an END at once', () => {
    expect(pemCertificateBlocks(B.repeat(40_000))).to.equal(null);
  });
});
