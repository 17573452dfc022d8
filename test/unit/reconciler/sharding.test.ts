// Lease sharding's pure parts (docs/sharding.md): rendezvous hashing (stable, even, and moving only about 1/N of the
// Clusters when one of N members joins or leaves), the claim rule read from a published view, and the assignment's
// two guards: a Cluster being lost stops before the new view is published, and a Cluster a live peer still claims is
// fenced. Also the CLI's --sharding flag and what it cannot go with.
import { expect } from 'chai';
import { Command, CommanderError } from 'commander';
import { LeaseAssignment, claims, decodeView, encodeView, rendezvousOwner } from '../../../src/reconciler/shard.js';
import { checkSharding, parseSharding, register } from '../../../src/cli/reconcile.js';
import { groupLabelValue, memberLeaseName } from '../../../src/kube/membership.js';

const fleet = (n: number): string[] => Array.from({ length: n }, (_, i) => `member-${i}`);
const replicas = (n: number): string[] => Array.from({ length: n }, (_, i) => `cluster-probe-reconciler-7d9f8-${i}`);

function assign(clusters: string[], members: string[]): Map<string, string> {
  return new Map(clusters.map((c) => [c, rendezvousOwner(c, members)!]));
}

describe('Lease sharding: rendezvous assignment', () => {
  it('gives the same owner whatever the order of the members (every replica computes it alike), pinned across releases', () => {
    const members = ['replica-a', 'replica-b', 'replica-c'];
    for (const c of fleet(100))
      expect(rendezvousOwner(c, members)).to.equal(rendezvousOwner(c, [...members].reverse()));
    expect(
      ['member-1', 'member-2', 'member-3', 'member-dev', 'prod-eu-west-1', 'prod-us-east-2'].map((c) =>
        rendezvousOwner(c, members),
      ),
    ).to.deep.equal(['replica-a', 'replica-a', 'replica-b', 'replica-a', 'replica-a', 'replica-c']);
    expect(rendezvousOwner('member-1', [])).to.equal(undefined);
  });

  it('spreads 3,000 Clusters over 3 members within 10% of even', () => {
    const counts = new Map<string, number>();
    for (const owner of assign(fleet(3000), replicas(3)).values()) counts.set(owner, (counts.get(owner) ?? 0) + 1);
    expect([...counts.values()]).to.have.length(3);
    for (const n of counts.values()) expect(n).to.be.within(900, 1100);
  });

  it('spreads small fleets of sequential names evenly too, whatever the replicas are called', () => {
    // FNV-1a alone gave one of 3 replicas 47.5% of member-0 .. member-599 (bench/reconciler --replicas 3).
    const names = Array.from({ length: 600 }, (_, i) => `member-${i}`);
    for (const members of [
      ['bench-replica-0', 'bench-replica-1', 'bench-replica-2'],
      [
        'cluster-probe-reconciler-7d9f6-abcde',
        'cluster-probe-reconciler-7d9f6-xk2lp',
        'cluster-probe-reconciler-7d9f6-q8wzt',
      ],
      ['a', 'b'],
    ]) {
      const counts = new Map<string, number>();
      for (const owner of assign(names, members).values()) counts.set(owner, (counts.get(owner) ?? 0) + 1);
      const even = names.length / members.length;
      for (const [m, n] of counts) expect(n, `${m} of ${members.join(', ')}`).to.be.within(even * 0.85, even * 1.15);
    }
  });

  it('moves only the joining member’s share (about 1/N) when one joins, and only the leaver’s when one leaves', () => {
    const clusters = fleet(3000);
    for (const n of [2, 3, 5]) {
      const before = assign(clusters, replicas(n));
      const after = assign(clusters, replicas(n + 1));
      const joined = replicas(n + 1)[n]!;
      const moved = clusters.filter((c) => before.get(c) !== after.get(c));
      expect(
        moved.every((c) => after.get(c) === joined),
        `${n} -> ${n + 1}: moved only to the new member`,
      ).to.equal(true);
      expect(moved.length / clusters.length).to.be.within(1 / (n + 1) - 0.04, 1 / (n + 1) + 0.04);
      // And back: the leaver's Clusters go, the others stay.
      const back = assign(clusters, replicas(n));
      expect(clusters.filter((c) => back.get(c) !== after.get(c)).every((c) => after.get(c) === joined)).to.equal(true);
    }
  });

  it('static shards (modulo) would move most Clusters for the same change: why rendezvous', () => {
    const clusters = fleet(3000);
    const moved = clusters.filter((c) => {
      let h = 0x811c9dc5;
      for (const ch of Buffer.from(c)) h = Math.imul(h ^ ch, 0x01000193) >>> 0;
      return h % 3 !== h % 4;
    });
    expect(moved.length / clusters.length).to.be.above(0.6);
  });
});

describe('Lease sharding: the claim rule and the fence', () => {
  it('a member claims a Cluster only when its own published view includes it and makes it the owner', () => {
    const view = ['replica-a', 'replica-b'];
    for (const c of fleet(50)) {
      const owner = rendezvousOwner(c, view)!;
      expect(claims(owner, view, c)).to.equal(true);
      expect(claims(owner === 'replica-a' ? 'replica-b' : 'replica-a', view, c)).to.equal(false);
      // Not in its own view (an empty claim, or a view it never published): claims nothing.
      expect(claims('replica-c', view, c)).to.equal(false);
      expect(claims(owner, [], c)).to.equal(false);
    }
  });

  it('publishes a view as sorted identities, one a line, and reads an empty one as no claim', () => {
    expect(encodeView(['b', 'a', 'b'])).to.equal('a\nb');
    expect(decodeView('a\nb')).to.deep.equal(['a', 'b']);
    expect(decodeView('')).to.deep.equal([]);
    expect(decodeView(undefined)).to.deep.equal([]);
  });

  it('while moving to a new view, keeps only what both views give it (a Cluster being lost stops before publishing)', () => {
    const a = new LeaseAssignment('replica-a');
    a.commit(['replica-a', 'replica-b']);
    const mineBefore = fleet(200).filter((c) => a.mine(c));
    a.beginMove(['replica-a', 'replica-b', 'replica-c']);
    const mineMoving = fleet(200).filter((c) => a.mine(c));
    const toC = mineBefore.filter((c) => rendezvousOwner(c, ['replica-a', 'replica-b', 'replica-c']) === 'replica-c');
    expect(toC.length).to.be.greaterThan(0);
    expect(mineMoving).to.deep.equal(mineBefore.filter((c) => !toC.includes(c)));
    a.commit(['replica-a', 'replica-b', 'replica-c']);
    expect(fleet(200).filter((c) => a.mine(c))).to.deep.equal(mineMoving);
  });

  it('fences a Cluster a live peer’s published view still claims, and nothing once the views agree', () => {
    const c = new LeaseAssignment('replica-c');
    const abc = ['replica-a', 'replica-b', 'replica-c'];
    c.commit(abc);
    const mine = fleet(200).filter((n) => c.mine(n));
    // a and b still publish the view without c: what c now owns, they claim.
    c.setPeers(
      new Map([
        ['replica-a', encodeView(['replica-a', 'replica-b'])],
        ['replica-b', encodeView(['replica-a', 'replica-b'])],
      ]),
    );
    expect(mine.every((n) => c.fenced(n))).to.equal(true);
    // a moved on, b not yet: only b's former share stays fenced.
    c.setPeers(
      new Map([
        ['replica-a', encodeView(abc)],
        ['replica-b', encodeView(['replica-a', 'replica-b'])],
      ]),
    );
    expect(mine.filter((n) => c.fenced(n))).to.deep.equal(
      mine.filter((n) => rendezvousOwner(n, ['replica-a', 'replica-b']) === 'replica-b'),
    );
    c.setPeers(
      new Map([
        ['replica-a', encodeView(abc)],
        ['replica-b', encodeView(abc)],
      ]),
    );
    expect(mine.some((n) => c.fenced(n))).to.equal(false);
    // A peer with an empty claim (just started, or its Lease lapsed) fences nothing.
    c.setPeers(
      new Map([
        ['replica-a', ''],
        ['replica-b', undefined],
      ]),
    );
    expect(mine.some((n) => c.fenced(n))).to.equal(false);
  });
});

describe('Lease sharding: member Lease names', () => {
  it('names a member Lease <group>-<identity>, cut and hashed to stay a valid name when long', () => {
    expect(memberLeaseName('cluster-probe-reconciler', 'cluster-probe-reconciler-7d9f8-x2')).to.equal(
      'cluster-probe-reconciler-cluster-probe-reconciler-7d9f8-x2',
    );
    const long = memberLeaseName('g', 'x'.repeat(300));
    expect(long.length).to.be.at.most(253);
    expect(long).to.match(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/);
    expect(memberLeaseName('g', 'host_123')).to.not.equal(memberLeaseName('g', 'host-123'));
    expect(groupLabelValue('y'.repeat(100)).length).to.be.at.most(63);
  });
});

describe('reconcile --sharding', () => {
  it('takes none and lease, and names the choices otherwise', () => {
    expect(parseSharding('none')).to.equal('none');
    expect(parseSharding('lease')).to.equal('lease');
    expect(() => parseSharding('static')).to.throw('must be none or lease, not "static"');
  });

  for (const [flags, flag] of [
    [{ leaderElect: true }, '--leader-elect'],
    [{ shardIndex: 0, shardCount: 2 }, '--shard-index'],
    [{ shardCount: 2 }, '--shard-count'],
    [{ clusterName: 'member1' }, '--cluster-name'],
  ] as const)
    it(`refuses --sharding lease with ${flag}, naming both`, () => {
      expect(() => checkSharding({ sharding: 'lease', ...flags })).to.throw(
        new RegExp(`^--sharding lease and ${flag} do not go together: `),
      );
      expect(() => checkSharding({ sharding: 'none', ...flags })).to.not.throw();
    });

  async function run(args: string[]): Promise<{ stderr: string; exitCode: number | undefined }> {
    const program = new Command('cluster-probe').exitOverride();
    let stderr = '';
    program.configureOutput({ writeErr: (s) => (stderr += s), writeOut: () => undefined });
    register(program);
    const write = process.stderr.write.bind(process.stderr);
    const before = process.exitCode;
    process.stderr.write = ((s: string) => ((stderr += s), true)) as typeof process.stderr.write;
    try {
      await program.parseAsync(['node', 'cluster-probe', 'reconcile', ...args]);
    } catch (err) {
      if (!(err instanceof CommanderError)) throw err;
    } finally {
      process.stderr.write = write;
    }
    const exitCode = process.exitCode === before ? undefined : Number(process.exitCode);
    process.exitCode = before;
    return { stderr, exitCode };
  }

  it('stops before doing anything when the flags do not go together (exit 2, both flags named)', async () => {
    const out = await run(['--sharding', 'lease', '--leader-elect', '--kubeconfig', '/nonexistent']);
    expect(out.stderr).to.include('--sharding lease and --leader-elect do not go together');
    expect(out.exitCode).to.equal(2);
  });

  it('refuses an unknown mode and a renew deadline not below the lease duration', async () => {
    expect((await run(['--sharding', 'static'])).stderr).to.include('must be none or lease, not "static"');
    const out = await run([
      '--sharding',
      'lease',
      '--lease-duration',
      '10',
      '--renew-deadline',
      '10',
      '--kubeconfig',
      '/nonexistent',
    ]);
    expect(out.stderr).to.include('--renew-deadline 10 must be shorter than --lease-duration 10');
    expect(out.exitCode).to.equal(2);
  });
});
