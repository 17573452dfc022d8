// `cluster-probe reconcile`'s flags turned into the Manager's options, purely: every combination the flags refuse is
// refused here with the flag's name, and nothing is loaded, read or started (the defaults: reconcile-flags.ts). runReconcile (reconcile.ts) adds the kubeconfig, the logger and the metrics.
import { InvalidArgumentError } from 'commander';
import { messageOf } from '@karmada-cluster-probe/schema/api';
import { DEFAULT_DENY_LIST } from '@karmada-cluster-probe/probe/internal/address-guard.js';
import { checkSharding, type ReconcileFlags } from './reconcile-flags.js';
import type { ReconcilerOptions } from '../reconciler/manager.js';
import { parseSentinel } from '../reconciler/sentinels.js';

/** What `reconcile` runs, from its flags: the Manager's options, and what it serves beside them. */
export interface ReconcilePlan {
  /** The Manager's options, but for the kubeconfig, the logger and the metrics, which runReconcile makes. */
  options: Omit<ReconcilerOptions, 'kubeConfig' | 'api' | 'log' | 'metrics'>;
  /** /healthz, /readyz, /metrics. */
  health: { host: string; port: number };
  /** The ClusterProfile producer's namespace, when it runs. */
  profileNamespace?: string;
}

/**
 * The Manager's options from the flags; throws an InvalidArgumentError naming the flag for a combination or value the
 * command refuses. `identity` is the replica's name when --identity is not given (hostname_pid).
 */
export function reconcilerOptionsFromFlags(flags: ReconcileFlags, defaultIdentity: string): ReconcilePlan {
  checkSharding(flags);
  const leaseTimes = {
    leaseDurationMs: flags.leaseDuration * 1000,
    ...(flags.renewDeadline !== undefined ? { renewDeadlineMs: flags.renewDeadline * 1000 } : {}),
    ...(flags.retryPeriod !== undefined ? { retryPeriodMs: flags.retryPeriod * 1000 } : {}),
  };
  if (leaseTimes.renewDeadlineMs !== undefined && leaseTimes.renewDeadlineMs >= leaseTimes.leaseDurationMs)
    throw new InvalidArgumentError(
      `--renew-deadline ${flags.renewDeadline} must be shorter than --lease-duration ${flags.leaseDuration}: a replica must stop writing before the others see its Lease expire`,
    );
  if ((flags.shardIndex === undefined) !== (flags.shardCount === undefined))
    throw new InvalidArgumentError('--shard-index and --shard-count go together');
  if (flags.shardIndex !== undefined && flags.shardCount !== undefined && flags.shardIndex >= flags.shardCount)
    throw new InvalidArgumentError(`--shard-index ${flags.shardIndex} must be below --shard-count ${flags.shardCount}`);
  for (const url of flags.sentinel ?? []) {
    try {
      parseSentinel(
        url,
        { periodSeconds: flags.sentinelPeriod, timeoutSeconds: flags.sentinelTimeout },
        flags.denyCidr ?? DEFAULT_DENY_LIST,
      );
    } catch (err) {
      throw new InvalidArgumentError(`--sentinel ${messageOf(err)}`);
    }
  }
  if (!flags.disruptionGuard && (flags.sentinel ?? []).length > 0)
    throw new InvalidArgumentError('--sentinel needs the disruption guard (--disruption-guard=true)');
  const options: ReconcilePlan['options'] = {
    ...(flags.denyCidr !== undefined ? { denyList: flags.denyCidr } : {}),
    taintEffect: flags.taintEffect,
    identity: flags.identity ?? defaultIdentity,
    disruption: flags.disruptionGuard
      ? {
          mode: flags.failureDomain,
          thresholds: {
            unhealthyDomainThreshold: flags.unhealthyDomainThreshold,
            largeDomainSize: flags.largeDomainSize,
            maxUnhealthy: flags.maxUnhealthy,
          },
          partialDisruptionRate: flags.partialDisruptionRate,
          sentinels: flags.sentinel ?? [],
          sentinelPeriodSeconds: flags.sentinelPeriod,
          sentinelTimeoutSeconds: flags.sentinelTimeout,
        }
      : false,
    probeConcurrency: flags.probeConcurrency,
    writeConcurrency: flags.writeConcurrency,
    resyncMs: flags.resync * 1000,
    qps: flags.kubeApiQps,
    burst: flags.kubeApiBurst,
    ...(flags.clusterName !== undefined ? { clusterName: flags.clusterName } : {}),
    includePullClusters: flags.includePullClusters,
    ...(flags.shardIndex !== undefined && flags.shardCount !== undefined
      ? { shard: { index: flags.shardIndex, count: flags.shardCount } }
      : {}),
    ...(flags.leaderElect
      ? { leaderElection: { namespace: flags.leaseNamespace, name: flags.leaseName, ...leaseTimes } }
      : {}),
    ...(flags.sharding === 'lease'
      ? { sharding: { namespace: flags.leaseNamespace, group: flags.leaseName, ...leaseTimes } }
      : {}),
  };
  return {
    options,
    health: { host: flags.metricsHost, port: flags.metricsPort },
    ...(flags.clusterProfileNamespace !== undefined ? { profileNamespace: flags.clusterProfileNamespace } : {}),
  };
}
