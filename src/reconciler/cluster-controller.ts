// The controller that drives the reconcile (as controller-runtime's controller drives a Reconciler): wiring only. The
// Cluster informer, the probe workers' transitions and every relist queue a Cluster's name on a keyed work queue, and
// the queue calls ClusterReconciler.reconcile(name) (cluster-reconciler.ts), where every decision about a Cluster is.
import { RealClock, type Clock, type WorkerState } from '@karmada-cluster-probe/probe';
import { Informer } from '../kube/informer.js';
import type { KubeApi } from '../kube/client.js';
import { WorkQueue, type QueuePriority } from '../kube/work-queue.js';
import type { Cluster } from '@karmada-cluster-probe/schema';
import { CLUSTERS_PATH, ClusterWriter } from './cluster-writer.js';
import { ClusterReconciler } from './cluster-reconciler.js';
import { verdictOf } from './cluster-metrics.js';
import type { TaintEffectOption } from './desired-state.js';
import type { ReconcilerMetrics } from './metrics.js';
import { ProbeWorkers, type ProbeWorkersOptions } from './probe-workers.js';
import { SecretStore } from './secret-store.js';
import { ownsCluster, type LeaseAssignment, type Shard } from './shard.js';
import { DisruptionGuard } from './disruption-guard.js';
import { DEFAULT_THRESHOLDS, type FailureDomainMode, type GuardThresholds } from './disruption.js';
import { Sentinels } from './sentinels.js';
import { DISRUPTION_DEFAULTS } from '../facts/disruption.js';
import { definedFields, messageOf } from '@karmada-cluster-probe/schema/api';
import { HEALTHY_CONDITION } from './desired-state.js';
import { DEFAULT_WRITE_CONCURRENCY } from './defaults.js';

/** The disruption guard's settings (docs/reconciler.md, "When the prober is the thing that broke"). */
export interface DisruptionOptions {
  mode?: FailureDomainMode;
  thresholds?: Partial<GuardThresholds>;
  partialDisruptionRate?: number;
  /** Targets outside every member that must always answer (URLs: http, https, tcp). */
  sentinels?: readonly string[];
  sentinelPeriodSeconds?: number;
  sentinelTimeoutSeconds?: number;
  sentinelFailureThreshold?: number;
  tickMs?: number;
}

export interface ManagerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface ControllerOptions {
  api: KubeApi;
  taintEffect: TaintEffectOption;
  metrics: ReconcilerMetrics;
  log: ManagerLog;
  identity: string;
  eventNamespace?: string;
  shard?: Shard;
  /** Pull mode: only this Cluster (the informer is narrowed to it with a field selector), whatever its syncMode. */
  clusterName?: string;
  /** Without clusterName: probe syncMode Pull Clusters too (by default their in-member agent does). */
  includePullClusters?: boolean;
  probeConcurrency?: number;
  writeConcurrency?: number;
  /** Full relist (and reconcile of every Cluster) period; default 10 minutes. */
  resyncMs?: number;
  /** The clock of the probes, the disruption guard, the work queue, the Cluster informer and the writes' timestamps. */
  clock?: Clock;
  random?: () => number;
  denyList?: readonly string[];
  /** How long a probe waits for the Secret list before it reports the credentials unavailable. */
  credentialsWaitMs?: number;
  /** The disruption guard: on with the defaults when absent; `false` turns it off (every verdict written at once). */
  disruption?: DisruptionOptions | false;
  /** The engine's runProbe, or another a test hands in (a partition of one replica: its probes sent elsewhere). */
  runProbe?: ProbeWorkersOptions['runProbe'];
  /**
   * Lease sharding (docs/sharding.md): which Clusters are ours under the published view, and which a peer still
   * claims. Absent: `shard` (static) or every Cluster, and none of the work below is done.
   */
  assignment?: LeaseAssignment;
}

/** Lease sharding's state in the controller: only built with `assignment`, so the single-replica path pays nothing. */
interface LeaseState {
  assignment: LeaseAssignment;
  /** Clusters we started (probe and write) and have not released. */
  held: Set<string>;
  /** A Cluster that became ours, fetched whole by a GET (the informer holds only its stub until its next event). */
  fetched: Map<string, Cluster>;
  /** The stubs the informer holds (a stub is no ground for a probe: its probe and conditions are not in it). */
  stubs: WeakSet<Cluster>;
  /** Reconciles running, by Cluster, so that a release waits for the writes in flight. */
  inflight: Map<string, Promise<unknown>>;
}

export { DEFAULT_WRITE_CONCURRENCY };

/**
 * A Cluster this replica judges, as cached: without what the reconciler never reads and never writes back (its writes
 * are merge patches of spec.taints and status.conditions alone). managedFields can be most of an object; a member's
 * status (apiEnablements, node and resource summaries, written by Karmada's status controller every 10 s) most of
 * the rest, and resourceModels a few kB that Karmada's webhook defaults on every Cluster.
 */
export function slimCluster(cluster: Cluster): Cluster {
  const { managedFields: _fields, ...metadata } = cluster.metadata ?? {};
  const { resourceModels: _models, ...spec } = cluster.spec ?? ({} as Cluster['spec']);
  const conditions = cluster.status?.conditions;
  const out: Cluster = { ...cluster, metadata, spec: spec as Cluster['spec'] };
  if (cluster.status !== undefined) out.status = conditions !== undefined ? { conditions } : {};
  return out;
}

/**
 * A Cluster another replica judges (another shard's, a Pull agent's), as cached: only what decides who owns it (its
 * name and syncMode) and what the disruption guard reads of it (its failure domain: labels, region, zones; the Healthy
 * condition its owner wrote). At 100,000 Clusters over 10 shards a shard keeps 90,000 of these, so their size is most
 * of its memory: tens of bytes of fields against the kilobytes of a member's status. The next watch event brings the
 * whole object again, so a Cluster that becomes this replica's (its syncMode changed) is cached whole at once.
 */
export function stubCluster(cluster: Cluster): Cluster {
  const m = cluster.metadata ?? {};
  const spec = cluster.spec ?? ({} as Cluster['spec']);
  const healthy = cluster.status?.conditions?.find((c) => c.type === HEALTHY_CONDITION);
  const out: Cluster = {
    apiVersion: cluster.apiVersion,
    kind: cluster.kind,
    metadata: definedFields({
      name: m.name,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      labels: m.labels,
      deletionTimestamp: m.deletionTimestamp,
    }),
    spec: definedFields({
      syncMode: spec.syncMode,
      region: spec.region,
      zones: spec.zones,
      zone: spec.zone,
    }) as Cluster['spec'],
  };
  if (healthy !== undefined) out.status = { conditions: [healthy] };
  return out;
}

/** The Cluster controller: informer, work queue, probe workers, disruption guard; calls ClusterReconciler. */
export class ClusterController {
  readonly informer: Informer<Cluster>;
  private readonly queue: WorkQueue;
  private readonly secrets: SecretStore;
  private readonly probes: ProbeWorkers;
  private readonly reconciler: ClusterReconciler;
  readonly guard: DisruptionGuard | undefined;
  private readonly sentinels: Sentinels | undefined;
  private readonly lease: LeaseState | undefined;
  private stopped = false;
  /** No write from now on (fence()): leadership or the member Lease was lost, the stop is on its way. */
  private writesFenced = false;
  /**
   * Aborted by fence(): a write that passed mayWrite but still waits for the client's rate limit (a mass failure
   * queues hundreds) is dropped before it is sent, not sent after this replica's Lease may be seen as expired.
   */
  private readonly writesAbort = new AbortController();

  constructor(private readonly options: ControllerOptions) {
    const { metrics, log } = options;
    if (options.assignment !== undefined)
      this.lease = {
        assignment: options.assignment,
        held: new Set(),
        fetched: new Map(),
        stubs: new WeakSet(),
        inflight: new Map(),
      };
    const watchRestarted =
      (resource: string) =>
      (reason: 'gone' | 'error' | 'resync', err?: unknown): void => {
        metrics.watchRestarts.inc({ resource, reason });
        if (reason !== 'resync') log.warn({ resource, reason, err: messageOf(err) }, 'watch restarted');
      };
    this.informer = new Informer<Cluster>({
      api: options.api,
      path: CLUSTERS_PATH,
      resource: 'clusters',
      // Another replica's Cluster is kept as a stub: every shard watches the whole fleet (a shard is a hash of the
      // name, which no selector can express), but holds in full only the Clusters it judges.
      transform: (cluster) => {
        if (this.owns(cluster)) return slimCluster(cluster);
        const stub = stubCluster(cluster);
        this.lease?.stubs.add(stub);
        return stub;
      },
      ...(options.clusterName !== undefined ? { fieldSelector: `metadata.name=${options.clusterName}` } : {}),
      resyncMs: options.resyncMs,
      onRestart: watchRestarted('clusters'),
      onHandlerError: (err) => log.warn({ resource: 'clusters', err: messageOf(err) }, 'informer handler failed'),
      clock: options.clock,
    });
    this.secrets = new SecretStore({
      api: options.api,
      resyncMs: options.resyncMs,
      onRestart: watchRestarted('secrets'),
      onHandlerError: (err) => log.warn({ resource: 'secrets', err: messageOf(err) }, 'informer handler failed'),
      clock: options.clock,
    });
    const d = options.disruption;
    if (d !== false) {
      const clock = options.clock ?? new RealClock();
      this.guard = new DisruptionGuard({
        mode: d?.mode ?? { kind: 'topology' },
        thresholds: { ...DEFAULT_THRESHOLDS, ...d?.thresholds },
        partialDisruptionRate: d?.partialDisruptionRate ?? DISRUPTION_DEFAULTS.partialDisruptionRate,
        taintEffect: options.taintEffect,
        clock,
        metrics,
        log,
        get: (name) => this.informer.get(name),
        stateOf: (name) => this.probes.stateOf(name),
        requeue: (name) => this.enqueue(name, 'high'),
        tickMs: d?.tickMs,
      });
      if (d?.sentinels !== undefined && d.sentinels.length > 0)
        this.sentinels = new Sentinels({
          urls: d.sentinels,
          periodSeconds: d.sentinelPeriodSeconds ?? DISRUPTION_DEFAULTS.sentinelPeriodSeconds,
          timeoutSeconds: d.sentinelTimeoutSeconds ?? DISRUPTION_DEFAULTS.sentinelTimeoutSeconds,
          failureThreshold: d.sentinelFailureThreshold ?? DISRUPTION_DEFAULTS.sentinelFailureThreshold,
          guard: this.guard,
          clock,
          denyList: options.denyList,
        });
    }
    this.probes = new ProbeWorkers({
      guard: this.guard,
      secrets: this.secrets,
      metrics,
      log,
      // A transition is a verdict that changed: it goes ahead of every Cluster queued for another reason (changes,
      // relists, the condition after a taint), so that in a mass failure the taints are written first.
      onTransition: (name) => this.enqueue(name, 'high'),
      // An errored probe's Event (once per probe state) waits its turn: it is no verdict.
      onErrored: (name) => this.enqueue(name),
      probeConcurrency: options.probeConcurrency,
      clock: options.clock,
      random: options.random,
      denyList: options.denyList,
      credentialsWaitMs: options.credentialsWaitMs,
      ...(options.runProbe !== undefined ? { runProbe: options.runProbe } : {}),
    });
    const lease = this.lease;
    this.reconciler = new ClusterReconciler({
      get: lease === undefined ? (name) => this.informer.get(name) : (name) => this.cached(name),
      owns:
        lease === undefined
          ? (cluster) => this.owns(cluster)
          : (cluster) => {
              const hold = this.mayHold(cluster);
              this.setHeld(cluster, hold);
              return hold;
            },
      workers: this.probes,
      guard: this.guard,
      held: (name, desired) => metrics.perCluster.held(name, verdictOf(desired)),
      writer: new ClusterWriter({
        api: options.api,
        taintEffect: options.taintEffect,
        metrics,
        log,
        identity: options.identity,
        eventNamespace: options.eventNamespace ?? 'default',
        // Asked before every write: with Lease sharding, a Cluster released meanwhile is no longer ours to write.
        mayWrite: lease === undefined ? () => !this.writesFenced : (name) => !this.writesFenced && lease.held.has(name),
        signal: this.writesAbort.signal,
        clock: options.clock,
      }),
    });
    this.queue = new WorkQueue({
      clock: options.clock,
      concurrency: options.writeConcurrency ?? DEFAULT_WRITE_CONCURRENCY,
      handler:
        lease === undefined
          ? (name) => {
              metrics.queueDepth.set(this.queue.length);
              return this.stopped ? Promise.resolve() : this.reconciler.reconcile(name);
            }
          : (name) => {
              metrics.queueDepth.set(this.queue.length);
              if (this.stopped) return Promise.resolve();
              const run = this.reconcileLeased(name);
              lease.inflight.set(name, run);
              return run.finally(() => {
                if (lease.inflight.get(name) === run) lease.inflight.delete(name);
              });
            },
      onError: (name, err, attempt) =>
        log.warn({ cluster: name, attempt, err: messageOf(err) }, 'reconcile failed; retrying'),
    });
    const changed = (cluster: Cluster, gone = false): void => {
      metrics.clusters.set(this.informer.size);
      const name = cluster.metadata?.name ?? '';
      if (lease !== undefined) {
        // The event's object was cached as the view has it now: a GET made earlier is no longer the newest copy.
        lease.fetched.delete(name);
        this.guard?.observeOther(name, gone || lease.held.has(name) ? undefined : cluster);
        if (this.owns(cluster) || lease.held.has(name)) this.enqueue(name);
        return;
      }
      this.guard?.observeOther(name, gone || this.owns(cluster) ? undefined : cluster);
      // Another replica's Cluster needs no reconcile here, unless it was ours a moment ago (a worker to stop): every
      // write Karmada makes to any Cluster in the fleet would otherwise go through this replica's queue.
      if (this.owns(cluster) || this.probes.stateOf(name) !== undefined) this.enqueue(name);
    };
    this.informer.addHandlers({
      onAdd: changed,
      onUpdate: (_old, cluster) => changed(cluster),
      onDelete: (cluster) => {
        // A new object of the same name starts afresh: no backoff carried over.
        this.queue.forget(cluster.metadata?.name ?? '');
        changed(cluster, true);
      },
      onSync: () => {
        metrics.clusters.set(this.informer.size);
        for (const name of this.probes.names()) this.enqueue(name);
      },
    });
  }

  /** True once the Clusters are listed. */
  get ready(): boolean {
    return this.informer.hasSynced;
  }

  /** Probe workers running. */
  get workers(): number {
    return this.probes.size;
  }

  /** The worker state of a Cluster, for tests and debugging. */
  stateOf(name: string): WorkerState | undefined {
    return this.probes.stateOf(name);
  }

  start(): void {
    if (this.guard !== undefined) this.options.log.info(this.guard.describe(), 'disruption guard on');
    else this.options.log.warn({}, 'disruption guard off: every failure verdict is written at once');
    this.guard?.start();
    this.sentinels?.start();
    this.informer.start();
  }

  /** Reconciles one Cluster now (the queue does it on every change; tests and tools may too). */
  async reconcile(name: string): Promise<void> {
    if ((await this.reconciler.reconcile(name)).requeue === true) this.enqueue(name);
  }

  /** Resolves when no reconcile is queued or running. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  /** Stops every write at once (the workers and informers stop after, in stop()). */
  fence(): void {
    this.writesFenced = true;
    this.writesAbort.abort(new Error('writes fenced: leadership or the member Lease lost'));
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.fence();
    await this.informer.stop();
    await this.sentinels?.stop();
    this.guard?.stop();
    const n = await this.probes.stop();
    await this.queue.stop();
    await this.secrets.stop();
    this.reconciler.reset();
    this.options.log.info({ workers: n }, 'workers stopped');
  }

  private enqueue(name: string, priority: QueuePriority = 'normal'): void {
    if (this.stopped) return;
    this.queue.add(name, priority);
    this.options.metrics.queueDepth.set(this.queue.length);
  }

  /** Some replica probes the Cluster: Pull mode's one, else Push ones (and Pull if told). */
  private assignable(cluster: Cluster): boolean {
    if (this.options.clusterName !== undefined) return cluster.metadata?.name === this.options.clusterName;
    return cluster.spec?.syncMode !== 'Pull' || this.options.includePullClusters === true;
  }

  /** Whether this replica probes the Cluster: Pull mode's one, else Push ones (and Pull if told) in its shard. */
  private owns(cluster: Cluster): boolean {
    const name = cluster.metadata?.name ?? '';
    if (this.options.clusterName !== undefined) return name === this.options.clusterName;
    if (cluster.spec?.syncMode === 'Pull' && this.options.includePullClusters !== true) return false;
    if (this.lease !== undefined) return this.lease.assignment.mine(name);
    return ownsCluster(name, this.options.shard);
  }

  // ---- Lease sharding only (docs/sharding.md); never called without `assignment`. ----

  /** The Cluster as the reconcile should see it: a whole copy fetched on gaining it, else the informer's. */
  private cached(name: string): Cluster | undefined {
    return this.lease!.fetched.get(name) ?? this.informer.get(name);
  }

  /**
   * The fence's question, without a side effect: may this replica probe and write the Cluster now? Ours under the
   * published view (and the one we move to), and, to start it, claimed by no live peer's published view. Once started
   * it is kept until our own view drops it: a peer that claims it too waits for us (its fence), never the other way.
   */
  private mayHold(cluster: Cluster): boolean {
    const lease = this.lease!;
    const name = cluster.metadata?.name ?? '';
    return this.owns(cluster) && (lease.held.has(name) || !lease.assignment.fenced(name));
  }

  /**
   * The step: records whether this replica holds the Cluster, as mayHold answered. Its record in the disruption guard
   * moves with it (ours: judged from our probes; another's: observed from the condition it wrote).
   */
  private setHeld(cluster: Cluster, hold: boolean): void {
    const lease = this.lease!;
    const name = cluster.metadata?.name ?? '';
    if (hold === lease.held.has(name)) return;
    if (hold) lease.held.add(name);
    else lease.held.delete(name);
    lease.assignment.epoch++;
    this.guard?.observeOther(name, hold ? undefined : cluster);
  }

  /** A Cluster that became ours is a stub in the cache: fetched whole before its worker starts. */
  private async reconcileLeased(name: string): Promise<QueueResultLike> {
    const lease = this.lease!;
    const cached = this.informer.get(name);
    if (
      cached !== undefined &&
      lease.stubs.has(cached) &&
      !lease.fetched.has(name) &&
      this.owns(cached) &&
      !lease.assignment.fenced(name)
    ) {
      const whole = await this.options.api.request<Cluster>('GET', `${CLUSTERS_PATH}/${encodeURIComponent(name)}`);
      // An event that came meanwhile cached a newer copy (whole, as the view has it now): keep that one.
      if (this.informer.get(name) === cached) lease.fetched.set(name, slimCluster(whole));
    }
    const out = await this.reconciler.reconcile(name);
    if (this.informer.get(name) === undefined && lease.held.delete(name)) lease.assignment.epoch++;
    return out;
  }

  /**
   * Stops the Clusters no longer ours (the view moving, or our Lease lost) and waits for their writes in flight: after
   * it, nothing of theirs is written by this replica. Lease sharding only.
   */
  async release(): Promise<string[]> {
    const lease = this.lease;
    if (lease === undefined) return [];
    const released: string[] = [];
    for (const name of [...lease.held]) {
      const cached = this.informer.get(name);
      if (cached !== undefined && this.owns(cached)) continue;
      lease.held.delete(name);
      lease.assignment.epoch++;
      released.push(name);
      this.probes.remove(name, 'not-owned');
      this.reconciler.forget(name);
      lease.fetched.delete(name);
      this.guard?.observeOther(name, cached);
    }
    await Promise.all(released.map((name) => lease.inflight.get(name)));
    if (released.length > 0) this.options.log.info({ clusters: released.length }, 'clusters released');
    return released;
  }

  /** After a view (ours or a peer's) changed: every Cluster whose state differs from it is queued. Lease sharding only. */
  reassign(): void {
    const lease = this.lease;
    if (lease === undefined || this.stopped) return;
    for (const cluster of this.informer.values()) {
      const name = cluster.metadata?.name ?? '';
      if (this.owns(cluster) !== lease.held.has(name)) this.enqueue(name);
    }
  }

  /** The shard gauges' figures, as this replica's cache sees them. Lease sharding only. */
  shardCounts(): { assignable: number; owned: number; fenced: number } {
    const lease = this.lease;
    let assignable = 0;
    let fenced = 0;
    if (lease === undefined) return { assignable, owned: 0, fenced };
    for (const cluster of this.informer.values()) {
      if (!this.assignable(cluster)) continue;
      assignable++;
      const name = cluster.metadata?.name ?? '';
      if (!lease.held.has(name) && this.owns(cluster) && lease.assignment.fenced(name)) fenced++;
    }
    return { assignable, owned: lease.held.size, fenced };
  }

  /** The Clusters this replica probes and writes now (Lease sharding), for tests and the ClusterProfile producer. */
  holds(name: string): boolean {
    return this.lease?.held.has(name) ?? false;
  }
}

type QueueResultLike = Awaited<ReturnType<ClusterReconciler['reconcile']>>;

/** @deprecated The controller's old name (it is controller-runtime's controller, not its Manager): ClusterController. */
export const ClusterManager = ClusterController;
/** @deprecated ClusterController. */
export type ClusterManager = ClusterController;
/** @deprecated ControllerOptions. */
export type ManagerOptions = ControllerOptions;
