// The AdmissionReviews the webhook benches send (bench/webhook/index.ts over HTTPS, handler.ts in process).
const cluster = (annotations: Record<string, string>, livenessProbe?: unknown) => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'member-dev', labels: { env: 'dev', region: 'eu-west-1' }, annotations },
  spec: {
    syncMode: 'Push',
    apiEndpoint: 'https://172.18.0.3:6443',
    secretRef: { namespace: 'karmada-cluster', name: 'member-dev' },
    impersonatorSecretRef: { namespace: 'karmada-cluster', name: 'member-dev-impersonator' },
    region: 'eu-west-1',
    zones: ['eu-west-1a', 'eu-west-1b'],
    taints: [{ key: 'cluster.karmada.io/maintenance', effect: 'NoSchedule' }],
    ...(livenessProbe ? { livenessProbe } : {}),
  },
});

function review(object: unknown): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: '705ab4f5-6393-11e8-b7cc-42010a800002',
      kind: { group: 'cluster.karmada.io', version: 'v1alpha1', kind: 'Cluster' },
      resource: { group: 'cluster.karmada.io', version: 'v1alpha1', resource: 'clusters' },
      name: 'member-dev',
      operation: 'CREATE',
      userInfo: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] },
      object,
      dryRun: false,
      options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions', fieldManager: 'kubectl-client-side-apply' },
    },
  });
}

// Both endpoints on both kinds of review (issue 14): one carrying the legacy annotation, one carrying the probe.
// /mutate (legacy): the annotation migrated and defaulted, a patch every time (the worst case). /mutate (probe): a
// probe that needs the kubelet defaults. /validate (legacy): the same legacy review, whose annotation validation
// checks as migration would (what a validating webhook installed alone, or a failed migration, sees). /validate
// (probe): a defaulted, valid probe, what the apiserver sends after /mutate.
export const MIGRATE_BODY = review(
  cluster({
    'cluster.karmada.io/health-checker':
      '{"service":{"namespace":"some-system","name":"member-dev-health","port":80,"path":"/healthz"}}',
  }),
);
export const DEFAULT_BODY = review(cluster({}, { httpGet: { scheme: 'HTTPS', port: 443, path: '/healthz' } }));
export const VALIDATE_BODY = review(
  cluster(
    {},
    {
      httpGet: { scheme: 'HTTPS', host: 'member-dev-health.some-system.svc', port: 80, path: '/healthz' },
      initialDelaySeconds: 0,
      timeoutSeconds: 10,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    },
  ),
);

/** Both endpoints on both kinds of review, as the throughput table names them. */
export const BODIES: readonly (readonly [string, 'mutate' | 'validate', string])[] = [
  ['/mutate (legacy)', 'mutate', MIGRATE_BODY],
  ['/mutate (probe)', 'mutate', DEFAULT_BODY],
  ['/validate (legacy)', 'validate', MIGRATE_BODY],
  ['/validate (probe)', 'validate', VALIDATE_BODY],
];
