// Quantities as the apiserver decodes them for Karmada: Quantity.UnmarshalJSON parses strings.TrimSpace of a string,
// and MaxInt64 written as a JSON number is the int64 9223372036854775807 (JSON.parse rounds it to 2^63).
import { expect } from 'chai';
import { validateCluster } from '../../../packages/schema/src/schema/index.js';

const cluster = (min: unknown, max: unknown) => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'm' },
  spec: { syncMode: 'Push', resourceModels: [{ grade: 0, ranges: [{ name: 'cpu', min, max }] }] },
});
const messages = (min: unknown, max: unknown) => validateCluster(cluster(min, max)).errors.map((e) => e.message);

describe('resource model quantities as Kubernetes decodes them', () => {
  it('trims white space around a quantity, as strings.TrimSpace does', () => {
    expect(messages(' 0', '9223372036854775807 ')).to.deep.equal([]);
    expect(messages('\t0\n', '\u00a09223372036854775807')).to.deep.equal([]);
  });

  it('still refuses what TrimSpace keeps (a byte order mark, inner space)', () => {
    expect(messages('\ufeff0', '9223372036854775807')).to.have.length(1);
    expect(messages('0', '9223372036854775807 m')).to.have.length(1);
  });

  it('reads MaxInt64 written as a JSON number', () => {
    expect(messages(0, JSON.parse('9223372036854775807'))).to.deep.equal([]);
    expect(messages(0, 9007199254740992)).to.deep.equal([
      'spec.resourceModels[0].ranges[0].max: Invalid value: 9007199254740992: must be 9223372036854775807 (MaxInt64) in the last model',
    ]);
  });
});

describe('trimming in linear time', () => {
  it('refuses a long inner run of white space without backtracking', () => {
    // `^\s+|\s+$` tried the trailing run at every position: 100,000 spaces took 10 s (the old code fails by timeout).
    expect(messages('0', `9${' '.repeat(300_000)}x`)).to.have.length(1);
    expect(messages(`${' '.repeat(300_000)}0`, '9223372036854775807')).to.deep.equal([]);
  });
});
