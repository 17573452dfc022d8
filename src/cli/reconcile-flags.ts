// `cluster-probe reconcile`'s flags: their type, their defaults (each from its one home: the client's rate limit, the
// informer's resync, the Lease's duration, the reconciler's concurrency and names) and the check of --sharding. Light:
// the command's --help loads this, not the reconciler (reconcile-options.ts turns the flags into the Manager's options).
import { InvalidArgumentError } from 'commander';
import { DEFAULT_BURST, DEFAULT_QPS } from '../kube/client.js';
import { DEFAULT_RESYNC_MS } from '../kube/informer.js';
import { DEFAULT_LEASE_DURATION_MS } from '../kube/lease-client.js';
import {
  DEFAULT_LEASE_NAME,
  DEFAULT_LEASE_NAMESPACE,
  DEFAULT_METRICS_HOST,
  DEFAULT_METRICS_PORT,
  DEFAULT_PROBE_CONCURRENCY,
  DEFAULT_WRITE_CONCURRENCY,
} from '../reconciler/defaults.js';
import type { TaintEffectOption } from '../reconciler/desired-state.js';
import type { Ceiling, FailureDomainMode } from '../reconciler/disruption.js';

export const SHARDING_MODES = ['none', 'lease'] as const;
export type ShardingMode = (typeof SHARDING_MODES)[number];

/** The parsed flags of `cluster-probe reconcile`. */
export interface ReconcileFlags {
  kubeconfig?: string;
  taintEffect: TaintEffectOption;
  leaderElect: boolean;
  leaseNamespace: string;
  leaseName: string;
  leaseDuration: number;
  renewDeadline?: number;
  retryPeriod?: number;
  identity?: string;
  clusterName?: string;
  includePullClusters: boolean;
  shardIndex?: number;
  shardCount?: number;
  sharding: ShardingMode;
  metricsPort: number;
  metricsHost: string;
  probeConcurrency: number;
  writeConcurrency: number;
  resync: number;
  kubeApiQps: number;
  kubeApiBurst: number;
  logLevel: string;
  denyCidr?: string[];
  disruptionGuard: boolean;
  failureDomain: FailureDomainMode;
  unhealthyDomainThreshold: number;
  largeDomainSize: number;
  partialDisruptionRate: number;
  maxUnhealthy: Ceiling;
  sentinel?: string[];
  sentinelPeriod: number;
  sentinelTimeout: number;
  clusterProfileNamespace?: string;
}

/** The flags' defaults, in the flags' own units (seconds), each from its one home. */
export const FLAG_DEFAULTS = {
  leaseNamespace: DEFAULT_LEASE_NAMESPACE,
  leaseName: DEFAULT_LEASE_NAME,
  leaseDuration: DEFAULT_LEASE_DURATION_MS / 1000,
  metricsPort: DEFAULT_METRICS_PORT,
  metricsHost: DEFAULT_METRICS_HOST,
  probeConcurrency: DEFAULT_PROBE_CONCURRENCY,
  writeConcurrency: DEFAULT_WRITE_CONCURRENCY,
  resync: DEFAULT_RESYNC_MS / 1000,
  kubeApiQps: DEFAULT_QPS,
  kubeApiBurst: DEFAULT_BURST,
} as const;

/** The flags --sharding lease cannot go with: every replica is active, and the Leases decide who owns what. */
export function checkSharding(flags: {
  sharding: ShardingMode;
  leaderElect?: boolean;
  shardIndex?: number;
  shardCount?: number;
  clusterName?: string;
}): void {
  if (flags.sharding !== 'lease') return;
  const why: [boolean, string, string][] = [
    [flags.leaderElect === true, '--leader-elect', 'every replica is active with Lease sharding; no leader is elected'],
    [
      flags.shardIndex !== undefined,
      '--shard-index',
      'the member Leases assign the Clusters; there are no static shards',
    ],
    [
      flags.shardCount !== undefined,
      '--shard-count',
      'the member Leases assign the Clusters; there are no static shards',
    ],
    [flags.clusterName !== undefined, '--cluster-name', 'a Pull-mode agent probes its one Cluster alone'],
  ];
  for (const [given, flag, reason] of why)
    if (given) throw new InvalidArgumentError(`--sharding lease and ${flag} do not go together: ${reason}`);
}
