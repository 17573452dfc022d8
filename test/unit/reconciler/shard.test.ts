// Sharding by a stable hash: FNV-1a 32 of the Cluster name, identical on every replica and release, spread evenly.
import { expect } from 'chai';
import { ownsCluster, shardOf } from '../../../src/reconciler/index.js';
import { fnv1a32 } from '../../../src/reconciler/shard.js';

describe('reconciler sharding', () => {
  it('computes FNV-1a 32 as the reference vectors', () => {
    expect(fnv1a32('')).to.equal(0x811c9dc5);
    expect(fnv1a32('a')).to.equal(0xe40c292c);
    expect(fnv1a32('foobar')).to.equal(0xbf9cf968);
  });

  it('keeps a Cluster in the same shard across releases (pinned values)', () => {
    expect(['member-1', 'member-2', 'member-dev', 'prod-eu-west-1'].map((n) => fnv1a32(n))).to.deep.equal([
      785448705, 735115848, 83045585, 2587255517,
    ]);
    expect(['member-1', 'member-2', 'member-dev', 'prod-eu-west-1'].map((n) => shardOf(n, 4))).to.deep.equal([
      1, 0, 1, 1,
    ]);
  });

  it('gives every Cluster to exactly one shard', () => {
    for (let i = 0; i < 200; i++) {
      const name = `member-${i}`;
      const owners = [0, 1, 2].filter((index) => ownsCluster(name, { index, count: 3 }));
      expect(owners, name).to.have.length(1);
    }
  });

  it('spreads 2,000 Clusters over 4 shards within 15% of even', () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 2000; i++) counts[shardOf(`member-${i}`, 4)]!++;
    for (const c of counts) expect(c).to.be.within(425, 575);
  });

  it('owns everything without sharding', () => {
    expect(ownsCluster('anything', undefined)).to.equal(true);
    expect(ownsCluster('anything', { index: 0, count: 1 })).to.equal(true);
  });
});
