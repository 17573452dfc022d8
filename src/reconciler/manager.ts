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
import { ProbeWorkers } from './probe-workers.js';
import { SecretStore } from './secret-store.js';
import { ownsCluster, type Shard } from './shard.js';
import { DisruptionGuard } from './disruption-guard.js';
import { DEFAULT_THRESHOLDS, type FailureDomainMode, type GuardThresholds } from './disruption.js';
import { Sentinels } from './sentinels.js';
import { DISRUPTION_DEFAULTS } from '../facts/disruption.js';
import { definedFields, messageOf } from '@karmada-cluster-probe/schema/api';
import { HEALTHY_CONDITION } from './desired-state.js';

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
  clock?: Clock;
  random?: () => number;
  denyList?: readonly string[];
  /** How long a probe waits for the Secret list before it reports the credentials unavailable. */
  credentialsWaitMs?: number;
  /** The disruption guard: on with the defaults when absent; `false` turns it off (every verdict written at once). */
  disruption?: DisruptionOptions | false;
}

/**
 * Most Clusters reconciled at once by default. A reconcile that changes a verdict makes 3 requests one after another
 * (taint, condition, Event); at 50 transitions a second (10% of 5,000 Clusters within a period of 10 s) and a few tens
 * of ms per request under that load, 16 slots were all busy and taints waited for one. See docs/reconciler.md.
 */
export const DEFAULT_WRITE_CONCURRENCY = 64;

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
  private stopped = false;

  constructor(private readonly options: ControllerOptions) {
    const { metrics, log } = options;
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
      transform: (cluster) => (this.owns(cluster) ? slimCluster(cluster) : stubCluster(cluster)),
      ...(options.clusterName !== undefined ? { fieldSelector: `metadata.name=${options.clusterName}` } : {}),
      resyncMs: options.resyncMs,
      onRestart: watchRestarted('clusters'),
      onHandlerError: (err) => log.warn({ resource: 'clusters', err: messageOf(err) }, 'informer handler failed'),
    });
    this.secrets = new SecretStore({
      api: options.api,
      resyncMs: options.resyncMs,
      onRestart: watchRestarted('secrets'),
      onHandlerError: (err) => log.warn({ resource: 'secrets', err: messageOf(err) }, 'informer handler failed'),
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
    });
    this.reconciler = new ClusterReconciler({
      get: (name) => this.informer.get(name),
      owns: (cluster) => this.owns(cluster),
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
      }),
    });
    this.queue = new WorkQueue({
      concurrency: options.writeConcurrency ?? DEFAULT_WRITE_CONCURRENCY,
      handler: (name) => {
        metrics.queueDepth.set(this.queue.length);
        return this.stopped ? Promise.resolve() : this.reconciler.reconcile(name);
      },
      onError: (name, err, attempt) =>
        log.warn({ cluster: name, attempt, err: messageOf(err) }, 'reconcile failed; retrying'),
    });
    const changed = (cluster: Cluster, gone = false): void => {
      metrics.clusters.set(this.informer.size);
      const name = cluster.metadata?.name ?? '';
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

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
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

  /** Whether this replica probes the Cluster: Pull mode's one, else Push ones (and Pull if told) in its shard. */
  private owns(cluster: Cluster): boolean {
    const name = cluster.metadata?.name ?? '';
    if (this.options.clusterName !== undefined) return name === this.options.clusterName;
    if (cluster.spec?.syncMode === 'Pull' && this.options.includePullClusters !== true) return false;
    return ownsCluster(name, this.options.shard);
  }
}

/** @deprecated The controller's old name (it is controller-runtime's controller, not its Manager): ClusterController. */
export const ClusterManager = ClusterController;
/** @deprecated ClusterController. */
export type ClusterManager = ClusterController;
/** @deprecated ControllerOptions. */
export type ManagerOptions = ControllerOptions;
