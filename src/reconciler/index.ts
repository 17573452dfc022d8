// The reconciler's public surface (the package's `./reconciler` export): probe every Cluster and turn transitions into
// the Healthy condition, an Event and the unhealthy taint. Imports the schema package, the probe engine and src/kube (the generic
// Kubernetes layer, whose client, informer, queue, leader election and health server are re-exported here for the
// users of this subpath), never webhook or cli.
export {
  Manager,
  Reconciler,
  leaseNameFor,
  type ReconcilerOptions,
  type ReconcilerLog,
  type LeaderElectionOptions,
  type LeaseShardingOptions,
  type Runnable,
} from './manager.js';
export {
  ClusterController,
  ClusterManager,
  type ControllerOptions,
  type ManagerOptions,
} from './cluster-controller.js';
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
export {
  invalidProbeMessage,
  describeFieldError,
  MAX_INVALID_MESSAGE,
} from '@karmada-cluster-probe/schema/internal/schema/invalid-probe-message.js';
export {
  probeSourceOf,
  type ProbeSource,
  type ProbeSourceKind,
  type ProbeSourceOptions,
} from '@karmada-cluster-probe/schema/internal/schema/probe-source.js';
export { memberTrustOf, withMemberTrust, type MemberTrust } from './member-ca.js';
// Lease sharding is used through the Manager's `sharding` option; its parts (shard.ts, ../kube/membership.ts) stay
// internal, so that the published surface does not pin them.
export { shardOf, ownsCluster, type Shard } from './shard.js';
export { SecretStore } from './secret-store.js';
export { createMetrics, writeExposition, type ReconcilerMetrics, type ShardFigures } from './metrics.js';
export {
  Informer,
  KubeClient,
  KubeApiError,
  LeaderElector,
  WorkQueue,
  isStatus,
  loadKubeConfig,
  startHealthServer,
  type HealthServer,
  type HealthServerOptions,
  type InformerHandlers,
  type InformerOptions,
  type KubeApi,
  type LeaderElectorOptions,
  type WatchEvent,
} from '../kube/index.js';
