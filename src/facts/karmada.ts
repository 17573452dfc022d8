// Karmada v1.18.2's own names this application reads (its source: ../shared/karmada, pkg/apis and pkg/util/names),
// in one place: the condition its cluster status controller writes, and the namespaces its resource detector and
// namespace sync never propagate from. Pure data.

/** `clusterv1alpha1.ClusterConditionReady`: Karmada's verdict from the member's /readyz. */
export const KARMADA_READY_CONDITION = 'Ready';

/**
 * `names.IsReservedNamespace` (pkg/util/names/names.go): karmada-system, karmada-cluster and the execution spaces
 * karmada-es-*. `ResourceDetector.EventFilter` drops every event there, whatever the PropagationPolicies say.
 */
export function isKarmadaReservedNamespace(namespace: string): boolean {
  return namespace === 'karmada-system' || namespace === 'karmada-cluster' || namespace.startsWith('karmada-es-');
}

/** karmada-controller-manager's default --skipped-propagating-namespaces (an operator can change it). */
export const DEFAULT_SKIPPED_PROPAGATING_NAMESPACES: readonly string[] = Object.freeze(['kube-.*']);
