// The names of the reconciler's Prometheus metrics, with their labels: the one home that the reconciler's registry
// (src/reconciler/metrics.ts, cluster-metrics.ts), the alerts and the dashboard (src/deploy/alerts.ts, dashboard.ts), the docs and
// the tests read. Pure data. Per-Cluster series carry `member_cluster`, the label Karmada v1.18 puts on every
// per-cluster series (pkg/metrics/cluster.go, `memberClusterLabel`; it dropped `cluster_name` in v1.18.0 because
// `cluster` and `cluster_name` collide with Prometheus external labels, karmada #7258), so a PromQL join with
// Karmada's own `cluster_ready_state` needs no label_replace.

export const METRIC_PREFIX = 'cluster_probe_reconciler_';
/** The label every per-Cluster series carries: Karmada's own. */
export const CLUSTER_LABEL = 'member_cluster';
/** The label this project used before (releases up to 0.x with issue 30): see docs/release.md, "Metric labels". */
export const LEGACY_CLUSTER_LABEL = 'cluster_name';

/**
 * Karmada's per-cluster metrics this project reads (karmada-controller-manager, pkg/metrics/cluster.go): the join
 * alerts and panel compare our verdict with them on `member_cluster`.
 */
export const KARMADA_METRICS = Object.freeze({
  /** 1 when the Cluster's Ready condition is True, 0 otherwise (`util.IsClusterReady`). */
  clusterReady: 'cluster_ready_state',
  clusterReadyNodes: 'cluster_ready_node_number',
  clusterNodes: 'cluster_node_number',
} as const);

/**
 * Names Karmada uses or proposes for its own /readyz check (PR #7616, open): none of ours may be one of them, so a
 * Prometheus scraping both never mixes the two checks. Ours all carry METRIC_PREFIX (held by a unit test).
 */
export const KARMADA_RESERVED_NAMES: readonly string[] = Object.freeze([
  ...Object.values(KARMADA_METRICS),
  'cluster_health_probe_success',
  'cluster_health_probe_duration_seconds',
  'cluster_health_probe_total',
  'cluster_health_transitions_total',
  'cluster_ready_since_timestamp_seconds',
  'cluster_condition_last_transition_timestamp_seconds',
]);

/** The fleet-level metrics (one series per label value, whatever the number of Clusters). */
export const FLEET_METRICS = Object.freeze({
  probeResults: `${METRIC_PREFIX}probe_results_total`,
  probeDuration: `${METRIC_PREFIX}probe_duration_seconds`,
  probeLateness: `${METRIC_PREFIX}probe_start_lateness_seconds`,
  transitions: `${METRIC_PREFIX}transitions_total`,
  writes: `${METRIC_PREFIX}writes_total`,
  watchRestarts: `${METRIC_PREFIX}watch_restarts_total`,
  workers: `${METRIC_PREFIX}workers`,
  invalidProbes: `${METRIC_PREFIX}invalid_probes`,
  workersStopped: `${METRIC_PREFIX}workers_stopped_total`,
  clusters: `${METRIC_PREFIX}clusters`,
  leader: `${METRIC_PREFIX}leader`,
  queueDepth: `${METRIC_PREFIX}queue_depth`,
  proberDisrupted: `${METRIC_PREFIX}prober_disrupted`,
  domainState: `${METRIC_PREFIX}failure_domain_state`,
  verdictsWithheld: `${METRIC_PREFIX}verdicts_withheld`,
  sentinelUp: `${METRIC_PREFIX}sentinel_up`,
  /** Requests to the apiserver by method and code (client-go's rest_client_requests_total): a replica's load on it. */
  apiRequests: `${METRIC_PREFIX}api_requests_total`,
  /** Lease sharding (`--sharding lease`, docs/sharding.md): live replicas in this replica's view. */
  shardMembers: `${METRIC_PREFIX}shard_members`,
  /** Clusters this replica probes and writes now. */
  shardOwned: `${METRIC_PREFIX}shard_owned_clusters`,
  /** Clusters some replica of the group should probe (Push, and Pull with --include-pull-clusters), as this one sees. */
  shardAssignable: `${METRIC_PREFIX}shard_assignable_clusters`,
  /** Clusters this replica owns in its view but waits for: another live replica still claims them (the fence). */
  shardFenced: `${METRIC_PREFIX}shard_fenced_clusters`,
  /** Changes of this replica's view of the live replicas (a replica joined, left or expired). */
  shardRebalances: `${METRIC_PREFIX}shard_rebalances_total`,
} as const);

/**
 * The verdict a Cluster holds, as the reconciler wrote it: healthy (Healthy=True), failing (Healthy=False and the
 * taint), error (Unknown, LivenessProbeError), invalid (Unknown, InvalidLivenessProbe), withheld (Unknown, a reason of
 * the disruption guard: the probe fails and the verdict is held back), pending (a probe, no verdict written yet).
 */
export const VERDICTS = ['healthy', 'failing', 'error', 'invalid', 'withheld', 'pending'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** Per-Cluster metrics: gauges and counters only, each with its labels besides member_cluster and its most series. */
export const CLUSTER_METRICS = Object.freeze({
  verdict: {
    name: `${METRIC_PREFIX}cluster_verdict`,
    type: 'gauge',
    labels: ['verdict'],
    series: VERDICTS.length,
    help: `The verdict this Cluster holds, a state set: 1 for the one held, 0 for the others (${VERDICTS.join(', ')}).`,
  },
  probeSuccess: {
    name: `${METRIC_PREFIX}cluster_probe_success`,
    type: 'gauge',
    labels: [],
    series: 1,
    help: 'Result of the latest probe run: 1 success, 0 failure or error.',
  },
  probeDuration: {
    name: `${METRIC_PREFIX}cluster_probe_duration_seconds`,
    type: 'gauge',
    labels: [],
    series: 1,
    help: 'Duration of the latest probe run, in seconds.',
  },
  probes: {
    name: `${METRIC_PREFIX}cluster_probes_total`,
    type: 'counter',
    labels: ['result'],
    series: 3,
    help: 'Probe runs by result (success, failure, error).',
  },
  transitions: {
    name: `${METRIC_PREFIX}cluster_transitions_total`,
    type: 'counter',
    labels: ['to'],
    series: 3,
    help: 'Probe state transitions (a threshold reached) by the new state (success, failure, error).',
  },
  lastTransition: {
    name: `${METRIC_PREFIX}cluster_last_transition_timestamp_seconds`,
    type: 'gauge',
    labels: [],
    series: 1,
    help: "Unix time of the latest transition of the verdict (the Healthy condition's lastTransitionTime until this replica sees one).",
  },
  consecutiveFailures: {
    name: `${METRIC_PREFIX}cluster_consecutive_failures`,
    type: 'gauge',
    labels: [],
    series: 1,
    help: 'Failed probe runs in a row now (0 after a success or an error).',
  },
  failureThreshold: {
    name: `${METRIC_PREFIX}cluster_failure_threshold`,
    type: 'gauge',
    labels: [],
    series: 1,
    help: "The probe's failureThreshold: consecutive failures that make the verdict failing.",
  },
} as const);

/** The most series one Cluster can have (each counter's every label value seen). */
export const MAX_SERIES_PER_CLUSTER = Object.values(CLUSTER_METRICS).reduce((n, m) => n + m.series, 0);
