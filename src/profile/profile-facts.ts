// The Cluster Inventory API's names (sigs.k8s.io/cluster-inventory-api, apis/v1alpha1/clusterprofile_types.go) and
// this project's choices as a ClusterProfile producer: the one home the controller, the CLI, the chart test and the
// docs (docs/cluster-profile.md) read. Pure data.
import { DEFAULT_SKIPPED_PROPAGATING_NAMESPACES, isKarmadaReservedNamespace } from '../facts/karmada.js';

/** The pinned upstream module the CRD comes from (its go.sum line; `go mod download` checks it against sum.golang.org). */
export const CLUSTER_INVENTORY_MODULE = Object.freeze({
  path: 'sigs.k8s.io/cluster-inventory-api',
  version: 'v0.1.3',
  sum: 'h1:E7GY85hOIIPdALNdTO9Cbs2PXqjotWq6afe/NTwgCJo=',
  /** The CRD's path inside the module. */
  crd: 'config/crd/bases/multicluster.x-k8s.io_clusterprofiles.yaml',
});
/** Where the chart carries that file, byte for byte (test/unit/profile/crd-pin.test.ts holds it to the module's). */
export const CHART_CRD_FILE = 'charts/karmada-cluster-probe/files/multicluster.x-k8s.io_clusterprofiles.yaml';

export const PROFILE_GROUP = 'multicluster.x-k8s.io';
export const PROFILE_VERSION = 'v1alpha1';
export const PROFILE_API_VERSION = `${PROFILE_GROUP}/${PROFILE_VERSION}`;
export const PROFILE_KIND = 'ClusterProfile';
export const PROFILE_PLURAL = 'clusterprofiles';

/** `LabelClusterManagerKey`: its value must equal spec.clusterManager.name. */
export const CLUSTER_MANAGER_LABEL = 'x-k8s.io/cluster-manager';
/** The cluster manager these profiles describe: Karmada manages the members; we only publish its view. */
export const CLUSTER_MANAGER_NAME = 'karmada';
export { KARMADA_READY_CONDITION } from '../facts/karmada.js';
/** `ClusterConditionControlPlaneHealthy`: multicluster-runtime engages a cluster only while it is True. */
export const CONTROL_PLANE_HEALTHY = 'ControlPlaneHealthy';
/** Our own condition, domain-prefixed as metav1.Condition allows: the probe's result and message as the Cluster has it. */
export const PROBE_CONDITION = 'cluster-probe.karmada.io/LivenessProbe';

/** What marks a profile this producer created (and may delete); any other profile of the same name is another's. */
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const MANAGED_BY = 'karmada-cluster-probe';
/** The server-side apply field manager of every write. */
export const FIELD_MANAGER = 'karmada-cluster-probe';

/**
 * The default namespace: karmada-cluster, one of the namespaces Karmada reserves (`names.IsReservedNamespace` in
 * Karmada's pkg/util/names): its ResourceDetector drops every event there before any PropagationPolicy is matched,
 * and its namespace sync never copies it to members, so no profile can be propagated (docs/cluster-profile.md).
 */
export const DEFAULT_PROFILE_NAMESPACE = 'karmada-cluster';

/**
 * Whether Karmada v1.18 itself keeps objects of this namespace from being propagated, whatever the policies:
 * reserved (karmada-system, karmada-cluster, karmada-es-*), or kube-* (the default --skipped-propagating-namespaces,
 * which an operator can change).
 */
export function propagationSkipped(namespace: string): 'reserved' | 'default-skip' | undefined {
  if (isKarmadaReservedNamespace(namespace)) return 'reserved';
  // As Karmada compiles each --skipped-propagating-namespaces expression: `^%s$` (SkippedNamespacesRegexps).
  if (DEFAULT_SKIPPED_PROPAGATING_NAMESPACES.some((re) => new RegExp(`^${re}$`).test(namespace))) return 'default-skip';
  return undefined;
}

/** metav1.Condition's limits: reason pattern and length, message length (apimachinery's validation). */
export const CONDITION_REASON = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;
export const MAX_REASON_LENGTH = 1024;
export const MAX_MESSAGE_LENGTH = 32768;
