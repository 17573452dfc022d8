// The generic Kubernetes layer: a REST client with watches and a prioritised client-side rate limit, a list+watch
// informer, a keyed work queue, Lease leader election and Lease group membership, a Secret cache keeping only named keys, the /healthz, /readyz,
// /metrics server of a controller, and kubeconfig loading. Knows no Karmada resource; imports no other layer of
// src/ (the reconciler and the CLI build on it).
export {
  KubeClient,
  KubeApiError,
  isStatus,
  isResourceVersionConflict,
  lostResourceVersionRace,
  DEFAULT_QPS,
  DEFAULT_BURST,
  withPriority,
  MAX_WATCH_EVENT_BYTES,
  MAX_RESPONSE_BYTES,
  type KubeApi,
  type KubeClientOptions,
  type RequestOptionsIn,
  type WatchEvent,
} from './client.js';
export { RateLimiter, type RequestPriority } from './rate-limiter.js';
export { Informer, type InformerOptions, type InformerHandlers, type ObjectWithMeta } from './informer.js';
export { WorkQueue, type QueuePriority, type WorkQueueOptions } from './work-queue.js';
export { RealClock, type Clock, type TimerHandle } from '@karmada-cluster-probe/schema/api';
export { clockTimeout } from './clock-timeout.js';
export { LeaderElector, microTime, type LeaderElectorOptions, type LeaderElectionLog } from './leader-election.js';
export {
  LeaseMembership,
  SHARD_GROUP_LABEL,
  SHARD_VIEW_ANNOTATION,
  groupLabelValue,
  memberLeaseName,
  type LeaseMembershipOptions,
  type MemberLease,
  type MembershipLog,
} from './membership.js';
export { SecretCache, type SecretCacheOptions, type SecretLookup, type SecretObject } from './secret-cache.js';
export { startHealthServer, type HealthServer, type HealthServerOptions } from './health-server.js';
export { loadKubeConfig } from './kubeconfig.js';
