// Ownership by one active replica: every Cluster (or, in Pull mode, the one named), judged by this replica alone, or by
// the holder of a coordination.k8s.io Lease when leader election is on (the others stand by, ready, and take over when
// it lapses). Static shards (static-shards.ts) are this with a shard: a leader per shard, each on its own Lease.
import { LeaderElector } from '../../kube/leader-election.js';
import type { KubeApi } from '../../kube/client.js';
import { ownsCluster, type Shard } from '../shard.js';
import type { OwnedWork, Ownership, OwnershipLog, OwnershipScope } from './ownership.js';

export interface LeaderElectionOptions {
  namespace: string;
  /** Lease name; the shard or the Pull-mode cluster name is appended so each has its own leader. */
  name: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
}

/** The Lease name for this replica's shard or Pull-mode Cluster. */
export function leaseNameFor(base: string, shard: Shard | undefined, clusterName: string | undefined): string {
  if (clusterName !== undefined) return `${base}-${clusterName}`.slice(0, 253);
  if (shard !== undefined && shard.count > 1) return `${base}-shard-${shard.index}-of-${shard.count}`;
  return base;
}

export interface SingleLeaderOptions {
  api: KubeApi;
  identity: string;
  log: OwnershipLog;
  /** Absent: this replica is the only one, active from start to stop. */
  leaderElection?: LeaderElectionOptions;
  /** Pull mode: only this Cluster. */
  clusterName?: string;
  /** Told of every Lease write. */
  onLeaseWrite?: (outcome: 'ok' | 'conflict' | 'error') => void;
}

export class SingleLeader implements Ownership {
  readonly mode: Ownership['mode'] = 'single-leader';
  readonly scope: OwnershipScope;
  readonly epoch = 0;
  /** Made with the Ownership (its durations checked at once), campaigning from start(): not leading before. */
  private readonly elector: LeaderElector | undefined;
  private work: OwnedWork | undefined;
  private isStopping = false;

  constructor(
    protected readonly options: SingleLeaderOptions,
    shard?: Shard,
  ) {
    this.scope = {
      ...(options.clusterName !== undefined ? { clusterName: options.clusterName } : {}),
      ...(shard !== undefined ? { shard } : {}),
    };
    const le = options.leaderElection;
    if (le !== undefined)
      this.elector = new LeaderElector({
        api: options.api,
        namespace: le.namespace,
        name: leaseNameFor(le.name, this.scope.shard, this.scope.clusterName),
        identity: options.identity,
        leaseDurationMs: le.leaseDurationMs,
        renewDeadlineMs: le.renewDeadlineMs,
        retryPeriodMs: le.retryPeriodMs,
        log: options.log,
        onWrite: (outcome) => options.onLeaseWrite?.(outcome),
        onStartedLeading: () => {
          if (!this.isStopping) this.work?.start();
        },
        onStoppedLeading: () => this.work?.stop(),
      });
  }

  /** Without election: from construction to stop (as before runnables); with it: while the Lease is ours. */
  get active(): boolean {
    return this.elector === undefined ? !this.isStopping : this.elector.isLeader;
  }

  ready(controllerReady: boolean | undefined): boolean {
    if (this.elector !== undefined && !this.elector.isLeader) return true;
    return controllerReady ?? false;
  }

  ownsNow(name: string): boolean {
    if (!this.active) return false;
    if (this.scope.clusterName !== undefined) return name === this.scope.clusterName;
    return ownsCluster(name, this.scope.shard);
  }

  start(work: OwnedWork): void {
    this.work = work;
    if (this.elector === undefined) work.start();
    else this.elector.start();
  }

  stopping(): void {
    this.isStopping = true;
  }

  async stop(): Promise<void> {
    this.isStopping = true;
    await this.elector?.stop(true);
  }

  describe(): Record<string, unknown> {
    return {
      leaderElection: this.options.leaderElection !== undefined,
      clusterName: this.scope.clusterName,
      shard: this.scope.shard,
    };
  }
}
