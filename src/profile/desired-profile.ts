// What a Karmada Cluster's ClusterProfile should say, and the writes that get it there: pure (no I/O, `now` handed
// in), so every rule is tested without an apiserver. Reads only what the reconciler wrote on the Cluster (our
// Healthy condition) and what Karmada wrote (its Ready condition, status.kubernetesVersion).
import type { Condition } from '@karmada-cluster-probe/schema';
import { API_VERSION as CLUSTER_API_VERSION, KIND as CLUSTER_KIND } from '@karmada-cluster-probe/schema/api';
import { WITHHELD_REASONS } from '../facts/disruption.js';
import { HEALTHY_CONDITION } from '../facts/conditions.js';
import {
  CLUSTER_MANAGER_LABEL,
  CLUSTER_MANAGER_NAME,
  CONDITION_REASON,
  CONTROL_PLANE_HEALTHY,
  KARMADA_READY_CONDITION,
  MANAGED_BY,
  MANAGED_BY_LABEL,
  MAX_MESSAGE_LENGTH,
  MAX_REASON_LENGTH,
  PROBE_CONDITION,
  PROFILE_API_VERSION,
  PROFILE_KIND,
} from './profile-facts.js';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface ProfileCondition {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
  lastTransitionTime: string;
}

export interface ClusterProfile {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
    ownerReferences?: OwnerReference[];
    resourceVersion?: string;
    uid?: string;
  };
  spec?: { displayName?: string; clusterManager?: { name?: string } };
  status?: { conditions?: ProfileCondition[]; version?: { kubernetes?: string } };
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
}

/** The little of a Karmada Cluster a profile is made from (what the controller's informer keeps). */
export interface ClusterView {
  name: string;
  /** The Cluster's uid: our profile's owner reference, so a garbage collector removes it with the Cluster. */
  uid?: string;
  /** Our Healthy condition, as the reconciler wrote it. */
  healthy?: Condition;
  /** Karmada's Ready condition, as its cluster status controller wrote it. */
  ready?: Condition;
  kubernetesVersion?: string;
}

interface Verdict {
  status: ConditionStatus;
  reason: string;
  message: string;
}

const WITHHELD: ReadonlySet<string> = new Set(Object.values(WITHHELD_REASONS));

/** A reason metav1.Condition accepts, or the fallback. */
function reasonOr(reason: string | undefined, fallback: string): string {
  return reason !== undefined && reason.length <= MAX_REASON_LENGTH && CONDITION_REASON.test(reason)
    ? reason
    : fallback;
}

function bounded(message: string | undefined): string {
  const m = message ?? '';
  return m.length <= MAX_MESSAGE_LENGTH ? m : `${m.slice(0, MAX_MESSAGE_LENGTH - 1)}…`;
}

function statusOf(c: Condition | undefined): ConditionStatus | undefined {
  return c?.status === 'True' || c?.status === 'False' || c?.status === 'Unknown' ? c.status : undefined;
}

/**
 * ControlPlaneHealthy from Karmada's Ready and our Healthy, first rule that holds (docs/cluster-profile.md):
 * 1. Karmada's Ready False: False (KarmadaNotReady): Karmada cannot reach the member or its /readyz fails; whatever
 *    our probe says, Karmada will not sync work there.
 * 2. our Healthy False: False (LivenessProbeFailed): the apiserver answers but the member cannot run work.
 * 3. our Healthy Unknown for a reason of the disruption guard (ProberDisrupted, TooManyUnhealthy,
 *    DomainPartiallyDisrupted): Unknown with that reason, never False: the prober itself is suspect.
 * 4. Karmada's Ready Unknown or absent: Unknown (KarmadaReadyUnknown).
 * 5. otherwise True: reason Healthy when our probe says so, KarmadaReady when no verdict of ours stands (no probe, a
 *    probe that cannot run or is invalid, none yet): Karmada's own check is then the only one.
 */
export function controlPlaneHealthy(view: ClusterView): Verdict {
  const ready = statusOf(view.ready);
  const healthy = statusOf(view.healthy);
  if (ready === 'False')
    return {
      status: 'False',
      reason: 'KarmadaNotReady',
      message: `Karmada's Ready is False: ${view.ready?.message ?? ''}`.trim(),
    };
  if (healthy === 'False')
    return { status: 'False', reason: 'LivenessProbeFailed', message: bounded(view.healthy?.message) };
  if (healthy === 'Unknown' && WITHHELD.has(view.healthy?.reason ?? ''))
    return {
      status: 'Unknown',
      reason: view.healthy!.reason!,
      message: bounded(`the prober's verdict is withheld: ${view.healthy?.message ?? ''}`),
    };
  if (ready !== 'True')
    return {
      status: 'Unknown',
      reason: 'KarmadaReadyUnknown',
      message: ready === undefined ? 'Karmada has not reported Ready yet' : bounded(view.ready?.message),
    };
  if (healthy === 'True')
    return { status: 'True', reason: 'Healthy', message: "Karmada's Ready is True and the liveness probe succeeds" };
  return {
    status: 'True',
    reason: 'KarmadaReady',
    message: "Karmada's Ready is True; no liveness probe verdict (none configured, or it cannot run)",
  };
}

/** Our own condition: the probe's result and message as the Cluster's Healthy condition has them. */
export function probeVerdict(view: ClusterView): Verdict {
  const healthy = statusOf(view.healthy);
  if (healthy === undefined)
    return { status: 'Unknown', reason: 'NoLivenessProbe', message: 'no liveness probe verdict on the Cluster' };
  return {
    status: healthy,
    reason: reasonOr(view.healthy?.reason, 'LivenessProbe'),
    message: bounded(view.healthy?.message),
  };
}

function condition(
  type: string,
  v: Verdict,
  previous: ProfileCondition | undefined,
  changedAt: string,
): ProfileCondition {
  const lastTransitionTime =
    previous !== undefined && previous.status === v.status && previous.lastTransitionTime
      ? previous.lastTransitionTime
      : changedAt;
  return { type, status: v.status, reason: v.reason, message: v.message, lastTransitionTime };
}

const same = (a: ProfileCondition | undefined, b: ProfileCondition): boolean =>
  a !== undefined && a.status === b.status && a.reason === b.reason && a.message === b.message;

/** Whether this profile is one this producer made (and may rewrite and delete). */
export function isOurs(profile: ClusterProfile): boolean {
  return profile.metadata?.labels?.[MANAGED_BY_LABEL] === MANAGED_BY;
}

/** The server-side apply bodies to send, each only when what it says differs from what is stored. */
export interface ProfileWrites {
  /** Apply of metadata.labels and spec (creates the object). */
  object?: ClusterProfile;
  /** Apply on the status subresource. */
  status?: ClusterProfile;
}

function skeleton(name: string, namespace: string): ClusterProfile {
  return { apiVersion: PROFILE_API_VERSION, kind: PROFILE_KIND, metadata: { name, namespace } };
}

/**
 * The writes that bring the profile of `view` in `namespace` to what it should say. `existing`: the stored profile of
 * that name, if any. Ours (or none yet): labels, spec and both conditions and the version. Another manager's: only
 * our condition, applied by our field manager so its own fields stay its.
 */
export function planProfile(
  view: ClusterView,
  namespace: string,
  existing: ClusterProfile | undefined,
  now: Date,
): ProfileWrites {
  const at = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const stored = existing?.status?.conditions ?? [];
  const find = (type: string): ProfileCondition | undefined => stored.find((c) => c.type === type);
  const probeAt = view.healthy?.lastTransitionTime ?? at;
  const probe = condition(PROBE_CONDITION, probeVerdict(view), find(PROBE_CONDITION), probeAt);
  if (existing !== undefined && !isOurs(existing)) {
    if (same(find(PROBE_CONDITION), probe)) return {};
    return { status: { ...skeleton(view.name, namespace), status: { conditions: [probe] } } };
  }
  const writes: ProfileWrites = {};
  const labels = { [CLUSTER_MANAGER_LABEL]: CLUSTER_MANAGER_NAME, [MANAGED_BY_LABEL]: MANAGED_BY };
  const labelsHeld = Object.entries(labels).every(([k, v]) => existing?.metadata?.labels?.[k] === v);
  // kube-controller-manager's garbage collector follows it across the aggregated API (checked against v1.35.4's:
  // docs/cluster-profile.md), so the profile goes with its Cluster even while no producer runs.
  const owner: OwnerReference | undefined =
    view.uid !== undefined && view.uid !== ''
      ? { apiVersion: CLUSTER_API_VERSION, kind: CLUSTER_KIND, name: view.name, uid: view.uid }
      : undefined;
  const ownerHeld = owner === undefined || (existing?.metadata?.ownerReferences ?? []).some((o) => o.uid === owner.uid);
  if (
    existing === undefined ||
    !labelsHeld ||
    !ownerHeld ||
    existing.spec?.clusterManager?.name !== CLUSTER_MANAGER_NAME
  )
    writes.object = {
      ...skeleton(view.name, namespace),
      metadata: { name: view.name, namespace, labels, ...(owner !== undefined ? { ownerReferences: [owner] } : {}) },
      spec: { clusterManager: { name: CLUSTER_MANAGER_NAME } },
    };
  const cph = condition(CONTROL_PLANE_HEALTHY, controlPlaneHealthy(view), find(CONTROL_PLANE_HEALTHY), at);
  const version =
    view.kubernetesVersion !== undefined && view.kubernetesVersion !== '' ? view.kubernetesVersion : undefined;
  const versionHeld = (existing?.status?.version?.kubernetes ?? undefined) === version;
  if (
    existing === undefined ||
    !same(find(CONTROL_PLANE_HEALTHY), cph) ||
    !same(find(PROBE_CONDITION), probe) ||
    !versionHeld
  )
    writes.status = {
      ...skeleton(view.name, namespace),
      status: { conditions: [cph, probe], ...(version !== undefined ? { version: { kubernetes: version } } : {}) },
    };
  return writes;
}

/**
 * When the Cluster is gone: delete our profile; on another manager's, withdraw our condition: an apply by our field
 * manager that holds no status field, so server-side apply removes every field it owned and nothing of anyone else's.
 */
export function planRemoval(
  existing: ClusterProfile,
): { kind: 'delete' } | { kind: 'withdraw'; status: ClusterProfile } | undefined {
  if (isOurs(existing)) return { kind: 'delete' };
  if (!(existing.status?.conditions ?? []).some((c) => c.type === PROBE_CONDITION)) return undefined;
  return { kind: 'withdraw', status: skeleton(existing.metadata?.name ?? '', existing.metadata?.namespace ?? '') };
}

/** The Cluster, reduced to what a profile is made of. */
export function viewOf(cluster: {
  metadata?: { name?: string; uid?: string };
  status?: { conditions?: Condition[]; kubernetesVersion?: string };
}): ClusterView {
  const conditions = cluster.status?.conditions ?? [];
  return {
    name: cluster.metadata?.name ?? '',
    uid: cluster.metadata?.uid,
    healthy: conditions.find((c) => c.type === HEALTHY_CONDITION),
    ready: conditions.find((c) => c.type === KARMADA_READY_CONDITION),
    kubernetesVersion: cluster.status?.kubernetesVersion,
  };
}
