// The Manager, as controller-runtime names it: one Kubernetes client for the process, an Ownership (who acts, and on
// which Clusters: a single leader, static shards or Lease shards, ownership/), and the Runnables it runs: those that
// need leadership or ownership (the Cluster controller, cluster-controller.ts, made afresh on each gain, fenced at once
// and stopped on each loss) and those that run from start to stop (the ClusterProfile producer, the health and metrics
// server). Stop: the owned runnables first (every write done), then the Lease is released, then the others, last added
// first. The CLI builds one from flags (options.ts) and adds what it serves; tests run it in-process or through the CLI.
import type { KubeConfig } from '@kubernetes/client-node';
import { KubeClient, type KubeApi } from '../kube/client.js';
import type { LeaseMembership } from '../kube/membership.js';
import { messageOf } from '@karmada-cluster-probe/schema/api';
import type { Clock } from '@karmada-cluster-probe/probe';
import type { TaintEffectOption } from './desired-state.js';
import {
  ClusterController,
  type ControllerOptions,
  type DisruptionOptions,
  type ManagerLog,
} from './cluster-controller.js';
import { createMetrics, type ReconcilerMetrics } from './metrics.js';
import type { Shard } from './shard.js';
import type { Runnable } from './runnable.js';
import type { OwnedWork, Ownership } from './ownership/ownership.js';
import { SingleLeader, leaseNameFor, type LeaderElectionOptions } from './ownership/single-leader.js';
import { StaticShards } from './ownership/static-shards.js';
import { LeaseShards, type LeaseShardingOptions } from './ownership/lease-shards.js';

export { leaseNameFor, type LeaderElectionOptions, type LeaseShardingOptions };
export type { Runnable } from './runnable.js';

export interface ReconcilerLog extends ManagerLog {
  error(obj: object, msg: string): void;
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

/** The Ownership the options ask for. */
export function ownershipOf(options: ReconcilerOptions, api: KubeApi, metrics: ReconcilerMetrics): Ownership {
  const onLeaseWrite = (outcome: 'ok' | 'conflict' | 'error'): void => metrics.writes.inc({ kind: 'lease', outcome });
  const sh = options.sharding;
  if (sh !== undefined) {
    if (options.leaderElection !== undefined || options.shard !== undefined || options.clusterName !== undefined)
      throw new Error(
        'reconciler: Lease sharding goes with neither leader election, a static shard nor a cluster name',
      );
    return new LeaseShards({
      ...sh,
      api,
      identity: options.identity,
      log: options.log,
      onLeaseWrite,
      onRebalance: () => metrics.shardRebalances.inc(),
    });
  }
  const base = {
    api,
    identity: options.identity,
    log: options.log,
    onLeaseWrite,
    ...(options.leaderElection !== undefined ? { leaderElection: options.leaderElection } : {}),
  };
  if (options.shard !== undefined && options.clusterName === undefined) return new StaticShards(base, options.shard);
  return new SingleLeader(
    { ...base, ...(options.clusterName !== undefined ? { clusterName: options.clusterName } : {}) },
    options.shard,
  );
}

/** The Cluster controller as a Runnable that needs leadership: a new ClusterController on each start. */
class ClusterControllerRunnable implements Runnable {
  readonly name = 'cluster-controller';
  readonly needLeaderElection = true;
  /** The controller running (or about to start); undefined while this replica does not lead. */
  current: ClusterController | undefined;

  constructor(private readonly make: () => ClusterController) {}

  start(): void {
    this.current = this.make();
    this.current.start();
  }

  fence(): void {
    this.current?.fence();
  }

  async stop(): Promise<void> {
    const c = this.current;
    this.current = undefined;
    await c?.stop();
  }
}

/** controller-runtime's Manager: the client, the Ownership and the Runnables it runs. */
export class Manager {
  readonly metrics: ReconcilerMetrics;
  /** The one client of the process: what the runnables added read and write through. */
  readonly api: KubeApi;
  readonly ownership: Ownership;
  private readonly ownClient: KubeClient | undefined;
  private readonly controller: ClusterControllerRunnable;
  private readonly runnables: Runnable[] = [];
  /** The owned runnables run (leadership or ownership held, the stop of the previous run maybe still going). */
  private owned = false;
  /** Each gain's number: a start waiting for the previous stop runs only if no loss came meanwhile. */
  private generation = 0;
  private ownedStopping: Promise<void> = Promise.resolve();
  private readonly started: Runnable[] = [];
  private isStarted = false;
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
    this.ownership = ownershipOf(options, this.api, this.metrics);
    const scope = this.ownership.scope;
    this.controller = new ClusterControllerRunnable(
      () =>
        new ClusterController({
          api: this.api,
          taintEffect: options.taintEffect,
          metrics: this.metrics,
          log: options.log,
          identity: options.identity,
          eventNamespace: options.eventNamespace,
          shard: scope.shard,
          clusterName: scope.clusterName,
          includePullClusters: options.includePullClusters,
          probeConcurrency: options.probeConcurrency,
          writeConcurrency: options.writeConcurrency,
          resyncMs: options.resyncMs,
          denyList: options.denyList,
          clock: options.clock,
          disruption: options.disruption,
          runProbe: options.runProbe,
          assignment: scope.assignment,
        }),
    );
    this.runnables.push(this.controller);
    const ownership = this.ownership;
    if (ownership instanceof LeaseShards)
      this.metrics.shardSource = () => ({
        ...(this.controller.current?.shardCounts() ?? { assignable: 0, owned: 0, fenced: 0 }),
        members: ownership.members,
      });
    this.metrics.leader.set(0);
  }

  /**
   * Adds a Runnable (controller-runtime's Manager.Add): one that needs leadership runs while this replica leads or
   * owns; one that does not runs from start to stop. Before start() only.
   */
  add(runnable: Runnable): void {
    if (this.isStarted || this.stopped) throw new Error(`reconciler: ${runnable.name} added after start`);
    this.runnables.push(runnable);
  }

  /** Leading (with election), a member that may write (Lease sharding), or simply running. */
  get isLeader(): boolean {
    return this.ownership.active;
  }

  /** Whether this replica probes and writes the Cluster now: leading and in its scope (its shard, Pull mode's one), or held (Lease sharding). */
  ownsNow(name: string): boolean {
    return this.ownership.ownsNow(name);
  }

  /** Changes whenever what this replica owns may have changed (Lease sharding), for those that cache ownership. */
  get ownershipEpoch(): number {
    return this.ownership.epoch;
  }

  /** The member Lease (Lease sharding), for tests and tools. */
  get memberLease(): LeaseMembership | undefined {
    return this.ownership instanceof LeaseShards ? this.ownership.membership : undefined;
  }

  /** Ready: the Clusters are listed (leader), or standing by as a follower. */
  get ready(): boolean {
    if (this.stopped) return false;
    return this.ownership.ready(this.controller.current?.ready);
  }

  /** The running Cluster controller (while leading), for tests. */
  get clusterController(): ClusterController | undefined {
    return this.controller.current;
  }

  /** @deprecated clusterController. */
  get clusterManager(): ClusterController | undefined {
    return this.clusterController;
  }

  /**
   * Starts the runnables that need no leadership, the servers first (as controller-runtime starts its HTTP servers
   * first), each in the order added, then elects or joins. A start that fails stops what was started and rejects.
   */
  start(): Promise<void> {
    this.options.log.info(
      { identity: this.options.identity, taintEffect: this.options.taintEffect, ...this.ownership.describe() },
      'reconciler starting',
    );
    this.isStarted = true;
    const free = this.runnables.filter((r) => !r.needLeaderElection);
    const order = [...free.filter((r) => r.server === true), ...free.filter((r) => r.server !== true)];
    const from = (i: number): Promise<void> | undefined => {
      for (; i < order.length; i++) {
        const r = order[i]!;
        this.started.push(r);
        let out: void | Promise<void>;
        try {
          out = r.start();
        } catch (err) {
          return this.failedStart(err);
        }
        if (out instanceof Promise) {
          const next = i + 1;
          return out.then(
            () => from(next),
            (err: unknown) => this.failedStart(err),
          );
        }
      }
      if (!this.stopped) this.ownership.start(this.work);
      return undefined;
    };
    // Nothing to wait for: the ownership starts now, as before runnables could be added.
    return from(0) ?? Promise.resolve();
  }

  /** A runnable could not start: what was started stops (nothing keeps writing in a process that failed), then rejects. */
  private async failedStart(err: unknown): Promise<never> {
    await this.stop().catch(() => undefined);
    throw err;
  }

  /** What the Ownership starts and stops: the runnables that need leadership or ownership. */
  private readonly work: OwnedWork = this.ownedWork();

  private ownedWork(): OwnedWork {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the getter below is the object's own, not the Manager's
    const manager = this;
    return {
      start: () => {
        if (this.stopped || this.owned) return;
        this.owned = true;
        const gen = ++this.generation;
        this.metrics.leader.set(1);
        // Runnables still stopping (leadership lost and regained quickly) finish first.
        void this.ownedStopping.then(() => {
          if (!this.owned || this.generation !== gen || this.stopped) return;
          for (const r of this.runnables) if (r.needLeaderElection) void r.start();
        });
      },
      stop: () => {
        if (!this.owned) return;
        this.owned = false;
        this.metrics.leader.set(0);
        const runs = this.runnables.filter((r) => r.needLeaderElection);
        // No write from the moment leadership is lost, not from when the stop gets its turn (controller-runtime cancels
        // the manager's context at once): a write held by an unreachable apiserver must not be retried after.
        for (const r of runs) r.fence?.();
        // A stop that fails leaves the chain failed: no start after it, no Lease released, no empty view published
        // (writes may still be in flight).
        this.ownedStopping = this.ownedStopping.then(async () => {
          for (const r of runs) await r.stop();
        });
      },
      get running(): boolean {
        return manager.owned;
      },
      stopped: () => this.ownedStopping,
      release: async () => (await this.controller.current?.release()) ?? [],
      reassign: () => this.controller.current?.reassign(),
      holds: (name) => this.controller.current?.holds(name) ?? false,
      shardCounts: () => this.controller.current?.shardCounts() ?? { assignable: 0, owned: 0, fenced: 0 },
    };
  }

  /**
   * Stops the owned runnables (every write done) and, at the same time, the others but the servers; then releases the
   * Lease; then stops the servers (health and metrics answer to the end, as controller-runtime stops its HTTP servers
   * last). Rejects with the first failure, after doing all it can; a failed stop of the owned runnables keeps the Lease
   * (writes may still be in flight: it expires instead).
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.ownership.stopping();
    this.work.stop();
    this.stopped = true;
    const failures: unknown[] = [];
    const note =
      (name: string) =>
      (err: unknown): void => {
        failures.push(err);
        this.options.log.error({ runnable: name, err: messageOf(err) }, 'stop failed');
      };
    const started = [...this.started].reverse();
    let ownedStopped = true;
    await Promise.all([
      this.ownedStopping.catch((err: unknown) => {
        ownedStopped = false;
        note(this.controller.name)(err);
      }),
      ...started.filter((r) => r.server !== true).map((r) => r.stop().catch(note(r.name))),
    ]);
    // Every write is done: the Lease goes, and a follower (or the other members) take over at once.
    if (ownedStopped) await this.ownership.stop().catch(note('ownership'));
    for (const r of started.filter((r) => r.server === true)) await r.stop().catch(note(r.name));
    this.ownClient?.close();
    this.options.log.info({ identity: this.options.identity }, 'reconciler stopped');
    if (failures.length > 0) throw failures[0];
  }
}

/** @deprecated The Manager's old name (controller-runtime's Reconciler is ClusterReconciler): Manager. */
export const Reconciler = Manager;
/** @deprecated Manager. */
export type Reconciler = Manager;
