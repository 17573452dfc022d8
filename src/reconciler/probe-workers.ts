// The probe workers of the Clusters this replica owns: one target per Cluster in the probe engine's scheduler (which
// owns thresholds and timing), started when a Cluster asks for a probe, replaced when what the probe is built from
// changes (keeping its state), stopped when the probe goes. A probe that fails validation gets no worker, only its
// message; a probe aimed at the member's apiEndpoint gets the member's CA, read from the Secret cache at every run.
// What the workers say is the desired state of each Cluster (`desired`); the reconcile writes it. An errored probe
// (the kubelet's: retried, then discarded) changes no state: it is counted, logged at the start and end of a series,
// and told in one Event per probe state (`takeErroredEvent`), never one a period.
import {
  ProbeScheduler,
  handlerOf,
  resolveTiming,
  runProbe as runEngineProbe,
  type Clock,
  type HandlerName,
  type LivenessProbe,
  type ProbeContext,
  type ProbeResult,
  type ResolvedTiming,
  type Transition,
  type WorkerState,
} from '@karmada-cluster-probe/probe';
import { isErrored } from '@karmada-cluster-probe/probe';
import { probeSourceOf, type ProbeSourceKind } from '@karmada-cluster-probe/schema/internal/schema/probe-source.js';
import type { Cluster } from '@karmada-cluster-probe/schema';
import { definedFields } from '@karmada-cluster-probe/schema/api';
import { HEALTHY_CONDITION, stateFromCluster, type Desired } from './desired-state.js';
import { memberTrustOf, withMemberTrust, type MemberTrust } from './member-ca.js';
import type { ReconcilerMetrics } from './metrics.js';
import type { SecretStore } from './secret-store.js';
import type { DisruptionGuard } from './disruption-guard.js';
import { DEFAULT_PROBE_CONCURRENCY } from './defaults.js';

export interface WorkersLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface ProbeWorkersOptions {
  secrets: SecretStore;
  metrics: ReconcilerMetrics;
  log: WorkersLog;
  /** Told of every transition (thresholds reached), after the workers noted its message. */
  onTransition: (name: string, transition: Transition) => void;
  probeConcurrency?: number;
  clock?: Clock;
  random?: () => number;
  denyList?: readonly string[];
  /** How long a probe waits for the Secret list before it reports the credentials unavailable. */
  credentialsWaitMs?: number;
  /** Told of every worker, every result and every stop, to judge the fleet (absent: the guard is off). */
  guard?: DisruptionGuard;
  /** Told when a Cluster has an errored probe's Event to record (`takeErroredEvent`): at most once per probe state. */
  onErrored?: (name: string) => void;
  /** The engine's runProbe; a test may hand in another (results it chooses, on its fake clock). */
  runProbe?: (probe: LivenessProbe, ctx: ProbeContext) => Promise<ProbeResult>;
}

export type StopReason = 'deleted' | 'probe-removed' | 'probe-invalid' | 'not-owned' | 'shutdown';

interface Entry {
  source: ProbeSourceKind;
  /** What the worker was built from; a change replaces the worker. */
  fingerprint?: string;
  /** The probe fails validation (the bounded message of its field errors): never run, reported as such. */
  invalid?: string;
  handler?: HandlerName;
  /** The message of the result behind the last transition. */
  message?: string;
  /** Errored results in a row (each after its retries), for the log line that ends a series. */
  erroredRun?: number;
  /** An errored probe was told (or is to be told) in an Event since the last transition: no second one. */
  erroredTold?: boolean;
  /** The errored result an Event is to tell of, until the reconcile takes it. */
  erroredEvent?: { message: string; attempts?: number };
}

/** What an entry carries over when its worker is replaced (the probe's state is kept, so is what was told of it). */
function erroredFields(entry: Entry | undefined): Pick<Entry, 'erroredRun' | 'erroredTold' | 'erroredEvent'> {
  if (entry === undefined) return {};
  return {
    ...(entry.erroredRun !== undefined ? { erroredRun: entry.erroredRun } : {}),
    ...(entry.erroredTold !== undefined ? { erroredTold: entry.erroredTold } : {}),
    ...(entry.erroredEvent !== undefined ? { erroredEvent: entry.erroredEvent } : {}),
  };
}

/** What a Cluster's probe worker is built from, resolved once: no probe, an invalid one, or a probe to run. */
export type WorkerSpec =
  | { kind: 'none' }
  | {
      kind: 'invalid';
      source: ProbeSourceKind;
      /** The bounded, secret-free message of the probe's field errors. */
      error: string;
      /** How many field errors. */
      errors: number;
      fingerprint: string;
    }
  | ProbeWorkerSpec;

export interface ProbeWorkerSpec {
  kind: 'probe';
  source: ProbeSourceKind;
  probe: LivenessProbe;
  /** The one handler set; undefined only for a probe the validators let through without one (never, today). */
  handler: HandlerName | undefined;
  /** The probe's timing, defaults and minimums applied: the worker, the guard and the per-Cluster series read it. */
  timing: ResolvedTiming;
  /** The Secret an apiServer probe's token comes from. */
  secretRef: { namespace: string; name: string } | undefined;
  trust: MemberTrust;
  /** What every run of this probe shares: the member's endpoint and TLS choice, the deny list. */
  context: ProbeContext;
  /** What the worker is built from: a change replaces the worker (keeping its state). */
  fingerprint: string;
}

/**
 * The probe worker a Cluster asks for, from the Cluster alone: where its probe is (field or annotation), whether it is
 * valid, its handler, timing, credentials and trust. Pure: the same Cluster gives the same spec (and fingerprint).
 */
export function workerSpecOf(cluster: Cluster, denyList?: readonly string[]): WorkerSpec {
  const source = probeSourceOf(cluster, denyList !== undefined ? { denyList } : {});
  if (source.kind === 'none') return { kind: 'none' };
  if ('error' in source)
    return {
      kind: 'invalid',
      source: source.kind,
      error: source.error,
      errors: source.errors.length,
      fingerprint: `invalid:${source.error}`,
    };
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
  return {
    kind: 'probe',
    source: source.kind,
    probe: source.probe,
    handler,
    timing: resolveTiming(source.probe),
    secretRef,
    trust,
    context: definedFields({
      apiEndpoint: spec.apiEndpoint,
      insecureSkipTLSVerify: spec.insecureSkipTLSVerification,
      denyList,
    }),
    fingerprint,
  };
}

export class ProbeWorkers {
  private readonly scheduler: ProbeScheduler;
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: ProbeWorkersOptions) {
    const { metrics, log } = options;
    this.scheduler = new ProbeScheduler({
      concurrency: options.probeConcurrency ?? DEFAULT_PROBE_CONCURRENCY,
      ...(options.clock !== undefined ? { clock: options.clock } : {}),
      ...(options.random !== undefined ? { random: options.random } : {}),
      onResult: (name, result, state) => {
        const errored = isErrored(result);
        options.guard?.observe(name, result);
        metrics.probeResults.inc({ result: errored ? 'errored' : result.result });
        // The per-Cluster series count what the worker counts (the kubelet's prober_probe_total skips an errored
        // probe too): an errored run would reset the Cluster's consecutive failures there, and not in the worker.
        if (!errored) metrics.perCluster.result(name, result.result, result.durationMs);
        metrics.probeDuration.observe({ handler: this.entries.get(name)?.handler ?? 'none' }, result.durationMs / 1000);
        this.noteErrored(name, result, errored, state);
      },
      onStart: (_name, lateMs) => metrics.probeLateness.observe(Math.max(0, lateMs) / 1000),
      onTransition: (name, t) => {
        metrics.transitions.inc({ to: t.to });
        metrics.perCluster.transition(name, t.to);
        const entry = this.entries.get(name);
        if (entry !== undefined) {
          entry.message = t.result.message;
          // A new state: an errored probe in it is worth an Event again.
          entry.erroredTold = false;
        }
        log.info(
          { cluster: name, from: t.from, to: t.to, consecutive: t.consecutive, message: t.result.message },
          'probe transition',
        );
        options.onTransition(name, t);
      },
    });
  }

  /** Workers running. */
  get size(): number {
    return this.scheduler.size;
  }

  /** Names of the Clusters known here (with a worker, an invalid probe, or none). */
  names(): IterableIterator<string> {
    return this.entries.keys();
  }

  /** The worker state of a Cluster; `error` for an invalid probe. */
  stateOf(name: string): WorkerState | undefined {
    return this.entries.get(name)?.invalid !== undefined ? 'error' : this.scheduler.stateOf(name);
  }

  /**
   * What the Cluster should say: absent (no probe), invalid (never run), the worker's state with the message of the
   * result that made it, or keep (no result yet). Undefined for a Cluster this replica does not probe.
   */
  desired(name: string): Desired | undefined {
    const entry = this.entries.get(name);
    if (entry === undefined) return undefined;
    if (entry.source === 'none') return { kind: 'absent' };
    if (entry.invalid !== undefined) return { kind: 'invalid', message: entry.invalid };
    const state = this.scheduler.stateOf(name) ?? 'unknown';
    if (state === 'unknown') return { kind: 'keep' };
    return { kind: 'state', state, message: entry.message ?? `liveness probe state: ${state}` };
  }

  /**
   * The errored probe to tell in an Event for this Cluster, if one is due, and forgets it: at most one per probe
   * state (the first errored result after a transition, or after the worker started), so a Cluster whose probe errors
   * every period costs one Event, not one a period.
   */
  takeErroredEvent(name: string): { message: string; attempts?: number } | undefined {
    const entry = this.entries.get(name);
    const e = entry?.erroredEvent;
    if (entry !== undefined) delete entry.erroredEvent;
    return e;
  }

  /** Logs the first errored result of a series and the answer that ends it; asks for an Event once per state. */
  private noteErrored(name: string, result: ProbeResult, errored: boolean, state: WorkerState): void {
    const entry = this.entries.get(name);
    if (entry === undefined) return;
    const { log } = this.options;
    if (!errored) {
      if ((entry.erroredRun ?? 0) > 0)
        log.info(
          { cluster: name, errored: entry.erroredRun, result: result.result },
          'probe answers again after errored runs',
        );
      delete entry.erroredRun;
      return;
    }
    entry.erroredRun = (entry.erroredRun ?? 0) + 1;
    if (entry.erroredRun === 1)
      log.warn(
        { cluster: name, state, attempts: result.attempts, message: result.message },
        'probe errored; result discarded, not counted toward a threshold',
      );
    if (entry.erroredTold === true) return;
    entry.erroredTold = true;
    entry.erroredEvent = {
      message: result.message,
      ...(result.attempts !== undefined ? { attempts: result.attempts } : {}),
    };
    this.options.onErrored?.(name);
  }

  /** Makes the Cluster's worker the one its probe asks for: started, replaced, stopped, or none for an invalid probe. */
  ensure(cluster: Cluster): void {
    const name = cluster.metadata?.name ?? '';
    const spec = workerSpecOf(cluster, this.options.denyList);
    const entry = this.entries.get(name);
    if (spec.kind === 'none') {
      this.stopWorker(name, 'probe-removed');
      this.setEntry(name, { source: 'none' });
      return;
    }
    if (spec.kind === 'invalid') {
      if (entry?.fingerprint === spec.fingerprint) return;
      this.stopWorker(name, 'probe-invalid');
      this.setEntry(name, {
        source: spec.source,
        fingerprint: spec.fingerprint,
        invalid: spec.error,
        message: spec.error,
      });
      // The bounded message only: the field errors' values may hold what a user pasted.
      this.options.log.warn(
        { cluster: name, source: spec.source, errors: spec.errors, error: spec.error },
        'probe is invalid; not run',
      );
      return;
    }
    if (entry?.fingerprint === spec.fingerprint) {
      // The failure domain can move (a new region, zone or label) without the probe changing.
      this.options.guard?.track(name, this.options.guard.domainOf(cluster), spec.timing);
      return;
    }
    // A replaced worker keeps its state; a new one resumes from the verdict written before (the condition, where our
    // taint agrees with it; an invalid probe's).
    const initial: WorkerState =
      this.scheduler.stateOf(name) ?? (entry?.invalid !== undefined ? 'error' : stateFromCluster(cluster));
    if (spec.secretRef !== undefined) this.options.secrets.watchNamespace(spec.secretRef.namespace);
    if (spec.trust.kind === 'secret') this.options.secrets.watchNamespace(spec.trust.secretRef.namespace);
    this.scheduler.add(name, spec.probe, this.runner(spec), { initial, timing: spec.timing });
    this.options.guard?.track(name, this.options.guard.domainOf(cluster), spec.timing);
    this.options.metrics.perCluster.configure(
      name,
      spec.timing.failureThreshold,
      Date.parse(cluster.status?.conditions?.find((c) => c.type === HEALTHY_CONDITION)?.lastTransitionTime ?? ''),
    );
    this.setEntry(name, {
      source: spec.source,
      fingerprint: spec.fingerprint,
      ...(spec.handler !== undefined ? { handler: spec.handler } : {}),
      ...(entry?.message !== undefined ? { message: entry.message } : {}),
      ...erroredFields(entry),
    });
    this.options.metrics.workers.set(this.scheduler.size);
    this.options.log.info(
      {
        cluster: name,
        source: spec.source,
        handler: spec.handler,
        initial,
        replaced: entry?.fingerprint !== undefined,
      },
      entry?.fingerprint !== undefined ? 'worker replaced' : 'worker started',
    );
  }

  /** Forgets a Cluster: its worker stopped (`reason` counted and logged), its entry dropped. */
  remove(name: string, reason: StopReason): void {
    this.stopWorker(name, reason);
    this.setEntry(name, undefined);
    this.options.metrics.perCluster.remove(name);
  }

  /** Stops every worker (probes in flight aborted) and forgets every Cluster; returns how many workers ran. */
  async stop(): Promise<number> {
    const n = this.scheduler.size;
    await this.scheduler.stop();
    if (n > 0) this.options.metrics.workersStopped.inc({ reason: 'shutdown' }, n);
    this.options.metrics.workers.set(0);
    // A replica that stopped (or lost the lease) reports nothing; the leader counts afresh.
    this.entries.clear();
    this.options.metrics.invalidProbes.reset();
    this.options.metrics.perCluster.clear();
    return n;
  }

  private stopWorker(name: string, reason: StopReason): void {
    this.options.guard?.forget(name);
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

  private runner(spec: ProbeWorkerSpec): (signal: AbortSignal) => Promise<ProbeResult> {
    const { probe, secretRef, trust, context: base } = spec;
    const secrets = this.options.secrets;
    const waitMs = this.options.credentialsWaitMs ?? 10_000;
    const runProbe = this.options.runProbe ?? runEngineProbe;
    return async (signal) => {
      const ctx: ProbeContext = { ...base, signal };
      if (secretRef !== undefined) {
        // Read at every run from the watched cache: a rotated token is used from the next run on.
        const found = await secrets.credentials(secretRef.namespace, secretRef.name, waitMs);
        if (!found.ok) return { result: 'error', message: found.message, durationMs: 0 };
        ctx.credentials = found.credentials;
      }
      const out = await this.runWithTrust(runProbe, probe, ctx, trust, waitMs);
      // A refused token is the Secret's fault, not the member's: name the Secret the token came from.
      if (secretRef !== undefined && out.result === 'error' && out.code === 'CredentialsRejected')
        return {
          ...out,
          message: `spec.secretRef: Secret "${secretRef.namespace}/${secretRef.name}" key token: ${out.message}`,
        };
      return out;
    };
  }

  /** One run with the member's trust applied (insecure, a CA from a Secret, or the probe's own). */
  private async runWithTrust(
    runProbe: NonNullable<ProbeWorkersOptions['runProbe']>,
    probe: LivenessProbe,
    ctx: ProbeContext,
    trust: MemberTrust,
    waitMs: number,
  ): Promise<ProbeResult> {
    if (trust.kind === 'insecure') return runProbe(withMemberTrust(probe, { kind: 'insecure' }), ctx);
    if (trust.kind === 'secret') {
      // Read at every run too: a rotated member CA is trusted from the next run on.
      const { namespace, name } = trust.secretRef;
      const ca = await this.options.secrets.caBundle(namespace, name, waitMs);
      if (!ca.ok) return { result: 'error', message: ca.message, durationMs: 0 };
      if (ca.caBundle === undefined) return runProbe(probe, ctx);
      const out = await runProbe(withMemberTrust(probe, { kind: 'ca', caBundle: ca.caBundle }), ctx);
      // A bad bundle is the Secret's fault, not the probe's: name the Secret, not a field the user never wrote.
      if (out.result === 'error' && out.code === 'InvalidCABundle')
        return { ...out, message: `spec.secretRef: Secret "${namespace}/${name}" key caBundle: ${out.detail}` };
      return out;
    }
    return runProbe(probe, ctx);
  }
}
