// The schema library's memo outlives every request, and an attacker chooses its keys: it must hold a budget in bytes,
// keep no long key, no oversized value, and no huge string a short key was cut from; the library as a whole must stay
// within the sum of its memos' budgets whatever it validates.
import { expect } from 'chai';
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';
import { estimateBytes, memoBudget, memoBytes, memoize, memoStats } from '../../../packages/schema/src/schema/memo.js';
import { validateCluster } from '../../../packages/schema/src/schema/index.js';

// Taken before any test makes a memo of its own: the library's memos alone.
const libraryBudget = memoBudget();

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
v8.setFlagsFromString('--no-expose-gc');

function heapMiB(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

function hex(bytes: number): string {
  return randomBytes(Math.ceil(bytes / 2))
    .toString('hex')
    .slice(0, bytes);
}

describe('memoize (bounded in bytes)', () => {
  it('answers a repeated short key from the memo', () => {
    let calls = 0;
    const m = memoize((s: string) => (calls++, s.length));
    expect([m('abc'), m('abc'), m('abc')]).to.deep.equal([3, 3, 3]);
    expect(calls).to.equal(1);
  });

  it('computes a key longer than the limit every time and keeps nothing of it', () => {
    let calls = 0;
    const m = memoize((s: string) => (calls++, s.length), { maxKeyLength: 16 });
    const long = 'x'.repeat(17);
    expect([m(long), m(long)]).to.deep.equal([17, 17]);
    expect(calls).to.equal(2);
    expect(memoStats(m)).to.include({ size: 0, bytes: 0 });
  });

  it('keeps no value heavier than its budget, even for a short key', () => {
    const m = memoize((s: string) => s.repeat(100_000), { maxBytes: 64 * 1024 });
    expect(m('abc')).to.have.length(300_000);
    expect(memoStats(m)).to.include({ size: 0, bytes: 0 });
    const big = memoize((s: string) => 10n ** BigInt(s.length * 100));
    big('x'.repeat(10));
    expect(memoStats(big).size, 'a bigint of 1,000 digits is not kept').to.equal(0);
  });

  it('never holds more bytes than its budget, whatever the keys and values', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 300 }), fc.nat({ max: 2000 })), { maxLength: 200 }),
        (calls) => {
          const m = memoize((s: string) => [s, 'v'.repeat(calls.length)], { maxBytes: 8 * 1024 });
          for (const [key] of calls) {
            m(key);
            if (memoStats(m).bytes > 8 * 1024) return false;
          }
          return true;
        },
      ),
    );
  });

  it('estimates strings at two bytes a character and refuses deep or exotic values', () => {
    expect(estimateBytes('a'.repeat(1000))).to.be.at.least(2000);
    expect(estimateBytes({ a: ['x'.repeat(100)] })).to.be.at.least(200);
    expect(estimateBytes(new Map())).to.equal(Infinity);
    let deep: unknown = 1;
    for (let i = 0; i < 10; i++) deep = [deep];
    expect(estimateBytes(deep)).to.equal(Infinity);
  });

  it('does not keep alive the huge strings that short keys were cut from', () => {
    const m = memoize((s: string) => s.length);
    const before = heapMiB();
    for (let i = 0; i < 40; i++) {
      const parent = `${i}-${hex(2_000_000)}`;
      // A 40-character slice: V8 represents it as a view into the 2 MB parent.
      m(parent.slice(0, 40));
    }
    const grown = heapMiB() - before;
    expect(grown, `heap grew by ${grown.toFixed(1)} MiB`).to.be.below(10);
  });
});

describe('the schema library under hostile values', function () {
  this.timeout(60_000);

  it('gives all its memos together a budget of at most 16 MiB', () => {
    expect(libraryBudget).to.be.above(0);
    expect(libraryBudget).to.be.at.most(16 * 2 ** 20);
  });

  it('holds its memos within their budgets after validating Clusters full of distinct megabyte strings', () => {
    const before = heapMiB();
    for (let i = 0; i < 24; i++) {
      const s = `${i}${hex(1_000_000)}`;
      const short = `${i}-abcdefghijklmnopqrstuvwxyz`;
      validateCluster({
        apiVersion: 'cluster.karmada.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name: 'member-hostile' },
        spec: {
          syncMode: 'Push',
          apiEndpoint: `https://${s}:6443`,
          taints: [
            { key: `${short}.example.com/${s}`, value: s, effect: 'NoSchedule' },
            { key: s, effect: 'NoExecute' },
          ],
          // A short quantity that parses into a number of a million bits.
          resourceModels: [{ grade: 0, ranges: [{ name: 'cpu', min: '0', max: `${i + 1}e300000` }] }],
          livenessProbe: {
            httpGet: {
              host: s,
              port: s,
              httpHeaders: [{ name: s, value: s }],
              caBundle: s,
            },
          },
        },
      });
    }
    const grown = heapMiB() - before;
    expect(memoBytes()).to.be.at.most(memoBudget());
    expect(grown, `heap grew by ${grown.toFixed(1)} MiB`).to.be.below(24);
  });
});
