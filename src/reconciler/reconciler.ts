// The Manager, as controller-runtime names it: a Kubernetes client, optional leader election, and the Cluster
// controller (ClusterController, manager.ts) that runs while this replica leads (always, without election). Start, stop (workers first, then the lease is released), readiness.
// The CLI is a thin shell around it; tests run it in-process or through the CLI.
import type { KubeConfig } from '@kubernetes/client-node';
import { KubeClient, type KubeApi } from '../kube/client.js';
import { LeaderElector } from '../kube/leader-election.js';
import type { Clock } from '@karmada-cluster-probe/probe';
import type { TaintEffectOption } from './desired-state.js';
import { ClusterController, type DisruptionOptions, type ManagerLog } from './manager.js';
import { createMetrics, type ReconcilerMetrics } from './metrics.js';
import type { Shard } from './shard.js';

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
  private stopped = false;

  constructor(private readonly options: ReconcilerOptions) {
    this.metrics = options.metrics ?? createMetrics();
    if (options.api !== undefined) this.api = options.api;
    else {
      if (options.kubeConfig === undefined) throw new Error('reconciler: a kubeConfig or an api is required');
      this.ownClient = new KubeClient(options.kubeConfig, { qps: options.qps, burst: options.burst });
      this.api = this.ownClient;
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

  get isLeader(): boolean {
    return this.elector === undefined ? !this.stopped : this.elector.isLeader;
  }

  /** Ready: the Clusters are listed (leader), or standing by as a follower. */
  get ready(): boolean {
    if (this.stopped) return false;
    if (this.elector !== undefined && !this.elector.isLeader) return true;
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
      },
      'reconciler starting',
    );
    if (this.elector !== undefined) this.elector.start();
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
    if (m !== undefined) this.managerStopping = this.managerStopping.then(() => m.stop());
  }

  /** Stops the workers and the informers, waits for writes in flight, then releases the lease. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.stopManager();
    await this.managerStopping;
    await this.elector?.stop(true);
    this.ownClient?.close();
    this.options.log.info({ identity: this.options.identity }, 'reconciler stopped');
  }
}

/** @deprecated The Manager's old name (controller-runtime's Reconciler is ClusterReconciler): Manager. */
export const Reconciler = Manager;
/** @deprecated Manager. */
export type Reconciler = Manager;
