// The reconciler's public surface (the package's `./reconciler` export): probe every Cluster and turn transitions into
// the Healthy condition, an Event and the unhealthy taint. Imports src/schema and src/probe, never webhook or cli.
export {
  Reconciler,
  loadKubeConfig,
  leaseNameFor,
  type ReconcilerOptions,
  type ReconcilerLog,
  type LeaderElectionOptions,
} from './reconciler.js';
export { ClusterManager, type ManagerOptions } from './manager.js';
export { ClusterWriter, CLUSTERS_PATH, FIELD_MANAGER, type WriteOutcome } from './cluster-writer.js';
export {
  HEALTHY_CONDITION,
  INVALID_PROBE_REASON,
  REASONS,
  TAINT_EFFECTS,
  conditionFor,
  eventFor,
  planCluster,
  planConditions,
  planTaints,
  stateFromConditions,
  wantsTaint,
  type Desired,
  type StatusChange,
  type StatusPlan,
  type TaintEffectOption,
} from './desired-state.js';
export { probeSourceOf, type ProbeSource, type ProbeSourceKind, type ProbeSourceOptions } from './probe-source.js';
export { memberTrustOf, withMemberTrust, type MemberTrust } from './member-ca.js';
export { invalidProbeMessage, describeFieldError, MAX_INVALID_MESSAGE } from './invalid-probe.js';
export { fnv1a32, shardOf, ownsCluster, type Shard } from './shard.js';
export { Informer, type InformerOptions, type InformerHandlers } from './informer.js';
export { KubeClient, KubeApiError, RateLimiter, isStatus, type KubeApi, type WatchEvent } from './kube-client.js';
export { LeaderElector, microTime, type LeaderElectorOptions } from './leader-election.js';
export { SecretStore } from './secret-store.js';
export { WorkQueue } from './work-queue.js';
export { createMetrics, type ReconcilerMetrics } from './metrics.js';
export { startHealthServer, type HealthServer, type HealthServerOptions } from './health-server.js';
