// Per-Cluster series: the verdict a Cluster holds, its latest probe result and duration, results and transitions by
// Cluster, the time of the last transition, consecutive failures against the threshold. Gauges and counters only (a
// histogram would be a dozen series a Cluster); the names are src/facts/metric-names.ts's. Every series of a Cluster
// goes at once when it is deleted, loses its probe or stops being this replica's (another shard's, leadership lost).
// Kept in one record a Cluster (numbers, no per-series objects: at 10,000 Clusters prom-client held 130,000 label
// maps and value objects and rebuilt them at every `set`), registered in the Registry as eight metric families whose
// get() prom-client formats (tests, `registry.metrics()`), and written by writeFamily() a slice of Clusters at a time
// from each Cluster's lines kept encoded until a value they show changes (issue 50: a scrape concatenates ready
// strings), with the event loop let run between slices (writeExposition in metrics.ts), not one 12 MB string built in
// one synchronous call. Both spell a sample as prom-client does, byte for byte.
import type { Registry } from 'prom-client';
import { CLUSTER_LABEL, CLUSTER_METRICS as M, VERDICTS, type Verdict } from '../facts/metric-names.js';
import type { ProbeOutcome } from '@karmada-cluster-probe/probe';
import type { Desired } from './desired-state.js';

interface Series {
  /** The Cluster's label pair, escaped as prom-client escapes it: `member_cluster="a"`. */
  readonly label: string;
  verdict: Verdict | undefined;
  /** Counters by outcome, in the order each first counted. */
  results: Map<ProbeOutcome, number> | undefined;
  transitions: Map<ProbeOutcome, number> | undefined;
  success: number | undefined;
  durationSeconds: number | undefined;
  lastTransitionSeconds: number | undefined;
  consecutiveFailures: number;
  threshold: number | undefined;
  /** Removed: a scrape that took its list of Clusters before skips it. */
  gone: boolean;
  /**
   * Each family's exposition lines of this Cluster as writeFamily last wrote them (by FAMILIES' index), undefined
   * once a value it shows changed: a scrape re-encodes only what changed since the one before.
   */
  lines: (string | undefined)[];
}

type FamilyKey = keyof typeof M &
  (
    | 'verdict'
    | 'probeSuccess'
    | 'probeDuration'
    | 'probes'
    | 'transitions'
    | 'lastTransition'
    | 'consecutiveFailures'
    | 'failureThreshold'
  );

/** In the order they were registered before (the exposition's order); the index is the one Series.lines uses. */
const FAMILIES: readonly { key: FamilyKey; type: 'gauge' | 'counter' }[] = [
  { key: 'verdict', type: 'gauge' },
  { key: 'probeSuccess', type: 'gauge' },
  { key: 'probeDuration', type: 'gauge' },
  { key: 'probes', type: 'counter' },
  { key: 'transitions', type: 'counter' },
  { key: 'lastTransition', type: 'gauge' },
  { key: 'consecutiveFailures', type: 'gauge' },
  { key: 'failureThreshold', type: 'gauge' },
];

const FAMILY_INDEX = new Map(FAMILIES.map((f, i) => [f.key, i]));
const indexOf = (key: FamilyKey): number => FAMILY_INDEX.get(key)!;
/** The families a probe's result changes. */
const RESULT_FAMILIES = (['probeSuccess', 'probeDuration', 'probes', 'consecutiveFailures'] as const).map(indexOf);
const VERDICT_FAMILY = indexOf('verdict');

/** prom-client's getValueAsString. */
export function promValue(v: number): string {
  if (Number.isNaN(v)) return 'Nan';
  if (!Number.isFinite(v)) return v < 0 ? '-Inf' : '+Inf';
  return `${v}`;
}

/** prom-client's escapeLabelValue. */
export function promLabelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

/** One family of per-Cluster series as prom-client's Registry takes a metric: a name, help, type and get(). */
export class ClusterFamily {
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  /** The `# HELP` and `# TYPE` lines, as prom-client writes them. */
  readonly header: string;

  constructor(
    private readonly store: ClusterMetrics,
    readonly key: FamilyKey,
    readonly type: 'gauge' | 'counter',
  ) {
    this.name = M[key].name;
    this.help = M[key].help;
    const esc = (t: string): string => t.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
    this.header = `# HELP ${esc(this.name)} ${esc(this.help)}\n# TYPE ${esc(this.name)} ${type}`;
  }

  /** prom-client's view: every sample, with its labels. */
  get(): {
    name: string;
    help: string;
    type: string;
    aggregator: string;
    values: { labels: Record<string, string>; value: number }[];
  } {
    const values: { labels: Record<string, string>; value: number }[] = [];
    for (const [cluster, s] of this.store.entries())
      this.store.samples(this.key, s, (extra, value) => {
        const labels: Record<string, string> = { [CLUSTER_LABEL]: cluster };
        if (extra !== undefined) labels[extra[0]] = extra[1];
        values.push({ labels, value });
      });
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** Nothing of its own: the records are the store's (ClusterMetrics.clear). */
  reset(): void {}
}

export class ClusterMetrics {
  private readonly series = new Map<string, Series>();

  constructor(
    registry: Registry,
    private readonly wallClockMs: () => number = Date.now,
  ) {
    for (const f of FAMILIES.map((x) => new ClusterFamily(this, x.key, x.type)))
      registry.registerMetric(f as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  /** Clusters with series now. */
  get size(): number {
    return this.series.size;
  }

  entries(): IterableIterator<[string, Series]> {
    return this.series.entries();
  }

  /** The records now, for a scrape written a slice at a time. */
  snapshot(): Series[] {
    return [...this.series.values()];
  }

  /**
   * A Cluster's probe runs with this failureThreshold (a worker started or replaced): its series begin. `sinceMs`: the
   * lastTransitionTime of the Healthy condition on the Cluster, so a new leader tells the same time as the old one.
   */
  configure(name: string, failureThreshold: number, sinceMs?: number): void {
    const s = this.entry(name);
    if (s.lastTransitionSeconds === undefined && sinceMs !== undefined && Number.isFinite(sinceMs))
      s.lastTransitionSeconds = sinceMs / 1000;
    s.threshold = failureThreshold;
    if (s.verdict === undefined) s.verdict = 'pending';
    s.lines.fill(undefined);
  }

  /** One probe run of a Cluster whose series have begun (a run that ends after its Cluster went counts nowhere). */
  result(name: string, outcome: ProbeOutcome, durationMs: number): void {
    const s = this.series.get(name);
    if (s === undefined) return;
    const results = (s.results ??= new Map());
    results.set(outcome, (results.get(outcome) ?? 0) + 1);
    s.success = outcome === 'success' ? 1 : 0;
    s.durationSeconds = durationMs / 1000;
    s.consecutiveFailures = outcome === 'failure' ? s.consecutiveFailures + 1 : 0;
    for (const i of RESULT_FAMILIES) s.lines[i] = undefined;
  }

  /** A threshold reached: the probe's state changed. */
  transition(name: string, to: ProbeOutcome): void {
    const s = this.series.get(name);
    if (s === undefined) return;
    const transitions = (s.transitions ??= new Map());
    transitions.set(to, (transitions.get(to) ?? 0) + 1);
    s.lastTransitionSeconds = this.wallClockMs() / 1000;
    s.lines.fill(undefined);
  }

  /** The verdict the reconcile decided for the Cluster (after the disruption guard); undefined: it has no probe. */
  held(name: string, verdict: Verdict | undefined): void {
    if (verdict === undefined) {
      this.remove(name);
      return;
    }
    const s = this.entry(name);
    if (s.verdict === verdict) return;
    s.verdict = verdict;
    s.lines[VERDICT_FAMILY] = undefined;
  }

  /** Every series of the Cluster, gone. */
  remove(name: string): void {
    const s = this.series.get(name);
    if (s === undefined) return;
    s.gone = true;
    this.series.delete(name);
  }

  /** Every Cluster's series, gone (the replica stopped or lost the lease: the leader reports afresh). */
  clear(): void {
    for (const s of this.series.values()) s.gone = true;
    this.series.clear();
  }

  /** The samples of one family for one Cluster: `extra` is the second label pair, if the family has one. */
  samples(
    key: FamilyKey,
    s: Series,
    emit: (extra: readonly [string, string] | undefined, value: number) => void,
  ): void {
    switch (key) {
      case 'verdict':
        if (s.verdict !== undefined) for (const v of VERDICTS) emit(['verdict', v], v === s.verdict ? 1 : 0);
        return;
      case 'probeSuccess':
        if (s.success !== undefined) emit(undefined, s.success);
        return;
      case 'probeDuration':
        if (s.durationSeconds !== undefined) emit(undefined, s.durationSeconds);
        return;
      case 'probes':
        if (s.results !== undefined) for (const [o, n] of s.results) emit(['result', o], n);
        return;
      case 'transitions':
        if (s.transitions !== undefined) for (const [o, n] of s.transitions) emit(['to', o], n);
        return;
      case 'lastTransition':
        if (s.lastTransitionSeconds !== undefined) emit(undefined, s.lastTransitionSeconds);
        return;
      case 'consecutiveFailures':
        emit(undefined, s.consecutiveFailures);
        return;
      case 'failureThreshold':
        if (s.threshold !== undefined) emit(undefined, s.threshold);
        return;
    }
  }

  /**
   * The exposition lines of one family for `records[from, to)`, each after a newline, as prom-client writes them:
   * a Cluster's lines as the last scrape wrote them when nothing they show changed since, else encoded afresh and kept.
   */
  writeFamily(family: ClusterFamily, records: readonly Series[], from: number, to: number): string {
    let out = '';
    const index = indexOf(family.key);
    for (let i = from; i < to; i++) {
      const s = records[i]!;
      if (s.gone) continue;
      let lines = s.lines[index];
      if (lines === undefined) {
        lines = this.encode(family, s);
        s.lines[index] = lines;
      }
      out += lines;
    }
    return out;
  }

  private encode(family: ClusterFamily, s: Series): string {
    let lines = '';
    const name = family.name;
    this.samples(family.key, s, (extra, value) => {
      lines += `\n${name}{${s.label}${extra !== undefined ? `,${extra[0]}="${extra[1]}"` : ''}} ${promValue(value)}`;
    });
    // Kept for many scrapes: flattened (a string made by += is a tree of its pieces, 2.6x the bytes at 10,000 Clusters;
    // V8 flattens a string it converts to a number, as the flatstr package does).
    void Number(lines);
    return lines;
  }

  private entry(name: string): Series {
    let s = this.series.get(name);
    if (s === undefined) {
      s = {
        label: `${CLUSTER_LABEL}="${promLabelValue(name)}"`,
        verdict: undefined,
        results: undefined,
        transitions: undefined,
        success: undefined,
        durationSeconds: undefined,
        lastTransitionSeconds: undefined,
        consecutiveFailures: 0,
        threshold: undefined,
        gone: false,
        lines: new Array<string | undefined>(FAMILIES.length).fill(undefined),
      };
      this.series.set(name, s);
    }
    return s;
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
