// The objects the producer writes hold under the v1alpha2 ClusterProfile schema too. No release of
// sigs.k8s.io/cluster-inventory-api that the Go module proxy serves here carries v1alpha2 (v0.1.3 is the newest; later
// versions answer 403), so its rules are taken from upstream's Go types (apis/v1alpha2/clusterprofile_types.go at
// commit 2c9add11d437cd535d559a6d636800f4aa69a1cc): the fields each struct has, and the kubebuilder markers on them
// (clusterManager.name a label value of 1 to 63 characters; metav1.Condition as in v1alpha1). The v1alpha1 schema is
// judged by a real apiserver in test/e2e/cluster-profile.test.ts.
import { expect } from 'chai';
import type { Condition } from '@karmada-cluster-probe/schema';
import { planProfile, type ClusterProfile, type ClusterView } from '../../../src/profile/index.js';

/** The JSON fields of each v1alpha2 struct. */
const V1ALPHA2_FIELDS = {
  spec: ['displayName', 'clusterManager'],
  clusterManager: ['name'],
  status: ['conditions', 'version', 'properties', 'accessProviders'],
  version: ['kubernetes'],
  condition: ['type', 'status', 'observedGeneration', 'lastTransitionTime', 'reason', 'message'],
} as const;
/** `!format.labelValue().validate(self).hasValue()`, MinLength 1, MaxLength 63. */
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function v1alpha2Errors(p: ClusterProfile): string[] {
  const errors: string[] = [];
  const only = (what: string, obj: object | undefined, allowed: readonly string[]): void => {
    for (const k of Object.keys(obj ?? {})) if (!allowed.includes(k)) errors.push(`${what}.${k}: not a v1alpha2 field`);
  };
  only('spec', p.spec, V1ALPHA2_FIELDS.spec);
  only('spec.clusterManager', p.spec?.clusterManager, V1ALPHA2_FIELDS.clusterManager);
  const name = p.spec?.clusterManager?.name;
  if (name !== undefined && !(name.length >= 1 && name.length <= 63 && LABEL_VALUE.test(name)))
    errors.push('spec.clusterManager.name: must be a valid Kubernetes label value');
  only('status', p.status, V1ALPHA2_FIELDS.status);
  only('status.version', p.status?.version, V1ALPHA2_FIELDS.version);
  for (const c of p.status?.conditions ?? []) only(`status.conditions[${c.type}]`, c, V1ALPHA2_FIELDS.condition);
  return errors;
}

const cond = (type: string, status: Condition['status'], reason: string): Condition => ({
  type,
  status,
  reason,
  message: 'm',
  lastTransitionTime: '2026-12-03T09:00:00Z',
});

describe('ClusterProfile: the objects hold under v1alpha2', () => {
  const views: ClusterView[] = [
    {
      name: 'm',
      ready: cond('Ready', 'True', 'ClusterReady'),
      healthy: cond('Healthy', 'True', 'LivenessProbeSucceeded'),
      kubernetesVersion: 'v1.35.4',
    },
    { name: 'm', ready: cond('Ready', 'False', 'ClusterNotReachable') },
    { name: 'm', ready: cond('Ready', 'True', 'ClusterReady'), healthy: cond('Healthy', 'Unknown', 'ProberDisrupted') },
  ];
  for (const [i, view] of views.entries())
    it(`case ${i + 1}: the object and the status apply name only v1alpha2 fields and a valid manager name`, () => {
      const w = planProfile(view, 'karmada-cluster', undefined, new Date('2026-12-03T10:00:00Z'));
      expect(v1alpha2Errors(w.object!)).to.deep.equal([]);
      expect(v1alpha2Errors(w.status!)).to.deep.equal([]);
    });

  it('the check finds a field v1alpha2 lacks and a manager name that is no label value (it can fail)', () => {
    expect(
      v1alpha2Errors({
        spec: { clusterManager: { name: 'not a label value!' } },
        status: { credentialProviders: [] } as never,
      }),
    ).to.deep.equal([
      'spec.clusterManager.name: must be a valid Kubernetes label value',
      'status.credentialProviders: not a v1alpha2 field',
    ]);
  });
});
