// The manager owns the workers: one probe target per Cluster in the scheduler of src/probe (which owns thresholds and
// timing), added, replaced when the probe changes, removed when the Cluster goes. Transitions and Cluster changes queue
// a level-triggered reconcile: read desired (the worker's state) and current (the cache), write only the difference.
// A probe that fails validation gets no worker at all; a probe aimed at the member's apiEndpoint gets the member's CA.
import {
  ProbeScheduler,
  handlerOf,
  runProbe,
  type Clock,
  type HandlerName,
  type LivenessProbe,
  type ProbeContext,
  type ProbeResult,
  type WorkerState,
} from '../probe/index.js';
import type { Cluster } from '../schema/index.js';
import { CLUSTERS_PATH, ClusterWriter, type WriteOutcome } from './cluster-writer.js';
import { memberTrustOf, withMemberTrust, type MemberTrust } from './member-ca.js';
import { stateFromConditions, type Desired, type TaintEffectOption } from './desired-state.js';
import { Informer } from './informer.js';
import type { KubeApi } from './kube-client.js';
import type { ReconcilerMetrics } from './metrics.js';
import { probeSourceOf, type ProbeSourceKind } from './probe-source.js';
import { SecretStore } from './secret-store.js';
import { ownsCluster, type Shard } from './shard.js';
import { WorkQueue } from './work-queue.js';

export interface ManagerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface ManagerOptions {
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
}

interface Entry {
  source: ProbeSourceKind;
  /** What the worker was built from; a change replaces the worker. */
  fingerprint?: string;
  /** The probe fails validation (the bounded message of its field errors): never run, reported as such. */
  invalid?: string;
  handler?: HandlerName;
  /** The message of the result behind the last transition. */
  message?: string;
}

/**
 * Most Clusters reconciled at once by default. A reconcile that changes a verdict makes 3 requests one after another
 * (taint, condition, Event); at 50 transitions a second (10% of 5,000 Clusters within a period of 10 s) and a few tens
 * of ms per request under that load, 16 slots were all busy and taints waited for one. See docs/reconciler.md.
 */
export const DEFAULT_WRITE_CONCURRENCY = 64;

/** How the engine names a caBundle it cannot use (`httpGet.caBundle: not valid base64`). */
const ENGINE_CA_FIELD = 'httpGet.caBundle: ';

/** Strips what the reconciler never reads (managedFields can be most of an object). */
function slim(cluster: Cluster): Cluster {
  if (cluster.metadata === undefined || !('managedFields' in cluster.metadata)) return cluster;
  const { managedFields: _drop, ...metadata } = cluster.metadata;
  return { ...cluster, metadata };
}

export class ClusterManager {
  readonly informer: Informer<Cluster>;
  private readonly scheduler: ProbeScheduler;
  private readonly queue: WorkQueue;
  private readonly secrets: SecretStore;
  private readonly writer: ClusterWriter;
  private readonly entries = new Map<string, Entry>();
  /** Our last write per Cluster, until the cache has caught up with it. */
  private readonly written = new Map<string, { staleVersions: Set<string>; cluster: Cluster }>();
  private stopped = false;

  constructor(private readonly options: ManagerOptions) {
    const { metrics, log } = options;
    this.informer = new Informer<Cluster>({
      api: options.api,
      path: CLUSTERS_PATH,
      resource: 'clusters',
      transform: slim,
      ...(options.clusterName !== undefined ? { fieldSelector: `metadata.name=${options.clusterName}` } : {}),
      ...(options.resyncMs !== undefined ? { resyncMs: options.resyncMs } : {}),
      onRestart: (reason, err) => {
        metrics.watchRestarts.inc({ resource: 'clusters', reason });
        if (reason !== 'resync')
          log.warn(
            { resource: 'clusters', reason, err: err instanceof Error ? err.message : String(err) },
            'watch restarted',
          );
      },
    });
    this.informer.addHandlers({
      onAdd: (c) => this.upsert(c),
      onUpdate: (_old, c) => this.upsert(c),
      onDelete: (c) => this.deleted(c),
      onSync: () => {
        metrics.clusters.set(this.informer.size);
        for (const name of this.entries.keys()) this.queue.add(name);
      },
    });
    this.secrets = new SecretStore({
      api: options.api,
      ...(options.resyncMs !== undefined ? { resyncMs: options.resyncMs } : {}),
      onRestart: (reason, err) => {
        metrics.watchRestarts.inc({ resource: 'secrets', reason });
        if (reason !== 'resync')
          log.warn(
            { resource: 'secrets', reason, err: err instanceof Error ? err.message : String(err) },
            'watch restarted',
          );
      },
    });
    this.writer = new ClusterWriter({
      api: options.api,
      taintEffect: options.taintEffect,
      metrics,
      log,
      identity: options.identity,
      eventNamespace: options.eventNamespace ?? 'default',
    });
    this.queue = new WorkQueue({
      concurrency: options.writeConcurrency ?? DEFAULT_WRITE_CONCURRENCY,
      handler: (name) => this.reconcile(name),
      onError: (name, err, attempt) =>
        log.warn(
          { cluster: name, attempt, err: err instanceof Error ? err.message : String(err) },
          'reconcile failed; retrying',
        ),
    });
    this.scheduler = new ProbeScheduler({
      concurrency: options.probeConcurrency ?? 256,
      ...(options.clock !== undefined ? { clock: options.clock } : {}),
      ...(options.random !== undefined ? { random: options.random } : {}),
      onResult: (name, result) => {
        metrics.probeResults.inc({ result: result.result });
        metrics.probeDuration.observe({ handler: this.entries.get(name)?.handler ?? 'none' }, result.durationMs / 1000);
      },
      onStart: (_name, lateMs) => metrics.probeLateness.observe(Math.max(0, lateMs) / 1000),
      onTransition: (name, t) => {
        metrics.transitions.inc({ to: t.to });
        const entry = this.entries.get(name);
        if (entry !== undefined) entry.message = t.result.message;
        log.info(
          { cluster: name, from: t.from, to: t.to, consecutive: t.consecutive, message: t.result.message },
          'probe transition',
        );
        this.queue.add(name);
      },
    });
  }

  /** True once the Clusters are listed. */
  get ready(): boolean {
    return this.informer.hasSynced;
  }

  get workers(): number {
    return this.scheduler.size;
  }

  /** The worker state of a Cluster, for tests and debugging. */
  stateOf(name: string): WorkerState | undefined {
    return this.entries.get(name)?.invalid !== undefined ? 'error' : this.scheduler.stateOf(name);
  }

  start(): void {
    this.informer.start();
  }

  /** Resolves when no reconcile is queued or running. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const n = this.scheduler.size;
    await this.informer.stop();
    await this.scheduler.stop();
    await this.queue.stop();
    await this.secrets.stop();
    if (n > 0) this.options.metrics.workersStopped.inc({ reason: 'shutdown' }, n);
    this.options.metrics.workers.set(0);
    // A replica that stopped (or lost the lease) reports nothing; the leader counts afresh.
    this.entries.clear();
    this.options.metrics.invalidProbes.reset();
    this.options.log.info({ workers: n }, 'workers stopped');
  }

  /** Whether this replica probes the Cluster: Pull mode's one, else Push ones (and Pull if told) in its shard. */
  private owns(cluster: Cluster): boolean {
    const name = cluster.metadata?.name ?? '';
    if (this.options.clusterName !== undefined) return name === this.options.clusterName;
    if (cluster.spec?.syncMode === 'Pull' && this.options.includePullClusters !== true) return false;
    return ownsCluster(name, this.options.shard);
  }

  private stopWorker(name: string, reason: string): void {
    if (this.scheduler.remove(name)) {
      this.options.metrics.workersStopped.inc({ reason });
      this.options.metrics.workers.set(this.scheduler.size);
      this.options.log.info({ cluster: name, reason }, 'worker stopped');
    }
  }

  /** Sets (or with undefined, drops) a Cluster's entry, keeping the invalid-probe gauge in step. */
  private setEntry(name: string, entry: Entry | undefined): void {
    const before = this.entries.get(name);
    if (entry === undefined) this.entries.delete(name);
    else this.entries.set(name, entry);
    const was = before?.invalid !== undefined ? before.source : undefined;
    const is = entry?.invalid !== undefined ? entry.source : undefined;
    if (was === is) return;
    if (was !== undefined) this.options.metrics.invalidProbes.dec({ source: was });
    if (is !== undefined) this.options.metrics.invalidProbes.inc({ source: is });
  }

  private deleted(cluster: Cluster): void {
    const name = cluster.metadata?.name ?? '';
    this.options.metrics.clusters.set(this.informer.size);
    this.stopWorker(name, 'deleted');
    this.setEntry(name, undefined);
    this.written.delete(name);
    this.queue.forget(name);
  }

  private upsert(cluster: Cluster): void {
    if (this.stopped) return;
    const name = cluster.metadata?.name ?? '';
    this.options.metrics.clusters.set(this.informer.size);
    if (!this.owns(cluster)) {
      this.stopWorker(name, 'not-owned');
      this.setEntry(name, undefined);
      return;
    }
    const source = probeSourceOf(cluster, {
      ...(this.options.denyList !== undefined ? { denyList: this.options.denyList } : {}),
    });
    const entry = this.entries.get(name);
    if (source.kind === 'none') {
      this.stopWorker(name, 'probe-removed');
      this.setEntry(name, { source: 'none' });
    } else if ('error' in source) {
      const fingerprint = `invalid:${source.error}`;
      if (entry?.fingerprint !== fingerprint) {
        this.stopWorker(name, 'probe-invalid');
        this.setEntry(name, { source: source.kind, fingerprint, invalid: source.error, message: source.error });
        // The bounded message only: the field errors' values may hold what a user pasted.
        this.options.log.warn(
          { cluster: name, source: source.kind, errors: source.errors.length, error: source.error },
          'probe is invalid; not run',
        );
      }
    } else {
      const spec = cluster.spec ?? ({} as Cluster['spec']);
      const which = handlerOf(source.probe);
      const handler = which.ok ? which.name : undefined;
      const secretRef = handler === 'apiServer' ? spec.secretRef : undefined;
      const trust = memberTrustOf(source.probe, spec);
      const fingerprint = JSON.stringify([
        source.probe,
        spec.apiEndpoint ?? null,
        spec.insecureSkipTLSVerification === true,
        secretRef ?? null,
        trust,
      ]);
      if (entry?.fingerprint !== fingerprint) {
        const initial: WorkerState =
          this.scheduler.stateOf(name) ??
          (entry?.invalid !== undefined ? 'error' : stateFromConditions(cluster.status?.conditions));
        if (secretRef !== undefined) this.secrets.watchNamespace(secretRef.namespace);
        if (trust.kind === 'secret') this.secrets.watchNamespace(trust.secretRef.namespace);
        this.scheduler.add(name, source.probe, this.runner(source.probe, spec, secretRef, trust), { initial });
        this.setEntry(name, {
          source: source.kind,
          fingerprint,
          ...(handler !== undefined ? { handler } : {}),
          ...(entry?.message !== undefined ? { message: entry.message } : {}),
        });
        this.options.metrics.workers.set(this.scheduler.size);
        this.options.log.info(
          { cluster: name, source: source.kind, handler, initial, replaced: entry?.fingerprint !== undefined },
          entry?.fingerprint !== undefined ? 'worker replaced' : 'worker started',
        );
      }
    }
    this.queue.add(name);
    this.options.metrics.queueDepth.set(this.queue.length);
  }

  private runner(
    probe: LivenessProbe,
    spec: Cluster['spec'],
    secretRef: { namespace: string; name: string } | undefined,
    trust: MemberTrust,
  ): (signal: AbortSignal) => Promise<ProbeResult> {
    const base: ProbeContext = {
      ...(spec.apiEndpoint !== undefined ? { apiEndpoint: spec.apiEndpoint } : {}),
      ...(spec.insecureSkipTLSVerification !== undefined
        ? { insecureSkipTLSVerify: spec.insecureSkipTLSVerification }
        : {}),
      ...(this.options.denyList !== undefined ? { denyList: this.options.denyList } : {}),
    };
    const waitMs = this.options.credentialsWaitMs ?? 10_000;
    return async (signal) => {
      const ctx: ProbeContext = { ...base, signal };
      if (secretRef !== undefined) {
        // Read at every run from the watched cache: a rotated token is used from the next run on.
        const found = await this.secrets.credentials(secretRef.namespace, secretRef.name, waitMs);
        if (!found.ok) return { result: 'error', message: found.message, durationMs: 0 };
        ctx.credentials = found.credentials;
      }
      if (trust.kind === 'insecure') return runProbe(withMemberTrust(probe, { kind: 'insecure' }), ctx);
      if (trust.kind === 'secret') {
        // Read at every run too: a rotated member CA is trusted from the next run on.
        const { namespace, name } = trust.secretRef;
        const ca = await this.secrets.caBundle(namespace, name, waitMs);
        if (!ca.ok) return { result: 'error', message: ca.message, durationMs: 0 };
        if (ca.caBundle === undefined) return runProbe(probe, ctx);
        const out = await runProbe(withMemberTrust(probe, { kind: 'ca', caBundle: ca.caBundle }), ctx);
        // A bad bundle is the Secret's fault, not the probe's: name the Secret, not a field the user never wrote.
        if (out.result === 'error' && out.message.startsWith(ENGINE_CA_FIELD))
          return {
            ...out,
            message: `spec.secretRef: Secret "${namespace}/${name}" key caBundle: ${out.message.slice(ENGINE_CA_FIELD.length)}`,
          };
        return out;
      }
      return runProbe(probe, ctx);
    };
  }

  private desiredFor(name: string): Desired | undefined {
    const entry = this.entries.get(name);
    if (entry === undefined) return undefined;
    if (entry.source === 'none') return { kind: 'absent' };
    if (entry.invalid !== undefined) return { kind: 'invalid', message: entry.invalid };
    const state = this.scheduler.stateOf(name) ?? 'unknown';
    if (state === 'unknown') return { kind: 'keep' };
    return { kind: 'state', state, message: entry.message ?? `liveness probe state: ${state}` };
  }

  /** Level-triggered: desired from the worker, current from the cache (or our newer write), the difference written. */
  async reconcile(name: string): Promise<void> {
    this.options.metrics.queueDepth.set(this.queue.length);
    if (this.stopped) return;
    let cluster = this.informer.get(name);
    if (cluster === undefined || !this.owns(cluster)) return;
    const desired = this.desiredFor(name);
    if (desired === undefined || desired.kind === 'keep') return;
    const mine = this.written.get(name);
    if (mine !== undefined) {
      if (mine.staleVersions.has(cluster.metadata?.resourceVersion ?? '')) cluster = mine.cluster;
      else this.written.delete(name);
    }
    const before = cluster.metadata?.resourceVersion ?? '';
    const out: WriteOutcome = await this.writer.apply(cluster, desired);
    if ((out.wrote.status || out.wrote.taints) && out.cluster !== undefined) {
      const stale = mine?.staleVersions ?? new Set<string>();
      stale.add(before);
      for (const v of out.staleVersions) stale.add(v);
      this.written.set(name, { staleVersions: stale, cluster: out.cluster });
    }
  }
}
