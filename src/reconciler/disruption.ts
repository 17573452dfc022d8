// The disruption guard's decisions, pure: the failure domain of a Cluster, the state of a domain and of the fleet from
// the latest raw probe results, and what that state does to one Cluster's failure verdict. After Kubernetes' node
// lifecycle controller (ComputeZoneState, "master disruption mode") and Cluster API's MachineHealthCheck
// (unhealthyLessThanOrEqualTo, TooManyUnhealthy). No I/O, no clock: the caller hands everything in.
import { DISRUPTION_DEFAULTS, WITHHELD_REASONS, type WithheldReason } from '../facts/disruption.js';
import type { Cluster } from '@karmada-cluster-probe/schema';

export type DomainState = 'Normal' | 'PartialDisruption' | 'FullDisruption';

/** How Clusters are grouped: Karmada's topology (region, then zones), the region only, a label, or one domain. */
export type FailureDomainMode =
  { kind: 'topology' } | { kind: 'region' } | { kind: 'label'; key: string } | { kind: 'none' };

/** A count, or a share of the judged Clusters (MachineHealthCheck's int-or-percent). */
export type Ceiling = { kind: 'count'; n: number } | { kind: 'percent'; p: number };

export interface GuardThresholds {
  unhealthyDomainThreshold: number;
  partialMinFailing: number;
  largeDomainSize: number;
  maxUnhealthy: Ceiling;
  minClustersForSelfBlame: number;
}

/** `--max-unhealthy`: `N` or `N%`; throws a message naming the flag's rule. */
export function parseCeiling(value: string): Ceiling {
  const m = /^(\d{1,9})(%?)$/.exec(value.trim());
  if (m === null) throw new Error(`must be a count (such as 5) or a percentage (such as 55%), not "${value}"`);
  const n = Number(m[1]);
  if (m[2] === '%') {
    if (n > 100) throw new Error(`must be a percentage between 0% and 100%, not "${value}"`);
    return { kind: 'percent', p: n };
  }
  return { kind: 'count', n };
}

export function formatCeiling(c: Ceiling): string {
  return c.kind === 'percent' ? `${c.p}%` : String(c.n);
}

export const DEFAULT_THRESHOLDS: GuardThresholds = Object.freeze({
  unhealthyDomainThreshold: DISRUPTION_DEFAULTS.unhealthyDomainThreshold,
  partialMinFailing: DISRUPTION_DEFAULTS.partialMinFailing,
  largeDomainSize: DISRUPTION_DEFAULTS.largeDomainSize,
  maxUnhealthy: parseCeiling(DISRUPTION_DEFAULTS.maxUnhealthy),
  minClustersForSelfBlame: DISRUPTION_DEFAULTS.minClustersForSelfBlame,
});

/** `--failure-domain`: topology, region, label=KEY or none. */
export function parseFailureDomain(value: string): FailureDomainMode {
  if (value === 'topology' || value === 'region' || value === 'none') return { kind: value };
  if (value.startsWith('label=') && value.length > 'label='.length) return { kind: 'label', key: value.slice(6) };
  throw new Error(`must be topology, region, label=KEY or none, not "${value}"`);
}

/** The domain every Cluster without the chosen topology falls into. */
export const DEFAULT_DOMAIN = '';

/** A region or zone name inside a domain key: `%`, `/` and `+` escaped, so that no two topologies share a key. */
function part(name: string): string {
  return name.replace(/[%/+]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The one failure domain of a Cluster. topology: `region/zone`, where zone is spec.zones when it names one zone, the
 * sorted zones joined by `+` when it names several (a Cluster that spans zones A and B fails with both, so it shares a
 * domain only with Clusters that span the same), else the deprecated spec.zone; `region` alone when no zone is set, and
 * the default domain when neither is (`%`, `/` and `+` inside a name are escaped). label=KEY: the label's value (the
 * default domain without it). none: the default domain.
 */
export function failureDomainOf(cluster: Cluster, mode: FailureDomainMode): string {
  if (mode.kind === 'none') return DEFAULT_DOMAIN;
  if (mode.kind === 'label') return cluster.metadata?.labels?.[mode.key] ?? DEFAULT_DOMAIN;
  const spec = cluster.spec ?? ({} as Cluster['spec']);
  const region = typeof spec.region === 'string' ? spec.region : '';
  if (mode.kind === 'region') return region;
  const zones = Array.isArray(spec.zones) ? spec.zones.filter((z): z is string => typeof z === 'string') : [];
  const zone =
    zones.length > 0
      ? [...new Set(zones)].sort().map(part).join('+')
      : typeof spec.zone === 'string'
        ? part(spec.zone)
        : '';
  if (zone === '') return part(region);
  return `${part(region)}/${zone}`;
}

/**
 * A domain's state from its judged Clusters (node lifecycle's ComputeZoneState): FullDisruption when every one fails,
 * PartialDisruption when more than partialMinFailing fail and they are at least unhealthyDomainThreshold of it, else
 * Normal. A domain without a judged Cluster is Normal.
 */
export function domainState(total: number, failing: number, t: GuardThresholds): DomainState {
  if (total > 0 && failing === total) return 'FullDisruption';
  if (failing > t.partialMinFailing && failing / total >= t.unhealthyDomainThreshold) return 'PartialDisruption';
  return 'Normal';
}

/**
 * How many failing Clusters the ceiling allows out of `total` judged: a percentage rounds down, as MHC's, but never
 * below one (55% of one Cluster is none, and one failing Cluster is a verdict, not a pattern). A count of 0 holds all.
 */
export function ceilingOf(c: Ceiling, total: number): number {
  return c.kind === 'count' ? c.n : Math.max(1, Math.floor((c.p * total) / 100));
}

/** A judged Cluster: a result of success or failure that is not stale. */
export interface Judged {
  domain: string;
  /** Its latest raw result failed. */
  failing: boolean;
  /** ... and it has crossed its failureThreshold (its failure is a verdict, not one result). */
  confirmed?: boolean;
}

/** Clusters other replicas judge in one failure domain, counted as they change (the guard's observeOther). */
export interface DomainCount {
  total: number;
  failing: number;
}

/** A sentinel's latest raw result, and whether it failed its threshold in a row. */
export interface SentinelState {
  name: string;
  failing: boolean;
  confirmed: boolean;
}

export interface DomainSummary {
  state: DomainState;
  total: number;
  failing: number;
  large: boolean;
}

export interface FleetAssessment {
  /**
   * The prober blames itself: every Cluster it judges fails (from minClustersForSelfBlame up) by its latest raw result,
   * or a sentinel's latest result failed. New verdicts are withheld.
   */
  proberDisrupted: boolean;
  /**
   * ... and it is confirmed: every one of them has crossed its failureThreshold, or a sentinel failed its threshold in
   * a row. Only then are verdicts written before lifted: one failed probe of a healthy Cluster is not a disruption.
   */
  lifting: boolean;
  /** Why, for the condition message and the log. */
  why: string;
  domains: ReadonlyMap<string, DomainSummary>;
  /** This replica's own judged Clusters and how many of them fail. */
  own: { total: number; failing: number };
  /** Judged fleet-wide (this replica's results, other shards' conditions) and failing, against the ceiling. */
  fleet: { total: number; failing: number; allowed: number };
  overCeiling: boolean;
}

/**
 * The fleet as this replica sees it. `own`: the Clusters it probes, by their latest raw result. `others`: Clusters
 * other replicas judge (another shard's, a Pull agent's), by the Healthy condition they wrote; they count in domains and
 * against the ceiling, never toward self-blame, which is about this replica's own vantage point.
 */
export function assessFleet(
  own: readonly Judged[],
  others: readonly Judged[] | ReadonlyMap<string, DomainCount>,
  sentinels: readonly SentinelState[],
  t: GuardThresholds,
): FleetAssessment {
  const domains = new Map<string, DomainSummary>();
  let ownFailing = 0;
  let ownConfirmed = 0;
  let fleetFailing = 0;
  let othersTotal = 0;
  const add = (domain: string, total: number, failing: number): void => {
    let d = domains.get(domain);
    if (d === undefined) {
      d = { state: 'Normal', total: 0, failing: 0, large: false };
      domains.set(domain, d);
    }
    d.total += total;
    d.failing += failing;
    fleetFailing += failing;
  };
  for (const j of own) {
    add(j.domain, 1, j.failing ? 1 : 0);
    if (j.failing) ownFailing++;
    if (j.failing && j.confirmed === true) ownConfirmed++;
  }
  if (Array.isArray(others))
    for (const j of others as readonly Judged[]) {
      add(j.domain, 1, j.failing ? 1 : 0);
      othersTotal++;
    }
  else
    for (const [domain, c] of others as ReadonlyMap<string, DomainCount>) {
      if (c.total === 0) continue;
      add(domain, c.total, c.failing);
      othersTotal += c.total;
    }
  for (const d of domains.values()) {
    d.state = domainState(d.total, d.failing, t);
    d.large = d.total >= t.largeDomainSize;
  }
  const total = own.length + othersTotal;
  const allowed = ceilingOf(t.maxUnhealthy, total);
  const failingSentinels = sentinels.filter((x) => x.failing);
  const enough = own.length >= t.minClustersForSelfBlame;
  let proberDisrupted = false;
  let lifting = false;
  let why = '';
  if (failingSentinels.length > 0) {
    proberDisrupted = true;
    lifting = failingSentinels.some((x) => x.confirmed);
    why = `sentinel ${failingSentinels.map((x) => x.name).join(', ')} failing`;
  } else if (enough && ownFailing === own.length) {
    proberDisrupted = true;
    lifting = ownConfirmed === own.length;
    why = `all ${own.length} Clusters this prober judges are failing at once`;
  }
  return {
    proberDisrupted,
    lifting,
    why,
    domains,
    own: { total: own.length, failing: ownFailing },
    fleet: { total, failing: fleetFailing, allowed },
    overCeiling: fleetFailing > allowed,
  };
}

/** What the guard does to one Cluster whose probe says failure. */
export type GuardDecision =
  | { kind: 'verdict' }
  /** Not yet: wait for fresh results (the rest of the fleet, or a fresh run after recovery). Nothing is written. */
  | { kind: 'wait'; why: string }
  | { kind: 'withhold'; reason: WithheldReason; message: string };

export interface ClusterView {
  domain: string;
  /** The Cluster carries our failure verdict already (Healthy=False, LivenessProbeFailed): not a new one. */
  judgedFailing: boolean;
  /** failureThreshold failures in a row since the last recovery of the prober (a fresh start after it). */
  freshRun: boolean;
  /** Every other Cluster judged here has a result from after this Cluster's run of failures began. */
  settled: boolean;
  /** The verdict would evict (NoExecute, or condition-only mode where a ClusterTaintPolicy may make it NoExecute). */
  evicting: boolean;
}

/**
 * The decision for one failing Cluster, in order: the prober blamed (withhold new verdicts; lift written ones once the
 * disruption is confirmed); a verdict it already carries (keep); a fresh start after the prober recovered, and the rest
 * of the fleet heard from (wait); a non-evicting verdict in a fully failed domain while Clusters elsewhere answer (at
 * once: a zone that is really gone is avoided, whatever the ceiling); the ceiling (withhold new ones); a partially
 * disrupted domain (evicting verdicts at the domain's rate, none if small); else the verdict. `takeToken` is asked
 * only when the rate decides, and consumes one.
 */
export function decide(a: FleetAssessment, c: ClusterView, takeToken: () => boolean): GuardDecision {
  if (a.proberDisrupted && !(c.judgedFailing && !a.lifting))
    return {
      kind: 'withhold',
      reason: WITHHELD_REASONS.proberDisrupted,
      message: `verdict withheld: the prober itself is suspect (${a.why}: ${a.own.failing} of ${a.own.total} failing); no taint until it recovers`,
    };
  if (c.judgedFailing) return { kind: 'verdict' };
  if (!c.freshRun) return { kind: 'wait', why: 'a fresh run of failures after the prober recovered' };
  if (!c.settled) return { kind: 'wait', why: 'a result from every other Cluster since this one began failing' };
  const d = a.domains.get(c.domain);
  if (d !== undefined && d.state === 'FullDisruption' && !c.evicting && a.fleet.failing < a.fleet.total)
    return { kind: 'verdict' };
  if (a.overCeiling)
    return {
      kind: 'withhold',
      reason: WITHHELD_REASONS.tooManyUnhealthy,
      message: `verdict withheld: ${a.fleet.failing} of ${a.fleet.total} Clusters are failing, more than --max-unhealthy allows (${a.fleet.allowed})`,
    };
  if (d !== undefined && d.state === 'PartialDisruption' && c.evicting) {
    const label = domainLabel(c.domain);
    if (!d.large)
      return {
        kind: 'withhold',
        reason: WITHHELD_REASONS.domainPartiallyDisrupted,
        message: `verdict withheld: failure domain ${label} is partially disrupted (${d.failing} of ${d.total} failing) and small (fewer judged Clusters than --large-domain-size): no evicting verdict there`,
      };
    if (!takeToken())
      return {
        kind: 'withhold',
        reason: WITHHELD_REASONS.domainPartiallyDisrupted,
        message: `verdict withheld: failure domain ${label} is partially disrupted (${d.failing} of ${d.total} failing): evicting verdicts go at the domain's rate`,
      };
  }
  return { kind: 'verdict' };
}

/** Longest domain name shown in a metric label, a message or a log line; longer ones are cut and given a hash. */
export const MAX_DOMAIN_LABEL = 63;

/** How a domain is named in messages and metrics: `(none)` for the default one, bounded (a hash keeps it unique). */
export function domainLabel(domain: string): string {
  if (domain === DEFAULT_DOMAIN) return '(none)';
  if (domain.length <= MAX_DOMAIN_LABEL) return domain;
  // FNV-1a 32 of the UTF-16 units: short, stable, enough to tell two long names apart in one fleet.
  let h = 0x811c9dc5;
  for (let i = 0; i < domain.length; i++) h = Math.imul(h ^ domain.charCodeAt(i), 0x01000193) >>> 0;
  const hash = h.toString(16).padStart(8, '0');
  let head = domain.slice(0, MAX_DOMAIN_LABEL - 10);
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  return `${head}~${hash}`;
}
