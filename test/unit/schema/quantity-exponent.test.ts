// Quantities with huge exponents: `1e30000000` is 11 bytes, and building its value in full (100 million bits) took
// seconds of CPU on the webhook's one thread (found by attacking /validate). The value built stays small, and every
// verdict holds: above int64 for large exponents, zero for tiny ones, the resource-model errors unchanged.
import { expect } from 'chai';
import { parseQuantity, validateCluster } from '../../../packages/schema/src/schema/index.js';
import { MAX_INT64_NANO } from '../../../packages/schema/src/schema/quantity.js';

/** Bits of a bigint's magnitude: what building the value cost is proportional to. */
const bits = (v: bigint): number => (v < 0n ? -v : v).toString(16).length * 4;

describe('parseQuantity with huge exponents', () => {
  it('orders a huge value above MaxInt64 and a tiny one at zero', () => {
    for (const q of ['1e30000000', '1E999999999', '5e64', '1e1000000']) {
      const v = parseQuantity(q);
      expect(v, q).to.be.a('bigint');
      expect((v as bigint) > MAX_INT64_NANO, q).to.equal(true);
    }
    expect(parseQuantity('-1e30000000')! < -MAX_INT64_NANO).to.equal(true);
    expect(parseQuantity('1e-30000000')).to.equal(0n);
    expect(parseQuantity('123e-5')).to.equal(1230000n);
    expect(parseQuantity('1e18')).to.equal(10n ** 27n);
  });

  it('builds no value larger than a few hundred bits, whatever the exponent', () => {
    for (const q of ['1e30000000', '-9.5e2147483647', '1e64', '123456789e100']) {
      const v = parseQuantity(q);
      expect(v, q).to.be.a('bigint');
      expect(bits(v as bigint), q).to.be.below(512);
    }
  });

  it('validates a Cluster with such quantities, with the error Karmada gives', () => {
    const cluster = (max: string) => ({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: 'm' },
      spec: { syncMode: 'Push', resourceModels: [{ grade: 0, ranges: [{ name: 'cpu', min: '0', max }] }] },
    });
    expect(validateCluster(cluster('1e30000000')).errors.map((e) => e.message)).to.deep.equal([
      `spec.resourceModels[0].ranges[0].max: Invalid value: "1e30000000": must be 9223372036854775807 (MaxInt64) in the last model`,
    ]);
  });
});

describe('parseQuantity on long spellings', () => {
  it('refuses a number with two points without backtracking ("1111...1.1.1")', () => {
    // The regular expression this replaced took minutes on 300 KB of this (the old code fails by mocha's timeout).
    expect(parseQuantity(`${'1'.repeat(300_000)}.1.1`)).to.equal(undefined);
    expect(parseQuantity('.')).to.equal(undefined);
    expect(parseQuantity('1.')).to.equal(1_000_000_000n);
    expect(parseQuantity('.5')).to.equal(500_000_000n);
  });

  it('reads millions of digits into a bounded value, exactly where it is small', () => {
    const huge = parseQuantity('9'.repeat(2_500_000));
    expect(huge! > MAX_INT64_NANO).to.equal(true);
    expect(bits(huge!)).to.be.below(512);
    expect(parseQuantity(`0.${'0'.repeat(2_000_000)}1`)).to.equal(0n);
    expect(parseQuantity(`1.${'9'.repeat(2_000_000)}`)).to.equal(1_999_999_999n);
    expect(parseQuantity(`${'0'.repeat(1_000_000)}42m`)).to.equal(42_000_000n);
    expect(parseQuantity(`1.${'9'.repeat(500_000)}Ki`)).to.equal(2047_999_999_999n);
  });
});
