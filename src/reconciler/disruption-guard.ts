// The disruption guard: keeps the latest raw probe result of every Cluster this replica judges (and of its sentinels),
// assesses the failure domains and the fleet from them (disruption.ts, pure), and turns a failure verdict into what the
// state allows: written, withheld (Healthy=Unknown with a reason of ours, our taint lifted) or not yet. Re-assesses on
// a tick and queues again every Cluster whose decision changed, so the reconcile stays level-triggered.
import { WITHHELD_REASONS, type WithheldReason } from '../facts/disruption.js';
import type { Clock, ProbeResult, ResolvedTiming, TimerHandle, WorkerState } from '@karmada-cluster-probe/probe';
import { isErrored } from '@karmada-cluster-probe/probe';
import { UNHEALTHY_TAINT_KEY, type Cluster } from '@karmada-cluster-probe/schema';
import {
  assessFleet,
  decide,
  domainLabel,
  failureDomainOf,
  formatCeiling,
  type DomainCount,
  type DomainState,
  type FailureDomainMode,
  type FleetAssessment,
  type GuardDecision,
  type GuardThresholds,
  type Judged,
  type SentinelState,
} from './disruption.js';
import { HEALTHY_CONDITION, REASONS, type Desired, type TaintEffectOption } from './desired-state.js';
import type { ReconcilerMetrics } from './metrics.js';

export interface GuardLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface DisruptionGuardOptions {
  mode: FailureDomainMode;
  thresholds: GuardThresholds;
  /** New evicting verdicts per second in a large, partially disrupted domain. */
  partialDisruptionRate: number;
  taintEffect: TaintEffectOption;
  clock: Clock;
  metrics: ReconcilerMetrics;
  log: GuardLog;
  /** The cached Cluster by name. */
  get: (name: string) => Cluster | undefined;
  /** Worker state of a Cluster this replica probes. */
  stateOf: (name: string) => WorkerState | undefined;
  /** Queues a Cluster whose decision changed. */
  requeue: (name: string) => void;
  /** How often the guard re-assesses (ms). */
  tickMs?: number;
}

interface Tracked {
  domain: string;
  timing: ResolvedTiming;
  /** When the worker was first tracked: a Cluster not heard from within its first run is not waited for. */
  trackedAt: number;
  last?: 'success' | 'failure';
  /** Clock time the last result (any outcome) arrived, and the time its run started. */
  lastAt: number;
  lastStart: number;
  /** Start of the first run of the current run of failures, and when that failure arrived. */
  failingSince: number;
  firstFailureAt: number;
  /** Failures in a row. */
  run: number;
  /** Failures in a row since the prober's last confirmed disruption ended (a fresh start after it). */
  streak: number;
}

interface Sentinel {
  /** Latest result: true failed, false answered, undefined none yet (or one that could not run). */
  failing?: boolean;
  run: number;
  threshold: number;
  /** Its latest result was errored (discarded): to log the first of a series only. */
  errored?: boolean;
}

/** A token bucket of burst one: a large, partially disrupted domain's evicting verdicts. */
interface Bucket {
  tokens: number;
  at: number;
}

/** Reasons a held verdict may move between without a write: both say "held back", only the count differs. */
const HOLD_REASONS = new Set<string>([WITHHELD_REASONS.tooManyUnhealthy, WITHHELD_REASONS.domainPartiallyDisrupted]);

export class DisruptionGuard {
  private readonly tracked = new Map<string, Tracked>();
  private readonly sentinels = new Map<string, Sentinel>();
  private readonly buckets = new Map<string, Bucket>();
  /** The decision last made (or seen on the tick) per Cluster in a failure state, to queue it when it changes. */
  private readonly decisions = new Map<string, string>();
  /** Clusters whose failure verdict the guard let through, until their probe says otherwise. */
  private readonly admitted = new Set<string>();
  private assessment: FleetAssessment | undefined;
  private assessedAt = -Infinity;
  private dirty = true;
  /**
   * The Clusters other replicas judge (another shard's, a Pull agent's), by the Healthy condition they wrote: each
   * one's domain and verdict, and the counts per domain, kept as the informer tells of them (observeOther). At
   * 100,000 Clusters over 10 shards an assessment reads the counts of a few domains, not 90,000 objects.
   */
  private readonly otherByName = new Map<string, { domain: string; failing: boolean }>();
  private readonly otherCounts = new Map<string, DomainCount>();
  /** As of the last assessment: the latest start of a run that answered, and the earliest last run of those we wait for. */
  private maxSuccessStart = -Infinity;
  private minHeardStart = -Infinity;
  private wasDisrupted = false;
  private wasLifting = false;
  private readonly domainStates = new Map<string, DomainState>();
  private timer: TimerHandle | undefined;
  private stopped = false;

  constructor(private readonly options: DisruptionGuardOptions) {
    options.metrics.proberDisrupted.set(0);
  }

  domainOf(cluster: Cluster): string {
    return failureDomainOf(cluster, this.options.mode);
  }

  start(): void {
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) this.options.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.tracked.clear();
    this.decisions.clear();
    this.admitted.clear();
    this.buckets.clear();
    this.domainStates.clear();
    this.otherByName.clear();
    this.otherCounts.clear();
    const m = this.options.metrics;
    m.domainState.reset();
    m.verdictsWithheld.reset();
    m.sentinelUp.reset();
    m.proberDisrupted.set(0);
  }

  /** A Cluster's worker started or was replaced: its domain and timing (its results so far are kept). */
  track(name: string, domain: string, timing: ResolvedTiming): void {
    const t = this.tracked.get(name);
    if (t !== undefined) {
      if (t.domain !== domain) this.dirty = true;
      t.domain = domain;
      t.timing = timing;
      return;
    }
    this.tracked.set(name, {
      domain,
      timing,
      trackedAt: this.options.clock.now(),
      lastAt: -Infinity,
      lastStart: -Infinity,
      failingSince: 0,
      firstFailureAt: 0,
      run: 0,
      streak: 0,
    });
    this.dirty = true;
  }

  forget(name: string): void {
    if (this.tracked.delete(name)) this.dirty = true;
    this.decisions.delete(name);
    this.admitted.delete(name);
  }

  /**
   * Every probe result of a Cluster this replica judges. An errored one (code ProbeErrored: the answer could not be
   * read, retried and discarded by the worker) says nothing of the cluster either: not judged, but heard from; and,
   * as the worker does, it neither breaks nor extends the run of failures, so "confirmed" here means what the
   * worker's failureThreshold means.
   */
  observe(name: string, result: ProbeResult): void {
    const t = this.tracked.get(name);
    if (t === undefined) return;
    const now = this.options.clock.now();
    const start = now - result.durationMs;
    if (result.result === 'failure') {
      if (t.run === 0) {
        t.failingSince = start;
        t.firstFailureAt = now;
      }
      t.run++;
      t.streak++;
    } else if (!isErrored(result)) {
      t.run = 0;
      t.streak = 0;
    }
    // An error (the probe cannot run as configured, or errored) says nothing of the cluster: not judged, but heard from.
    t.last = result.result === 'error' ? undefined : result.result;
    t.lastAt = now;
    t.lastStart = start;
    this.dirty = true;
  }

  /** Registers a sentinel (`threshold`: failures in a row that confirm it is down). */
  addSentinel(name: string, threshold: number): void {
    this.sentinels.set(name, { run: 0, threshold });
    this.options.metrics.sentinelUp.set({ sentinel: name }, 0);
  }

  /**
   * A sentinel's result. One that cannot run (a configuration error) is logged and counts for nothing. An errored one
   * (retried, then discarded, as the kubelet's worker discards it) changes nothing: a failing sentinel keeps holding
   * verdicts and its run of failures goes on; the first of a series is logged.
   */
  sentinelResult(name: string, result: ProbeResult): void {
    const s = this.sentinels.get(name);
    if (s === undefined) return;
    const before = s.failing;
    if (isErrored(result)) {
      if (s.errored !== true)
        this.options.log.warn(
          { sentinel: name, message: result.message, attempts: result.attempts },
          'sentinel probe errored; result discarded',
        );
      s.errored = true;
      return;
    }
    s.errored = false;
    if (result.result === 'error') {
      s.failing = undefined;
      s.run = 0;
      if (before !== undefined)
        this.options.log.warn(
          { sentinel: name, message: result.message },
          'sentinel cannot run; it does not count until it can',
        );
    } else {
      s.failing = result.result === 'failure';
      s.run = s.failing ? s.run + 1 : 0;
      if (before !== s.failing)
        this.options.log[s.failing ? 'warn' : 'info']({ sentinel: name, message: result.message }, 'sentinel changed');
    }
    this.options.metrics.sentinelUp.set({ sentinel: name }, s.failing === false ? 1 : 0);
    this.dirty = true;
  }

  /**
   * What the reconcile writes for a Cluster whose probe says `desired`: unchanged, `keep` (not yet), or withheld.
   * Consumes a domain's rate token when it lets an evicting verdict through.
   */
  adjust(name: string, desired: Desired, cluster: Cluster): Desired {
    if (desired.kind !== 'state' || desired.state !== 'failure') {
      this.decisions.delete(name);
      this.admitted.delete(name);
      return desired;
    }
    const d = this.decisionFor(name, cluster, true);
    this.decisions.set(name, keyOf(d));
    // Let through once, it stays let through: the taint is written alone first and the condition follows in the next
    // reconcile, which must not find a verdict "new" again (and take another token, or lift the taint it just wrote).
    if (d.kind === 'verdict') this.admitted.add(name);
    else this.admitted.delete(name);
    if (d.kind === 'verdict') return desired;
    if (d.kind === 'wait') return { kind: 'keep' };
    // Held for the ceiling or for a domain's rate, and held now for the other: no write, no Event (no flapping).
    const now = cluster.status?.conditions?.find((c) => c.type === HEALTHY_CONDITION);
    if (now?.status === 'Unknown' && HOLD_REASONS.has(now.reason) && HOLD_REASONS.has(d.reason))
      return { kind: 'keep' };
    return { kind: 'withheld', reason: d.reason, message: `${d.message}. Probe: ${desired.message}` };
  }

  /**
   * A Cluster another replica judges changed (`cluster`), or is gone or became this replica's (undefined): its
   * verdict, as its Healthy condition tells, counts in its domain and against the ceiling.
   */
  observeOther(name: string, cluster: Cluster | undefined): void {
    const j = cluster === undefined ? undefined : judgedByCondition(cluster);
    const next = j === undefined ? undefined : { domain: this.domainOf(cluster!), failing: j === 'failing' };
    const before = this.otherByName.get(name);
    if (before?.domain === next?.domain && before?.failing === next?.failing) return;
    if (before !== undefined) {
      const c = this.otherCounts.get(before.domain)!;
      c.total--;
      if (before.failing) c.failing--;
      if (c.total === 0) this.otherCounts.delete(before.domain);
      this.otherByName.delete(name);
    }
    if (next !== undefined) {
      let c = this.otherCounts.get(next.domain);
      if (c === undefined) this.otherCounts.set(next.domain, (c = { total: 0, failing: 0 }));
      c.total++;
      if (next.failing) c.failing++;
      this.otherByName.set(name, next);
    }
    this.dirty = true;
  }

  /**
   * The current assessment: re-made when results came in since (at most every `tracked / 100` ms past 1,000 Clusters:
   * 100 ms at 10,000, so that a mass failure's hundreds of reconciles a second do not each walk the fleet), or when a
   * second has passed. A view up to that old only waits longer: the evidence rule reads the same snapshot.
   */
  assess(): FleetAssessment {
    const now = this.options.clock.now();
    const n = this.tracked.size;
    const minAge = this.dirty ? (n >= 1000 ? n / 100 : 0) : 1000;
    if (this.assessment !== undefined && now - this.assessedAt < minAge) return this.assessment;
    const own: Judged[] = [];
    let maxSuccessStart = -Infinity;
    let minHeardStart = Infinity;
    for (const t of this.tracked.values()) {
      const period = t.timing.periodSeconds * 1000;
      const timeout = t.timing.timeoutSeconds * 1000;
      const heard = t.lastAt > -Infinity;
      // Stuck: no result within two periods and a timeout (or, never heard, within its first run): not judged, and
      // not waited for (a probe that never ends must not hold every verdict).
      const stuck = heard
        ? now - t.lastAt > 2 * period + timeout + 1000
        : now - t.trackedAt > t.timing.initialDelaySeconds * 1000 + period + timeout + 1000;
      if (stuck) continue;
      minHeardStart = Math.min(minHeardStart, heard ? t.lastStart : -Infinity);
      if (t.last === undefined) continue;
      const failing = t.last === 'failure';
      own.push({ domain: t.domain, failing, confirmed: failing && t.run >= t.timing.failureThreshold });
      if (!failing) maxSuccessStart = Math.max(maxSuccessStart, t.lastStart);
    }
    this.maxSuccessStart = maxSuccessStart;
    this.minHeardStart = minHeardStart;
    const sentinels: SentinelState[] = [];
    for (const [name, s] of this.sentinels)
      if (s.failing !== undefined) sentinels.push({ name, failing: s.failing, confirmed: s.run >= s.threshold });
    const a = assessFleet(own, this.otherCounts, sentinels, this.options.thresholds);
    this.assessment = a;
    this.assessedAt = now;
    this.dirty = false;
    this.noteChanges(a);
    return a;
  }

  private decisionFor(name: string, cluster: Cluster, consume: boolean): GuardDecision {
    const a = this.assess();
    const t = this.tracked.get(name);
    const now = this.options.clock.now();
    const view = {
      domain: t?.domain ?? this.domainOf(cluster),
      judgedFailing: this.admitted.has(name) || carriesVerdict(cluster, this.options.taintEffect),
      freshRun: t === undefined || t.streak >= t.timing.failureThreshold,
      // Evidence the prober works: a Cluster answered in a run that began after this one's first failure came in; or
      // every Cluster we wait for has run since this one began failing (then the count rule above decides). Until
      // then a verdict waits: one slow Cluster still counted healthy by a result from before the cut must not let the
      // fast ones be tainted.
      settled: t === undefined || this.maxSuccessStart >= t.firstFailureAt || this.minHeardStart >= t.failingSince,
      evicting: this.options.taintEffect !== 'NoSchedule',
    };
    return decide(a, view, () => this.token(view.domain, now, consume));
  }

  private token(domain: string, now: number, consume: boolean): boolean {
    const rate = this.options.partialDisruptionRate;
    let b = this.buckets.get(domain);
    if (b === undefined) {
      b = { tokens: 1, at: now };
      this.buckets.set(domain, b);
    }
    b.tokens = Math.min(1, b.tokens + ((now - b.at) / 1000) * rate);
    b.at = now;
    if (b.tokens < 1) return false;
    if (consume) b.tokens -= 1;
    return true;
  }

  /** Logs and counts every change of the fleet's and the domains' states; a recovery gives every Cluster a fresh start. */
  private noteChanges(a: FleetAssessment): void {
    const { metrics, log } = this.options;
    if (a.proberDisrupted !== this.wasDisrupted || a.lifting !== this.wasLifting) {
      const wasLifting = this.wasLifting;
      this.wasDisrupted = a.proberDisrupted;
      this.wasLifting = a.lifting;
      metrics.proberDisrupted.set(a.proberDisrupted ? 1 : 0);
      if (a.proberDisrupted)
        log.warn(
          { why: a.why, failing: a.own.failing, judged: a.own.total, confirmed: a.lifting },
          a.lifting
            ? 'prober disrupted (confirmed): withholding every failure verdict and lifting our taints'
            : 'prober suspect: withholding new failure verdicts',
        );
      else if (wasLifting) {
        // Node lifecycle's exit from master disruption: every Cluster gets a fresh run before any new verdict.
        for (const t of this.tracked.values()) t.streak = 0;
        log.info(
          { failing: a.own.failing, judged: a.own.total },
          'prober recovered: verdicts resume after a fresh run',
        );
      } else log.info({ failing: a.own.failing, judged: a.own.total }, 'prober no longer suspect');
    }
    for (const [domain, d] of a.domains) {
      const before = this.domainStates.get(domain);
      if (before === d.state) continue;
      this.domainStates.set(domain, d.state);
      const label = domainLabel(domain);
      if (before !== undefined) metrics.domainState.remove({ domain: label, state: before });
      metrics.domainState.set({ domain: label, state: d.state }, 1);
      if (before !== undefined || d.state !== 'Normal')
        log.warn(
          { domain: label, from: before ?? 'Normal', to: d.state, failing: d.failing, judged: d.total },
          'failure domain state changed',
        );
    }
    // A domain with no judged Cluster left: its series and its rate bucket go.
    for (const [domain, before] of this.domainStates) {
      if (a.domains.has(domain)) continue;
      this.domainStates.delete(domain);
      this.buckets.delete(domain);
      metrics.domainState.remove({ domain: domainLabel(domain), state: before });
    }
  }

  /** Re-assesses and queues every failing Cluster whose decision changed since it was last reconciled. */
  tick(): void {
    this.assess();
    const withheld = new Map<WithheldReason, number>();
    for (const [name] of this.tracked) {
      if (this.options.stateOf(name) !== 'failure') continue;
      const cluster = this.options.get(name);
      if (cluster === undefined) continue;
      const d = this.decisionFor(name, cluster, false);
      const key = keyOf(d);
      if (d.kind === 'withhold') withheld.set(d.reason, (withheld.get(d.reason) ?? 0) + 1);
      const before = this.decisions.get(name);
      if (before === undefined || before === key || (before === 'verdict' && d.kind === 'wait')) continue;
      this.decisions.set(name, key);
      this.options.requeue(name);
    }
    this.options.metrics.verdictsWithheld.reset();
    for (const [reason, n] of withheld) this.options.metrics.verdictsWithheld.set({ reason }, n);
  }

  private arm(): void {
    if (this.stopped) return;
    const clock = this.options.clock;
    this.timer = clock.setTimer(clock.now() + (this.options.tickMs ?? 500), () => {
      this.timer = undefined;
      if (this.stopped) return;
      this.tick();
      this.arm();
    });
  }

  /** For the log line at start. */
  describe(): object {
    return {
      failureDomain: this.options.mode.kind === 'label' ? `label=${this.options.mode.key}` : this.options.mode.kind,
      unhealthyDomainThreshold: this.options.thresholds.unhealthyDomainThreshold,
      largeDomainSize: this.options.thresholds.largeDomainSize,
      partialDisruptionRate: this.options.partialDisruptionRate,
      maxUnhealthy: formatCeiling(this.options.thresholds.maxUnhealthy),
      sentinels: [...this.sentinels.keys()],
    };
  }
}

function keyOf(d: GuardDecision): string {
  return d.kind === 'withhold' ? `withhold:${d.reason}` : d.kind;
}

/**
 * The Cluster carries our failure verdict already: Healthy=False with our reason, or (where we own taints) our taint,
 * which is written before the condition.
 */
function carriesVerdict(cluster: Cluster, effect: TaintEffectOption): boolean {
  const c = cluster.status?.conditions?.find((x) => x.type === HEALTHY_CONDITION);
  if (c !== undefined && c.status === 'False' && c.reason === REASONS.failure) return true;
  return effect !== 'none' && (cluster.spec?.taints ?? []).some((t) => t.key === UNHEALTHY_TAINT_KEY);
}

const WITHHELD = new Set<string>(Object.values(WITHHELD_REASONS));

/**
 * Another replica's verdict on a Cluster, from the condition it wrote: a success or a failure, and a failure it
 * withholds counts as failing (it is failing; only the verdict is held), so that two shards cannot each admit up to
 * the ceiling. Errors and invalid probes are not verdicts.
 */
function judgedByCondition(cluster: Cluster): 'healthy' | 'failing' | undefined {
  const c = cluster.status?.conditions?.find((x) => x.type === HEALTHY_CONDITION);
  if (c === undefined) return undefined;
  if (c.status === 'True' && c.reason === REASONS.success) return 'healthy';
  if (c.status === 'False' && c.reason === REASONS.failure) return 'failing';
  if (c.status === 'Unknown' && WITHHELD.has(c.reason)) return 'failing';
  return undefined;
}
