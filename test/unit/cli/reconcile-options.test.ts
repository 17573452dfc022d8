// `cluster-probe reconcile`'s flags to the Manager's options (issue 40): the defaults the command shows are the ones
// the code uses when an option is absent (each imported from its one home, none written again), and the mapping is a
// pure function tested without starting a process.
import { expect } from 'chai';
import { Command } from 'commander';
import { register } from '../../../src/cli/reconcile.js';
import { FLAG_DEFAULTS, type ReconcileFlags } from '../../../src/cli/reconcile-flags.js';
import { reconcilerOptionsFromFlags } from '../../../src/cli/reconcile-options.js';
import { DEFAULT_BURST, DEFAULT_QPS } from '../../../src/kube/client.js';
import { DEFAULT_RESYNC_MS } from '../../../src/kube/informer.js';
import { DEFAULT_LEASE_DURATION_MS, resolveLeaseDurations } from '../../../src/kube/lease-client.js';
import { DEFAULT_PROBE_CONCURRENCY, DEFAULT_WRITE_CONCURRENCY } from '../../../src/reconciler/defaults.js';

/** The flags `cluster-probe reconcile ARGS` parses to, its action not run. */
function flagsOf(args: string[]): ReconcileFlags {
  const program = new Command('cluster-probe').exitOverride();
  register(program);
  const cmd = program.commands.find((c) => c.name() === 'reconcile')!;
  cmd.action(() => undefined);
  program.parse(['reconcile', ...args], { from: 'user' });
  return cmd.opts<ReconcileFlags>();
}

describe('reconcile flags to the Manager options', () => {
  it("shows as its flags' defaults the figures the client, the informer, the Lease and the controller use", () => {
    const f = flagsOf([]);
    expect(f.kubeApiQps).to.equal(DEFAULT_QPS);
    expect(f.kubeApiBurst).to.equal(DEFAULT_BURST);
    expect(f.resync * 1000).to.equal(DEFAULT_RESYNC_MS);
    expect(f.leaseDuration * 1000).to.equal(DEFAULT_LEASE_DURATION_MS);
    expect(f.probeConcurrency).to.equal(DEFAULT_PROBE_CONCURRENCY);
    expect(f.writeConcurrency).to.equal(DEFAULT_WRITE_CONCURRENCY);
    for (const [k, v] of Object.entries(FLAG_DEFAULTS)) expect(f[k as keyof ReconcileFlags], k).to.equal(v);
  });

  it('maps the defaults to options the Manager reads as its own defaults', () => {
    const plan = reconcilerOptionsFromFlags(flagsOf([]), 'host_1');
    const o = plan.options;
    expect(o.identity).to.equal('host_1');
    expect([o.qps, o.burst, o.resyncMs]).to.deep.equal([DEFAULT_QPS, DEFAULT_BURST, DEFAULT_RESYNC_MS]);
    expect([o.probeConcurrency, o.writeConcurrency]).to.deep.equal([
      DEFAULT_PROBE_CONCURRENCY,
      DEFAULT_WRITE_CONCURRENCY,
    ]);
    expect(o.leaderElection, 'no election unless asked').to.equal(undefined);
    expect(o.sharding).to.equal(undefined);
    expect(o.disruption).to.not.equal(false);
    expect(plan.health).to.deep.equal({ host: FLAG_DEFAULTS.metricsHost, port: FLAG_DEFAULTS.metricsPort });
    expect(plan.profileNamespace).to.equal(undefined);
  });

  it('gives leader election, a static shard or Lease sharding the Lease times the flags say', () => {
    const le = reconcilerOptionsFromFlags(
      flagsOf(['--leader-elect', '--lease-duration', '30', '--shard-index', '1', '--shard-count', '3']),
      'h',
    ).options;
    expect(le.leaderElection).to.deep.equal({
      namespace: FLAG_DEFAULTS.leaseNamespace,
      name: FLAG_DEFAULTS.leaseName,
      leaseDurationMs: 30_000,
    });
    expect(le.shard).to.deep.equal({ index: 1, count: 3 });
    // The Lease client resolves what the flags leave out: client-go's 2/3 and /7.5 of the lease.
    expect(resolveLeaseDurations(le.leaderElection!, 'x')).to.deep.equal({
      leaseDurationMs: 30_000,
      renewDeadlineMs: 20_000,
      retryPeriodMs: 4_000,
    });
    const lease = reconcilerOptionsFromFlags(
      flagsOf(['--sharding', 'lease', '--renew-deadline', '5', '--retry-period', '1', '--identity', 'pod-0']),
      'h',
    ).options;
    expect(lease.sharding).to.deep.equal({
      namespace: FLAG_DEFAULTS.leaseNamespace,
      group: FLAG_DEFAULTS.leaseName,
      leaseDurationMs: DEFAULT_LEASE_DURATION_MS,
      renewDeadlineMs: 5_000,
      retryPeriodMs: 1_000,
    });
    expect(lease.identity).to.equal('pod-0');
  });

  it('refuses what does not go together, naming the flags', () => {
    const refuse = (args: string[]): string => {
      try {
        reconcilerOptionsFromFlags(flagsOf(args), 'h');
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(refuse(['--sharding', 'lease', '--leader-elect'])).to.match(/--sharding lease and --leader-elect/);
    expect(refuse(['--renew-deadline', '20'])).to.match(/--renew-deadline 20 must be shorter than --lease-duration 15/);
    expect(refuse(['--shard-index', '1'])).to.equal('--shard-index and --shard-count go together');
    expect(refuse(['--shard-index', '3', '--shard-count', '3'])).to.equal(
      '--shard-index 3 must be below --shard-count 3',
    );
    expect(refuse(['--sentinel', 'ftp://x'])).to.match(/^--sentinel /);
    expect(refuse(['--disruption-guard', 'false', '--sentinel', 'https://status.example.com/healthz'])).to.equal(
      '--sentinel needs the disruption guard (--disruption-guard=true)',
    );
    expect(refuse(['--cluster-profile-namespace', 'karmada-cluster'])).to.equal('accepted');
  });
});
