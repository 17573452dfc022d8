// The reconciler's Kubernetes objects (ServiceAccount, token Secret, RBAC, Deployment) and Karmada's
// ClusterTaintPolicy for the condition-only mode, rendered from code like the webhook's, so manifests/reconciler/,
// manifests/host/ and manifests/karmada-apiserver/ share one RBAC and one Deployment. Pure; imports no reconciler code
// (the arrows forbid it): the condition type is the one in src/facts the reconciler writes.
import { GROUP, PLURAL, UNHEALTHY_TAINT_KEY } from '@karmada-cluster-probe/schema';
import { HEALTHY_CONDITION } from '../facts/conditions.js';

export const RECONCILER_NAME = 'cluster-probe-reconciler';
/** The reconciler's status condition type (src/facts's HEALTHY_CONDITION, under the name this module exports). */
export const HEALTHY_CONDITION_TYPE = HEALTHY_CONDITION;
/** Host cluster Secret with a kubeconfig for karmada-apiserver, mounted as Karmada's own components mount theirs. */
export const KARMADA_KUBECONFIG_SECRET = 'karmada-kubeconfig';
export const KARMADA_KUBECONFIG_KEY = 'karmada.config';
export const KARMADA_KUBECONFIG_DIR = '/etc/karmada/config';
export const TAINT_POLICY_NAME = 'cluster-probe-unhealthy';

export interface ReconcilerManifestOptions {
  namespace: string;
  image: string;
}

type Obj = Record<string, unknown>;

function labels(instance: boolean): Record<string, string> {
  return {
    'app.kubernetes.io/name': 'cluster-probe',
    'app.kubernetes.io/component': 'reconciler',
    ...(instance ? { 'app.kubernetes.io/instance': RECONCILER_NAME } : {}),
    'app.kubernetes.io/part-of': 'karmada-cluster-probe',
  };
}

const selector = { 'app.kubernetes.io/name': 'cluster-probe', 'app.kubernetes.io/instance': RECONCILER_NAME };

/**
 * The reconciler's identity. In-cluster and in karmada-apiserver its token is used (mounted, or through the token
 * Secret); in the host cluster of a Karmada install it calls no API there, so no token is mounted.
 */
export function reconcilerServiceAccount(o: ReconcilerManifestOptions, automountToken: boolean): Obj {
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: RECONCILER_NAME, namespace: o.namespace, labels: labels(true) },
    automountServiceAccountToken: automountToken,
  };
}

/**
 * A long-lived token of the ServiceAccount, filled in by kube-controller-manager's token controller (Karmada runs one
 * with serviceaccount-token enabled); the kubeconfig of the host cluster's Secret is made from it.
 */
export function reconcilerTokenSecret(o: ReconcilerManifestOptions): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'kubernetes.io/service-account-token',
    metadata: {
      name: `${RECONCILER_NAME}-token`,
      namespace: o.namespace,
      labels: labels(true),
      annotations: { 'kubernetes.io/service-account.name': RECONCILER_NAME },
    },
  };
}

/** Least privilege: see the comment rendered above rbac.yaml (RECONCILER_RBAC_COMMENT). */
export function reconcilerRbac(o: ReconcilerManifestOptions): Obj[] {
  const subject = [{ kind: 'ServiceAccount', name: RECONCILER_NAME, namespace: o.namespace }];
  return [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: RECONCILER_NAME, labels: labels(false) },
      rules: [
        { apiGroups: [GROUP], resources: [PLURAL], verbs: ['get', 'list', 'watch', 'patch', 'update'] },
        { apiGroups: [GROUP], resources: [`${PLURAL}/status`], verbs: ['patch', 'update'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: RECONCILER_NAME, labels: labels(false) },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: RECONCILER_NAME },
      subjects: subject,
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: RECONCILER_NAME, namespace: o.namespace, labels: labels(false) },
      // --sharding lease: its own Lease (get, create, update; delete on a clean stop), the group's (list, watch).
      rules: [
        {
          apiGroups: ['coordination.k8s.io'],
          resources: ['leases'],
          verbs: ['get', 'list', 'watch', 'create', 'update', 'delete'],
        },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: RECONCILER_NAME, namespace: o.namespace, labels: labels(false) },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: RECONCILER_NAME },
      subjects: subject,
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: `${RECONCILER_NAME}-events`, namespace: 'default', labels: labels(false) },
      rules: [{ apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: `${RECONCILER_NAME}-events`, namespace: 'default', labels: labels(false) },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: `${RECONCILER_NAME}-events` },
      subjects: subject,
    },
  ];
}

export const RECONCILER_RBAC_COMMENT = `# Least privilege for \`cluster-probe reconcile\`, in the apiserver that serves Cluster:
# - Clusters: read and watch all; patch/update for the ${UNHEALTHY_TAINT_KEY} taint (spec.taints) and the
#   ${HEALTHY_CONDITION_TYPE} condition (status subresource). No create, no delete.
# - Secrets: read the ones spec.secretRef names (apiServer probes). Karmada keeps them in karmada-cluster; to narrow
#   this further, replace the ClusterRole rule with a Role in that namespace.
# - Leases: only in the reconciler's own namespace (--lease-namespace): each replica's own (get, create, update, and
#   delete on a clean stop), and the group's members (list, watch) that --sharding lease spreads the Clusters over.
# - Events: only in \`default\`, the one namespace where the apiserver takes Events on a cluster-scoped object.
`;

/**
 * Two replicas, both active on their share of the Clusters (`--sharding lease`: a Lease each in the namespace, in the
 * apiserver that serves Cluster; one that dies hands its Clusters to the other once its Lease expires). With
 * `karmadaKubeconfig` the reconciler talks to karmada-apiserver through the kubeconfig in the Secret
 * KARMADA_KUBECONFIG_SECRET (key karmada.config, mounted at /etc/karmada/config, as karmada-controller-manager does);
 * without, to the apiserver of its own cluster.
 */
export function reconcilerDeployment(o: ReconcilerManifestOptions, karmadaKubeconfig: boolean): Obj {
  const args = [
    'reconcile',
    ...(karmadaKubeconfig ? [`--kubeconfig=${KARMADA_KUBECONFIG_DIR}/${KARMADA_KUBECONFIG_KEY}`] : []),
    '--taint-effect=NoSchedule',
    '--sharding=lease',
    `--lease-namespace=${o.namespace}`,
    '--lease-duration=15',
    '--identity=$(POD_NAME)',
    '--metrics-host=0.0.0.0',
    '--metrics-port=8080',
  ];
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: RECONCILER_NAME, namespace: o.namespace, labels: labels(true) },
    spec: {
      replicas: 2,
      revisionHistoryLimit: 3,
      selector: { matchLabels: selector },
      template: {
        metadata: { labels: labels(true) },
        spec: {
          serviceAccountName: RECONCILER_NAME,
          ...(karmadaKubeconfig ? { automountServiceAccountToken: false } : {}),
          terminationGracePeriodSeconds: 30,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: 65532,
            runAsGroup: 65532,
            // The kubeconfig Secret is mounted 0440: group 65532 must own it for the non-root user to read it.
            ...(karmadaKubeconfig ? { fsGroup: 65532 } : {}),
            seccompProfile: { type: 'RuntimeDefault' },
          },
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: 'kubernetes.io/hostname',
              whenUnsatisfiable: 'ScheduleAnyway',
              labelSelector: { matchLabels: selector },
            },
          ],
          containers: [
            {
              name: 'reconciler',
              image: o.image,
              imagePullPolicy: 'IfNotPresent',
              args,
              env: [
                { name: 'NODE_ENV', value: 'production' },
                { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
              ],
              ports: [{ name: 'metrics', containerPort: 8080, protocol: 'TCP' }],
              livenessProbe: {
                httpGet: { path: '/healthz', port: 'metrics' },
                initialDelaySeconds: 5,
                periodSeconds: 10,
                timeoutSeconds: 2,
                failureThreshold: 3,
              },
              readinessProbe: {
                httpGet: { path: '/readyz', port: 'metrics' },
                periodSeconds: 5,
                timeoutSeconds: 2,
                failureThreshold: 2,
              },
              resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '1', memory: '512Mi' } },
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                runAsNonRoot: true,
                capabilities: { drop: ['ALL'] },
              },
              ...(karmadaKubeconfig
                ? { volumeMounts: [{ name: 'karmada-config', mountPath: KARMADA_KUBECONFIG_DIR, readOnly: true }] }
                : {}),
            },
          ],
          ...(karmadaKubeconfig
            ? {
                volumes: [
                  {
                    name: 'karmada-config',
                    secret: { secretName: KARMADA_KUBECONFIG_SECRET, defaultMode: 0o440 },
                  },
                ],
              }
            : {}),
        },
      },
    },
  };
}

/**
 * Karmada 1.14+'s ClusterTaintPolicy (policy.karmada.io/v1alpha1) that turns Healthy=False into the taint the
 * reconciler would write, and removes it on True or Unknown (as the reconciler does: a probe that cannot run says
 * nothing about the cluster). Karmada matches taints by key and effect.
 */
export function clusterTaintPolicy(): Obj {
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterTaintPolicy',
    metadata: {
      name: TAINT_POLICY_NAME,
      labels: {
        'app.kubernetes.io/name': 'cluster-probe',
        'app.kubernetes.io/component': 'reconciler',
        'app.kubernetes.io/part-of': 'karmada-cluster-probe',
      },
    },
    spec: {
      addOnConditions: [{ conditionType: HEALTHY_CONDITION_TYPE, operator: 'In', statusValues: ['False'] }],
      removeOnConditions: [
        { conditionType: HEALTHY_CONDITION_TYPE, operator: 'In', statusValues: ['True', 'Unknown'] },
      ],
      taints: [{ key: UNHEALTHY_TAINT_KEY, effect: 'NoSchedule' }],
    },
  };
}
