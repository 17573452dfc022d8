// The Manager, as controller-runtime names it: a Kubernetes client, optional leader election or Lease sharding, and the
// Cluster controller (ClusterController, manager.ts) that runs while this replica leads (always, without election; while
// its member Lease is renewed, with Lease sharding). Start, stop (workers first, then the lease is released), readiness.
// Lease sharding's order of a view change (release, publish, then start behind the fence): docs/sharding.md.
// The CLI is a thin shell around it; tests run it in-process or through the CLI.
import type { KubeConfig } from '@kubernetes/client-node';
import { KubeClient, type KubeApi } from '../kube/client.js';
import { LeaderElector } from '../kube/leader-election.js';
import { LeaseMembership } from '../kube/membership.js';
import { RealClock, type Clock, type TimerHandle } from '@karmada-cluster-probe/probe';
import { messageOf } from '@karmada-cluster-probe/schema/api';
import type { TaintEffectOption } from './desired-state.js';
import { ClusterController, type ControllerOptions, type DisruptionOptions, type ManagerLog } from './cluster-controller.js';
import { createMetrics, type ReconcilerMetrics } from './metrics.js';
import { encodeView, LeaseAssignment, type Shard } from './shard.js';

export interface ReconcilerLog extends ManagerLog {
  error(obj: object, msg: string): void;
}

export interface LeaderElectionOptions {
  namespace: string;
  /** Lease name; the shard or the Pull-mode cluster name is appended so each has its own leader. */
  name: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
}

/** `--sharding lease`: every replica active, the Clusters spread over the live members (docs/sharding.md). */
export interface LeaseShardingOptions {
  /** Where the member Leases live. */
  namespace: string;
  /** The group: the label value of its Leases and the prefix of their names. */
  group: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** The clock the Leases' durations are measured on (tests inject a fake one); the probes keep `clock`. */
  clock?: Clock;
}

export interface ReconcilerOptions {
  /** A loaded KubeConfig, or an API to use as it is (tests). */
  kubeConfig?: KubeConfig;
  api?: KubeApi;
  taintEffect: TaintEffectOption;
  identity: string;
  log: ReconcilerLog;
  leaderElection?: LeaderElectionOptions;
  clusterName?: string;
  includePullClusters?: boolean;
  shard?: Shard;
  probeConcurrency?: number;
  writeConcurrency?: number;
  resyncMs?: number;
  eventNamespace?: string;
  qps?: number;
  burst?: number;
  denyList?: readonly string[];
  clock?: Clock;
  metrics?: ReconcilerMetrics;
  /** The disruption guard: on with its defaults when absent; `false` turns it off. */
  disruption?: DisruptionOptions | false;
  /** The engine's runProbe, or another a test hands in (ControllerOptions.runProbe). */
  runProbe?: ControllerOptions['runProbe'];
  /** Lease sharding; not with leaderElection, shard or clusterName. */
  sharding?: LeaseShardingOptions;
}

/** The Lease name for this replica's shard or Pull-mode Cluster. */
export function leaseNameFor(base: string, shard: Shard | undefined, clusterName: string | undefined): string {
  if (clusterName !== undefined) return `${base}-${clusterName}`.slice(0, 253);
  if (shard !== undefined && shard.count > 1) return `${base}-shard-${shard.index}-of-${shard.count}`;
  return base;
}

/** controller-runtime's Manager: the client, the lease and the controller it runs while leading. */
export class Manager {
  readonly metrics: ReconcilerMetrics;
  private readonly api: KubeApi;
  private readonly ownClient: KubeClient | undefined;
  private manager: ClusterController | undefined;
  private managerStopping: Promise<void> = Promise.resolve();
  private readonly elector: LeaderElector | undefined;
  private readonly membership: LeaseMembership | undefined;
  private readonly assignment: LeaseAssignment | undefined;
  private rebalancing: Promise<void> | undefined;
  private rebalanceAgain = false;
  private retryTimer: TimerHandle | undefined;
  private readonly shardClock: Clock;
  private stopped = false;

  constructor(private readonly options: ReconcilerOptions) {
    this.metrics = options.metrics ?? createMetrics();
    if (options.api !== undefined) this.api = options.api;
    else {
      if (options.kubeConfig === undefined) throw new Error('reconciler: a kubeConfig or an api is required');
      this.ownClient = new KubeClient(options.kubeConfig, {
        qps: options.qps,
        burst: options.burst,
        onResponse: (method, code) => this.metrics.apiRequests.inc({ method, code }),
      });
      this.api = this.ownClient;
    }
    const sh = options.sharding;
    this.shardClock = sh?.clock ?? new RealClock();
    if (sh !== undefined) {
      if (options.leaderElection !== undefined || options.shard !== undefined || options.clusterName !== undefined)
        throw new Error(
          'reconciler: Lease sharding goes with neither leader election, a static shard nor a cluster name',
        );
      this.assignment = new LeaseAssignment(options.identity);
      this.membership = new LeaseMembership({
        api: this.api,
        namespace: sh.namespace,
        group: sh.group,
        identity: options.identity,
        leaseDurationMs: sh.leaseDurationMs,
        renewDeadlineMs: sh.renewDeadlineMs,
        retryPeriodMs: sh.retryPeriodMs,
        clock: this.shardClock,
        log: options.log,
        onWrite: (outcome) => this.metrics.writes.inc({ kind: 'lease', outcome }),
        onChange: () => {
          // A Lease not renewed within the renew deadline stops every write now, not when the view change in
          // progress (a release waiting for writes, a publish) lets the next rebalance run: the others may count
          // our Lease expired a lease duration after our last renewal, and take our Clusters.
          if (this.membership?.healthy === false && this.manager !== undefined) {
            this.options.log.warn({ lease: this.membership.leaseName }, 'member lease lost: every Cluster released');
            this.stopManager();
          }
          this.rebalance();
        },
      });
      this.metrics.shardSource = () => {
        const counts = this.manager?.shardCounts() ?? { assignable: 0, owned: 0, fenced: 0 };
        return { ...counts, members: this.assignment!.published.length };
      };
    }
    const le = options.leaderElection;
    if (le !== undefined) {
      this.elector = new LeaderElector({
        api: this.api,
        namespace: le.namespace,
        name: leaseNameFor(le.name, options.shard, options.clusterName),
        identity: options.identity,
        leaseDurationMs: le.leaseDurationMs,
        renewDeadlineMs: le.renewDeadlineMs,
        retryPeriodMs: le.retryPeriodMs,
        log: options.log,
        onWrite: (outcome) => this.metrics.writes.inc({ kind: 'lease', outcome }),
        onStartedLeading: () => this.startManager(),
        onStoppedLeading: () => this.stopManager(),
      });
    }
    this.metrics.leader.set(0);
  }

  /** Leading (with election), a member that may write (Lease sharding), or simply running. */
  get isLeader(): boolean {
    if (this.membership !== undefined) return this.manager !== undefined;
    return this.elector === undefined ? !this.stopped : this.elector.isLeader;
  }

  /** With Lease sharding: whether this replica probes and writes the Cluster now (else: whether it leads). */
  ownsNow(name: string): boolean {
    if (this.assignment === undefined) return this.isLeader;
    return this.manager?.holds(name) ?? false;
  }

  /** Changes whenever what this replica owns may have changed (Lease sharding), for those that cache ownership. */
  get ownershipEpoch(): number {
    return this.assignment?.epoch ?? 0;
  }

  /** The member Lease (Lease sharding), for tests and tools. */
  get memberLease(): LeaseMembership | undefined {
    return this.membership;
  }

  /** Ready: the Clusters are listed (leader), or standing by as a follower. */
  get ready(): boolean {
    if (this.stopped) return false;
    if (this.elector !== undefined && !this.elector.isLeader) return true;
    // A member whose Lease lapsed serves nothing until renewed; until the first view, not ready.
    return this.manager?.ready ?? false;
  }

  /** The running manager (while leading), for tests. */
  get clusterManager(): ClusterController | undefined {
    return this.manager;
  }

  start(): void {
    this.options.log.info(
      {
        identity: this.options.identity,
        taintEffect: this.options.taintEffect,
        leaderElection: this.elector !== undefined,
        clusterName: this.options.clusterName,
        shard: this.options.shard,
        sharding: this.membership !== undefined ? { lease: this.membership.leaseName } : undefined,
      },
      'reconciler starting',
    );
    if (this.membership !== undefined) this.membership.start();
    else if (this.elector !== undefined) this.elector.start();
    else this.startManager();
  }

  private startManager(): void {
    if (this.stopped || this.manager !== undefined) return;
    const o = this.options;
    const manager = new ClusterController({
      api: this.api,
      taintEffect: o.taintEffect,
      metrics: this.metrics,
      log: o.log,
      identity: o.identity,
      eventNamespace: o.eventNamespace,
      shard: o.shard,
      clusterName: o.clusterName,
      includePullClusters: o.includePullClusters,
      probeConcurrency: o.probeConcurrency,
      writeConcurrency: o.writeConcurrency,
      resyncMs: o.resyncMs,
      denyList: o.denyList,
      clock: o.clock,
      disruption: o.disruption,
      ...(o.runProbe !== undefined ? { runProbe: o.runProbe } : {}),
      ...(this.assignment !== undefined ? { assignment: this.assignment } : {}),
    });
    this.manager = manager;
    this.metrics.leader.set(1);
    // A manager still stopping (leadership lost and regained quickly) finishes first.
    void this.managerStopping.then(() => {
      if (this.manager === manager) manager.start();
    });
  }

  private stopManager(): void {
    const m = this.manager;
    this.manager = undefined;
    this.metrics.leader.set(0);
    // No write from the moment leadership is lost, not from when the stop gets its turn (controller-runtime cancels
    // the manager's context at once): a write held by an unreachable apiserver must not be retried after.
    m?.fence();
    if (m !== undefined) this.managerStopping = this.managerStopping.then(() => m.stop());
  }

  /**
   * Lease sharding: brings what this replica acts on to the live members, in the fence's order: (1) stop the Clusters
   * it loses and wait for their writes, (2) publish the new view in its Lease, (3) start the ones it gains once no live
   * peer's published view claims them. A Lease not renewed in time stops everything first. Calls run one at a time.
   */
  private rebalance(): void {
    if (this.rebalancing !== undefined) {
      this.rebalanceAgain = true;
      return;
    }
    this.rebalancing = (async () => {
      do {
        this.rebalanceAgain = false;
        try {
          await this.rebalanceOnce();
        } catch (err) {
          this.options.log.warn({ err: messageOf(err) }, 'shard rebalance failed; retrying');
          this.retryRebalance();
        }
      } while (this.rebalanceAgain && !this.stopped);
    })().finally(() => {
      this.rebalancing = undefined;
    });
  }

  private retryRebalance(): void {
    if (this.stopped || this.membership === undefined) return;
    if (this.retryTimer !== undefined) this.shardClock.clearTimer(this.retryTimer);
    this.retryTimer = this.shardClock.setTimer(this.shardClock.now() + this.membership.durations.retryPeriodMs, () =>
      this.rebalance(),
    );
  }

  private async rebalanceOnce(): Promise<void> {
    const m = this.membership!;
    const a = this.assignment!;
    if (this.stopped) return;
    if (!m.healthy) {
      // As a leader that lost its Lease: every worker and write stops, then the Lease claims nothing.
      if (this.manager !== undefined) {
        this.options.log.warn({ lease: m.leaseName }, 'member lease lost: every Cluster released');
        this.stopManager();
      }
      await this.managerStopping;
      if (a.published.length > 0 || a.moving) a.clear();
      m.setAnnotation('');
      return;
    }
    if (!m.synced) return;
    const next = m.members();
    a.setPeers(m.published());
    if (encodeView(next) !== encodeView(a.published)) {
      a.beginMove(next);
      const released = (await this.manager?.release()) ?? [];
      if (!(await m.publish(encodeView(next)))) {
        // Still moving: only what both views give us runs. Tried again each retry period.
        this.retryRebalance();
        return;
      }
      if (this.stopped || !m.healthy) return this.rebalanceOnce();
      a.commit(next);
      a.setPeers(m.published());
      this.metrics.shardRebalances.inc();
      this.options.log.info({ members: next, released: released.length }, 'shard view published');
    }
    if (this.manager === undefined) this.startManager();
    this.manager?.reassign();
  }

  /** Stops the workers and the informers, waits for writes in flight, then releases the lease. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.retryTimer !== undefined) this.shardClock.clearTimer(this.retryTimer);
    this.stopManager();
    await this.managerStopping;
    await this.rebalancing;
    // Every write is done: the member Lease goes, and the others take our Clusters at once.
    await this.membership?.stop(true);
    await this.elector?.stop(true);
    this.ownClient?.close();
    this.options.log.info({ identity: this.options.identity }, 'reconciler stopped');
  }
}

/** @deprecated The Manager's old name (controller-runtime's Reconciler is ClusterReconciler): Manager. */
export const Reconciler = Manager;
/** @deprecated Manager. */
export type Reconciler = Manager;
