// The disruption guard: keeps the latest raw probe result of every Cluster this replica judges (and of its sentinels),
// assesses the failure domains and the fleet from them (disruption.ts, pure), and turns a failure verdict into what the
// state allows: written, withheld (Healthy=Unknown with a reason of ours, our taint lifted) or not yet. Re-assesses on
// a tick and queues again every Cluster whose decision changed, so the reconcile stays level-triggered.
import type { WithheldReason } from '../api/disruption.js';
import type { Clock, ProbeResult, ResolvedTiming, TimerHandle, WorkerState } from '../probe/index.js';
import { UNHEALTHY_TAINT_KEY, type Cluster } from '../schema/index.js';
import {
  assessFleet,
  decide,
  domainLabel,
  failureDomainOf,
  formatCeiling,
  type DomainState,
  type FailureDomainMode,
  type FleetAssessment,
  type GuardDecision,
  type GuardThresholds,
  type Judged,
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
  /** The Clusters other replicas judge (another shard's, a Pull agent's), read from the Healthy conditions they wrote. */
  others: () => Iterable<Cluster>;
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
  last?: 'success' | 'failure';
  /** Clock time the last result arrived, and the time its run started. */
  lastAt: number;
  lastStart: number;
  /** Start of the first run of the current run of failures. */
  failingSince: number;
  /** Failures in a row since the later of that and the prober's last recovery. */
  streak: number;
  /** When streak reached failureThreshold. */
  crossedAt: number;
}

/** A token bucket of burst one: a large, partially disrupted domain's evicting verdicts. */
interface Bucket {
  tokens: number;
  at: number;
}

export class DisruptionGuard {
  private readonly tracked = new Map<string, Tracked>();
  private readonly sentinels = new Map<string, boolean>();
  private readonly buckets = new Map<string, Bucket>();
  /** The decision last made (or seen on the tick) per Cluster in a failure state, to queue it when it changes. */
  private readonly decisions = new Map<string, string>();
  /** Clusters whose failure verdict the guard let through, until their probe says otherwise. */
  private readonly admitted = new Set<string>();
  private assessment: FleetAssessment | undefined;
  private assessedAt = -Infinity;
  /** The earliest run start among the Clusters judged here, as of the last assessment. */
  private minLastStart = -Infinity;
  private dirty = true;
  private wasDisrupted = false;
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
    this.options.metrics.domainState.reset();
    this.options.metrics.verdictsWithheld.reset();
    this.options.metrics.proberDisrupted.set(0);
  }

  /** A Cluster's worker started or was replaced: its domain and timing (its results so far are kept). */
  track(name: string, domain: string, timing: ResolvedTiming): void {
    const t = this.tracked.get(name);
    if (t !== undefined) {
      t.domain = domain;
      t.timing = timing;
    } else
      this.tracked.set(name, {
        domain,
        timing,
        lastAt: -Infinity,
        lastStart: -Infinity,
        failingSince: 0,
        streak: 0,
        crossedAt: 0,
      });
    this.dirty = true;
  }

  forget(name: string): void {
    if (this.tracked.delete(name)) this.dirty = true;
    this.decisions.delete(name);
    this.admitted.delete(name);
  }

  /** Every probe result of a Cluster this replica judges. */
  observe(name: string, result: ProbeResult): void {
    const t = this.tracked.get(name);
    if (t === undefined) return;
    const now = this.options.clock.now();
    const start = now - result.durationMs;
    if (result.result === 'failure') {
      if (t.last !== 'failure' || t.streak === 0) t.failingSince = start;
      t.streak++;
      if (t.streak === t.timing.failureThreshold) t.crossedAt = now;
    } else t.streak = 0;
    // An error (the probe cannot run as configured) says nothing of the cluster: not judged.
    t.last = result.result === 'error' ? undefined : result.result;
    t.lastAt = now;
    t.lastStart = start;
    this.dirty = true;
  }

  /** A sentinel's latest result (`failing` undefined: none yet). */
  sentinel(name: string, failing: boolean | undefined): void {
    if (failing === undefined) this.sentinels.delete(name);
    else this.sentinels.set(name, failing);
    this.options.metrics.sentinelUp.set({ sentinel: name }, failing === false ? 1 : 0);
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
    return { kind: 'withheld', reason: d.reason, message: `${d.message}. Probe: ${desired.message}` };
  }

  /** The current assessment (re-made when results came in since, or a second has passed). */
  assess(): FleetAssessment {
    const now = this.options.clock.now();
    if (this.assessment !== undefined && !this.dirty && now - this.assessedAt < 1000) return this.assessment;
    const own: Judged[] = [];
    let minStart = Infinity;
    for (const t of this.tracked.values()) {
      if (t.last === undefined) continue;
      // A result older than two periods and a timeout is stale (the probe is stuck, or was replaced): not judged.
      const staleAfter = (2 * t.timing.periodSeconds + t.timing.timeoutSeconds + 1) * 1000;
      if (now - t.lastAt > staleAfter) continue;
      own.push({ domain: t.domain, failing: t.last === 'failure' });
      if (t.lastStart < minStart) minStart = t.lastStart;
    }
    this.minLastStart = minStart;
    const others: Judged[] = [];
    for (const c of this.options.others()) {
      const j = judgedByCondition(c);
      if (j !== undefined) others.push({ domain: this.domainOf(c), failing: j === 'failing' });
    }
    const failingSentinels = [...this.sentinels].filter(([, failing]) => failing).map(([n]) => n);
    const a = assessFleet(own, others, failingSentinels, this.options.thresholds);
    this.assessment = a;
    this.assessedAt = now;
    this.dirty = false;
    this.noteChanges(a, now);
    return a;
  }

  private decisionFor(name: string, cluster: Cluster, consume: boolean): GuardDecision {
    const a = this.assess();
    const t = this.tracked.get(name);
    const now = this.options.clock.now();
    const judgedFailing = this.admitted.has(name) || carriesVerdict(cluster, this.options.taintEffect);
    const minStart = this.minLastStart;
    const view = {
      domain: t?.domain ?? this.domainOf(cluster),
      judgedFailing,
      freshRun: t === undefined || t.streak >= t.timing.failureThreshold,
      // Every other Cluster judged here has run since this one began failing; or one more period has passed.
      settled: t === undefined || minStart >= t.failingSince || now >= t.crossedAt + t.timing.periodSeconds * 1000,
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
  private noteChanges(a: FleetAssessment, now: number): void {
    const { metrics, log } = this.options;
    if (a.proberDisrupted !== this.wasDisrupted) {
      this.wasDisrupted = a.proberDisrupted;
      metrics.proberDisrupted.set(a.proberDisrupted ? 1 : 0);
      if (a.proberDisrupted)
        log.warn(
          { why: a.why, failing: a.own.failing, judged: a.own.total },
          'prober disrupted: withholding every failure verdict and lifting our taints',
        );
      else {
        // Node lifecycle's exit from master disruption: every Cluster gets a fresh run before any new verdict.
        for (const t of this.tracked.values()) t.streak = 0;
        log.info(
          { failing: a.own.failing, judged: a.own.total, at: now },
          'prober recovered: verdicts resume after a fresh run',
        );
      }
    }
    for (const [domain, d] of a.domains) {
      const before = this.domainStates.get(domain) ?? 'Normal';
      if (before === d.state) continue;
      this.domainStates.set(domain, d.state);
      metrics.domainState.set({ domain: domainLabel(domain), state: before }, 0);
      metrics.domainState.set({ domain: domainLabel(domain), state: d.state }, 1);
      log.warn(
        { domain: domainLabel(domain), from: before, to: d.state, failing: d.failing, judged: d.total },
        'failure domain state changed',
      );
    }
    for (const [domain, before] of this.domainStates) {
      if (a.domains.has(domain) || before === 'Normal') continue;
      this.domainStates.delete(domain);
      metrics.domainState.set({ domain: domainLabel(domain), state: before }, 0);
      log.info({ domain: domainLabel(domain), from: before, to: 'Normal' }, 'failure domain state changed');
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

/** Another replica's verdict on a Cluster, from the condition it wrote (withheld and errors are not verdicts). */
function judgedByCondition(cluster: Cluster): 'healthy' | 'failing' | undefined {
  const c = cluster.status?.conditions?.find((x) => x.type === HEALTHY_CONDITION);
  if (c === undefined) return undefined;
  if (c.status === 'True' && c.reason === REASONS.success) return 'healthy';
  if (c.status === 'False' && c.reason === REASONS.failure) return 'failing';
  return undefined;
}
