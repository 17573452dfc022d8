// Per-Cluster series: the verdict a Cluster holds, its latest probe result and duration, results and transitions by
// Cluster, the time of the last transition, consecutive failures against the threshold. Gauges and counters only (a
// histogram would be a dozen series a Cluster); the names are src/facts/metric-names.ts's. Every series of a Cluster
// goes at once when it is deleted, loses its probe or stops being this replica's (another shard's, leadership lost).
import { Counter, Gauge, type Registry } from 'prom-client';
import { CLUSTER_LABEL, CLUSTER_METRICS as M, VERDICTS, type Verdict } from '../facts/metric-names.js';
import type { ProbeOutcome } from '@karmada-cluster-probe/probe';
import type { Desired } from './desired-state.js';

interface Series {
  verdict?: Verdict;
  results: Set<ProbeOutcome>;
  transitions: Set<ProbeOutcome>;
  consecutiveFailures: number;
  lastTransition: boolean;
}

type Label = typeof CLUSTER_LABEL;

export class ClusterMetrics {
  private readonly series = new Map<string, Series>();
  private readonly verdict: Gauge<Label | 'verdict'>;
  private readonly success: Gauge<Label>;
  private readonly duration: Gauge<Label>;
  private readonly probes: Counter<Label | 'result'>;
  private readonly transitions: Counter<Label | 'to'>;
  private readonly lastTransition: Gauge<Label>;
  private readonly consecutive: Gauge<Label>;
  private readonly threshold: Gauge<Label>;

  constructor(
    registry: Registry,
    private readonly wallClockMs: () => number = Date.now,
  ) {
    const registers = [registry];
    const gauge = <L extends string>(m: { name: string; help: string; labels: readonly string[] }): Gauge<L> =>
      new Gauge<L>({ name: m.name, help: m.help, labelNames: [CLUSTER_LABEL, ...m.labels] as L[], registers });
    const counter = <L extends string>(m: { name: string; help: string; labels: readonly string[] }): Counter<L> =>
      new Counter<L>({ name: m.name, help: m.help, labelNames: [CLUSTER_LABEL, ...m.labels] as L[], registers });
    this.verdict = gauge(M.verdict);
    this.success = gauge(M.probeSuccess);
    this.duration = gauge(M.probeDuration);
    this.probes = counter(M.probes);
    this.transitions = counter(M.transitions);
    this.lastTransition = gauge(M.lastTransition);
    this.consecutive = gauge(M.consecutiveFailures);
    this.threshold = gauge(M.failureThreshold);
  }

  /** Clusters with series now. */
  get size(): number {
    return this.series.size;
  }

  /**
   * A Cluster's probe runs with this failureThreshold (a worker started or replaced): its series begin. `sinceMs`: the
   * lastTransitionTime of the Healthy condition on the Cluster, so a new leader tells the same time as the old one.
   */
  configure(name: string, failureThreshold: number, sinceMs?: number): void {
    const s = this.entry(name);
    if (!s.lastTransition && sinceMs !== undefined && Number.isFinite(sinceMs)) {
      s.lastTransition = true;
      this.lastTransition.set({ [CLUSTER_LABEL]: name }, sinceMs / 1000);
    }
    this.threshold.set({ [CLUSTER_LABEL]: name }, failureThreshold);
    this.consecutive.set({ [CLUSTER_LABEL]: name }, s.consecutiveFailures);
    if (s.verdict === undefined) this.setVerdict(name, s, 'pending');
  }

  /** One probe run of a Cluster whose series have begun (a run that ends after its Cluster went counts nowhere). */
  result(name: string, outcome: ProbeOutcome, durationMs: number): void {
    const s = this.series.get(name);
    if (s === undefined) return;
    const cluster = { [CLUSTER_LABEL]: name };
    s.results.add(outcome);
    this.probes.inc({ ...cluster, result: outcome });
    this.success.set(cluster, outcome === 'success' ? 1 : 0);
    this.duration.set(cluster, durationMs / 1000);
    s.consecutiveFailures = outcome === 'failure' ? s.consecutiveFailures + 1 : 0;
    this.consecutive.set(cluster, s.consecutiveFailures);
  }

  /** A threshold reached: the probe's state changed. */
  transition(name: string, to: ProbeOutcome): void {
    const s = this.series.get(name);
    if (s === undefined) return;
    s.transitions.add(to);
    s.lastTransition = true;
    this.transitions.inc({ [CLUSTER_LABEL]: name, to });
    this.lastTransition.set({ [CLUSTER_LABEL]: name }, this.wallClockMs() / 1000);
  }

  /** The verdict the reconcile decided for the Cluster (after the disruption guard); undefined: it has no probe. */
  held(name: string, verdict: Verdict | undefined): void {
    if (verdict === undefined) {
      this.remove(name);
      return;
    }
    const s = this.entry(name);
    if (s.verdict !== verdict) this.setVerdict(name, s, verdict);
  }

  /** Every series of the Cluster, gone. */
  remove(name: string): void {
    const s = this.series.get(name);
    if (s === undefined) return;
    this.series.delete(name);
    const cluster = { [CLUSTER_LABEL]: name };
    if (s.verdict !== undefined) for (const verdict of VERDICTS) this.verdict.remove({ ...cluster, verdict });
    for (const result of s.results) this.probes.remove({ ...cluster, result });
    for (const to of s.transitions) this.transitions.remove({ ...cluster, to });
    if (s.results.size > 0) {
      this.success.remove(cluster);
      this.duration.remove(cluster);
    }
    if (s.lastTransition) this.lastTransition.remove(cluster);
    this.consecutive.remove(cluster);
    this.threshold.remove(cluster);
  }

  /** Every Cluster's series, gone (the replica stopped or lost the lease: the leader reports afresh). */
  clear(): void {
    this.series.clear();
    for (const m of [
      this.verdict,
      this.success,
      this.duration,
      this.probes,
      this.transitions,
      this.lastTransition,
      this.consecutive,
      this.threshold,
    ])
      m.reset();
  }

  private entry(name: string): Series {
    let s = this.series.get(name);
    if (s === undefined) {
      s = { results: new Set(), transitions: new Set(), consecutiveFailures: 0, lastTransition: false };
      this.series.set(name, s);
      this.consecutive.set({ [CLUSTER_LABEL]: name }, 0);
    }
    return s;
  }

  /** A state set, as kube-state-metrics writes one: every verdict, 1 for the one held, so a change is a 1 -> 0. */
  private setVerdict(name: string, s: Series, verdict: Verdict): void {
    if (s.verdict === undefined)
      for (const v of VERDICTS) this.verdict.set({ [CLUSTER_LABEL]: name, verdict: v }, v === verdict ? 1 : 0);
    else {
      this.verdict.set({ [CLUSTER_LABEL]: name, verdict: s.verdict }, 0);
      this.verdict.set({ [CLUSTER_LABEL]: name, verdict }, 1);
    }
    s.verdict = verdict;
  }
}

/** The verdict a desired state stands for; undefined for a Cluster without a probe. */
export function verdictOf(desired: Desired): Verdict | undefined {
  switch (desired.kind) {
    case 'absent':
      return undefined;
    case 'keep':
      return 'pending';
    case 'invalid':
      return 'invalid';
    case 'withheld':
      return 'withheld';
    case 'state':
      return desired.state === 'success' ? 'healthy' : desired.state === 'failure' ? 'failing' : 'error';
  }
}
