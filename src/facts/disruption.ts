// The disruption guard's facts: the condition reasons of a verdict it withholds, and the defaults of its thresholds,
// adapted from Kubernetes' node lifecycle controller and Cluster API's MachineHealthCheck (docs/reconciler.md,
// "When the prober is the thing that broke"). One home: the reconciler, its CLI flags, the chart and the docs read them
// here. Pure data.

/**
 * Healthy=Unknown reasons of a failure verdict the guard withholds. Each is one the reconciler owns: it resumes from it
 * after a restart and removes the condition only if one of its own reasons is on it.
 */
export const WITHHELD_REASONS = Object.freeze({
  /** Every Cluster this replica judges fails at once (from two up), or a sentinel fails: the prober is suspect. */
  proberDisrupted: 'ProberDisrupted',
  /** More Clusters would be failing than --max-unhealthy allows (MachineHealthCheck's reason). */
  tooManyUnhealthy: 'TooManyUnhealthy',
  /** A partially disrupted failure domain: new evicting verdicts wait for the domain's rate (or none, if small). */
  domainPartiallyDisrupted: 'DomainPartiallyDisrupted',
} as const);
export type WithheldReason = (typeof WITHHELD_REASONS)[keyof typeof WITHHELD_REASONS];

export const DISRUPTION_DEFAULTS = Object.freeze({
  /** On unless `--disruption-guard=false`: a fresh install is protected without reading the docs. */
  enabled: true,
  /** Karmada's spec.region, then spec.zones (spec.zone); `label=KEY` and `none` are the other choices. */
  failureDomain: 'topology',
  /**
   * A domain is partially disrupted when at least this share of its judged Clusters fail (node lifecycle
   * controller's --unhealthy-zone-threshold; Karmada PR #6777 used the same 0.55).
   */
  unhealthyDomainThreshold: 0.55,
  /**
   * ... and more than this many fail (node lifecycle's `notReadyNodes > 2`): two failing clusters out of three is not
   * yet a disrupted domain, it is two verdicts.
   */
  partialMinFailing: 2,
  /**
   * A domain of fewer judged Clusters than this is small: partially disrupted, it gets no new evicting verdict at all
   * (node lifecycle: --large-cluster-size-threshold 50 nodes; fleets of clusters are smaller, PR #6777 used 10).
   */
  largeDomainSize: 10,
  /**
   * New evicting verdicts per second in a large, partially disrupted domain (node lifecycle's
   * --secondary-node-eviction-rate 0.01/s: one a 100 s).
   */
  partialDisruptionRate: 0.01,
  /**
   * MachineHealthCheck's unhealthyLessThanOrEqualTo, as a share of the Clusters judged fleet-wide (a count when not a
   * percentage): more failing than this holds every new failure verdict. 55% lets one of two equal regions go.
   */
  maxUnhealthy: '55%',
  /** Self-blame needs at least this many judged Clusters all failing: one failing Cluster is a verdict, not a pattern. */
  minClustersForSelfBlame: 2,
  /** Sentinels (`--sentinel`) are probed this often, with this timeout (seconds). */
  sentinelPeriodSeconds: 5,
  sentinelTimeoutSeconds: 2,
  /**
   * One failed sentinel probe holds new verdicts; this many in a row confirm it is down, and verdicts written before
   * are lifted (one lost packet must not untaint a fleet).
   */
  sentinelFailureThreshold: 2,
});
