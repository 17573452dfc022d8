// The reconciler's own defaults, each written once: the controller and the probe workers read them when an option is
// absent, `cluster-probe reconcile` shows them as its flags' defaults (docs/reconciler.md explains each figure).
// Imports nothing, so that a command's --help can name them without loading the reconciler.

/** Most probes in flight at once. */
export const DEFAULT_PROBE_CONCURRENCY = 256;

/**
 * Most Clusters reconciled at once by default. A reconcile that changes a verdict makes 3 requests one after another
 * (taint, condition, Event); at 50 transitions a second (10% of 5,000 Clusters within a period of 10 s) and a few tens
 * of ms per request under that load, 16 slots were all busy and taints waited for one. See docs/reconciler.md.
 */
export const DEFAULT_WRITE_CONCURRENCY = 64;

/** Where the Lease lives (leader election, or every member Lease with Lease sharding): Karmada's own namespace. */
export const DEFAULT_LEASE_NAMESPACE = 'karmada-system';

/** The Lease's name (the shard or Pull-mode Cluster appended), or the Lease sharding group's. */
export const DEFAULT_LEASE_NAME = 'cluster-probe-reconciler';

/** Port and address of /healthz, /readyz and /metrics. */
export const DEFAULT_METRICS_PORT = 8080;
export const DEFAULT_METRICS_HOST = '127.0.0.1';
