// What a ClusterProfile says for a Karmada Cluster, from our Healthy condition and Karmada's Ready: the
// ControlPlaneHealthy rule row by row (the disruption guard's withheld verdict Unknown, never False), our own
// domain-prefixed condition, writes only on change, and another manager's profile getting our condition alone.
import { expect } from 'chai';
import type { Condition } from '@karmada-cluster-probe/schema';
import { WITHHELD_REASONS } from '../../../src/facts/disruption.js';
import {
  CLUSTER_MANAGER_LABEL,
  CLUSTER_MANAGER_NAME,
  CONTROL_PLANE_HEALTHY,
  DEFAULT_PROFILE_NAMESPACE,
  MANAGED_BY,
  MANAGED_BY_LABEL,
  PROBE_CONDITION,
  controlPlaneHealthy,
  planProfile,
  planRemoval,
  propagationSkipped,
  viewOf,
  type ClusterProfile,
  type ClusterView,
} from '../../../src/profile/index.js';

const T0 = new Date('2026-12-03T10:00:00Z');
const T1 = new Date('2026-12-03T10:05:00Z');
const cond = (type: string, status: string, reason: string, message = ''): Condition => ({
  type,
  status: status as Condition['status'],
  reason,
  message,
  lastTransitionTime: '2026-12-03T09:00:00Z',
});
const ready = (s: string): Condition =>
  cond('Ready', s, s === 'True' ? 'ClusterReady' : 'ClusterNotReachable', 'from karmada');
const healthy = (s: string, reason: string, message = 'm'): Condition => cond('Healthy', s, reason, message);
const view = (r?: Condition, h?: Condition, kubernetesVersion?: string): ClusterView => ({
  name: 'member1',
  ...(r ? { ready: r } : {}),
  ...(h ? { healthy: h } : {}),
  ...(kubernetesVersion ? { kubernetesVersion } : {}),
});

/** What the server would store after the writes (status apply over object apply), for the next round. */
function stored(writes: ReturnType<typeof planProfile>, before?: ClusterProfile): ClusterProfile {
  const p: ClusterProfile = structuredClone(before ?? {});
  if (writes.object) Object.assign(p, { ...writes.object, status: p.status });
  if (writes.status) {
    p.metadata ??= writes.status.metadata;
    const keep = (p.status?.conditions ?? []).filter(
      (c) => !writes.status!.status!.conditions!.some((n) => n.type === c.type),
    );
    p.status = { ...writes.status.status, conditions: [...keep, ...writes.status.status!.conditions!] };
  }
  return p;
}

describe('ClusterProfile: what it says (desired-profile)', () => {
  describe('ControlPlaneHealthy from Karmada’s Ready and our Healthy', () => {
    const rows: [string, Condition | undefined, Condition | undefined, string, string][] = [
      ['Karmada Ready, probe healthy', ready('True'), healthy('True', 'LivenessProbeSucceeded'), 'True', 'Healthy'],
      [
        'Karmada Ready, probe failing',
        ready('True'),
        healthy('False', 'LivenessProbeFailed'),
        'False',
        'LivenessProbeFailed',
      ],
      [
        'Karmada not Ready, probe healthy',
        ready('False'),
        healthy('True', 'LivenessProbeSucceeded'),
        'False',
        'KarmadaNotReady',
      ],
      [
        'Karmada not Ready, probe failing',
        ready('False'),
        healthy('False', 'LivenessProbeFailed'),
        'False',
        'KarmadaNotReady',
      ],
      ['Karmada Ready, no probe', ready('True'), undefined, 'True', 'KarmadaReady'],
      [
        'Karmada Ready, probe cannot run',
        ready('True'),
        healthy('Unknown', 'LivenessProbeError'),
        'True',
        'KarmadaReady',
      ],
      [
        'Karmada Ready Unknown, probe healthy',
        ready('Unknown'),
        healthy('True', 'LivenessProbeSucceeded'),
        'Unknown',
        'KarmadaReadyUnknown',
      ],
      [
        'no Ready yet, probe healthy',
        undefined,
        healthy('True', 'LivenessProbeSucceeded'),
        'Unknown',
        'KarmadaReadyUnknown',
      ],
      ...Object.values(WITHHELD_REASONS).map(
        (r) =>
          [`Karmada Ready, verdict withheld (${r})`, ready('True'), healthy('Unknown', r), 'Unknown', r] as [
            string,
            Condition,
            Condition,
            string,
            string,
          ],
      ),
    ];
    for (const [name, r, h, status, reason] of rows)
      it(`${name}: ${status} (${reason})`, () => {
        const v = controlPlaneHealthy(view(r, h));
        expect([v.status, v.reason]).to.deep.equal([status, reason]);
      });

    it('shows the prober disrupted as Unknown, never False, with the guard’s reason and message', () => {
      const v = controlPlaneHealthy(
        view(ready('True'), healthy('Unknown', 'ProberDisrupted', 'every Cluster fails at once')),
      );
      expect(v.status).to.equal('Unknown');
      expect(v.message).to.include('every Cluster fails at once');
    });
  });

  it('creates our profile: the cluster-manager label and spec, both conditions, the Kubernetes version', () => {
    const w = planProfile(
      view(ready('True'), healthy('False', 'LivenessProbeFailed', '0 Ready nodes'), 'v1.35.4'),
      'karmada-cluster',
      undefined,
      T0,
    );
    expect(w.object?.metadata?.labels).to.deep.equal({
      [CLUSTER_MANAGER_LABEL]: CLUSTER_MANAGER_NAME,
      [MANAGED_BY_LABEL]: MANAGED_BY,
    });
    expect(w.object?.spec).to.deep.equal({ clusterManager: { name: CLUSTER_MANAGER_NAME } });
    expect(w.status?.status?.version).to.deep.equal({ kubernetes: 'v1.35.4' });
    const byType = Object.fromEntries((w.status?.status?.conditions ?? []).map((c) => [c.type, c]));
    expect(byType[CONTROL_PLANE_HEALTHY]).to.include({
      status: 'False',
      reason: 'LivenessProbeFailed',
      message: '0 Ready nodes',
    });
    expect(byType[PROBE_CONDITION]).to.deep.equal({
      type: PROBE_CONDITION,
      status: 'False',
      reason: 'LivenessProbeFailed',
      message: '0 Ready nodes',
      lastTransitionTime: '2026-12-03T09:00:00Z',
    });
    expect(byType[CONTROL_PLANE_HEALTHY]?.lastTransitionTime).to.equal('2026-12-03T10:00:00Z');
  });

  it('writes nothing when the stored profile already says it, and keeps lastTransitionTime when only the message moves', () => {
    const v = view(ready('True'), healthy('True', 'LivenessProbeSucceeded'), 'v1.35.4');
    const first = stored(planProfile(v, 'ns', undefined, T0));
    first.metadata!.labels = { [CLUSTER_MANAGER_LABEL]: CLUSTER_MANAGER_NAME, [MANAGED_BY_LABEL]: MANAGED_BY };
    expect(planProfile(v, 'ns', first, T1)).to.deep.equal({});
    const failing = planProfile(view(ready('True'), healthy('False', 'LivenessProbeFailed')), 'ns', first, T1);
    expect(failing.object).to.equal(undefined);
    const cph = failing.status?.status?.conditions?.find((c) => c.type === CONTROL_PLANE_HEALTHY);
    expect(cph).to.include({ status: 'False', lastTransitionTime: '2026-12-03T10:05:00Z' });
    expect(failing.status?.status?.version, 'a version no longer known is dropped').to.equal(undefined);
  });

  it('adds only our condition to a profile another manager made, and withdraws only it when the Cluster goes', () => {
    const foreign: ClusterProfile = {
      metadata: { name: 'member1', namespace: 'ns', labels: { [CLUSTER_MANAGER_LABEL]: 'ocm' } },
      spec: { clusterManager: { name: 'ocm' } },
      status: {
        conditions: [
          { type: CONTROL_PLANE_HEALTHY, status: 'True', reason: 'Ocm', message: '', lastTransitionTime: 'x' },
        ],
      },
    };
    const w = planProfile(view(ready('True'), healthy('False', 'LivenessProbeFailed')), 'ns', foreign, T0);
    expect(w.object).to.equal(undefined);
    expect(w.status?.status?.conditions?.map((c) => c.type)).to.deep.equal([PROBE_CONDITION]);
    expect(w.status?.status).to.not.have.property('version');
    const after = stored(w, foreign);
    expect(planProfile(view(ready('True'), healthy('False', 'LivenessProbeFailed')), 'ns', after, T1)).to.deep.equal(
      {},
    );
    const removal = planRemoval(after);
    expect(removal?.kind).to.equal('withdraw');
    expect(removal && 'status' in removal ? removal.status : undefined).to.not.have.property('status');
    expect(planRemoval(foreign), 'nothing of ours on it').to.equal(undefined);
  });

  it('names the Cluster as the owner of our profile, and rewrites it for a Cluster created again under the same name', () => {
    const v = { ...view(ready('True')), uid: 'uid-1' };
    const first = planProfile(v, 'ns', undefined, T0);
    expect(first.object?.metadata?.ownerReferences).to.deep.equal([
      { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', name: 'member1', uid: 'uid-1' },
    ]);
    const stored1 = stored(first);
    expect(planProfile(v, 'ns', stored1, T1).object).to.equal(undefined);
    expect(planProfile({ ...v, uid: 'uid-2' }, 'ns', stored1, T1).object?.metadata?.ownerReferences?.[0]?.uid).to.equal(
      'uid-2',
    );
  });

  it('deletes our own profile when its Cluster goes', () => {
    const ours = stored(planProfile(view(ready('True')), 'ns', undefined, T0));
    expect(planRemoval(ours)).to.deep.equal({ kind: 'delete' });
  });

  it('keeps a reason the apiserver would refuse out of the condition, and bounds the message', () => {
    const w = planProfile(
      view(ready('True'), healthy('False', 'not a reason!', 'x'.repeat(40_000))),
      'ns',
      undefined,
      T0,
    );
    const probe = w.status?.status?.conditions?.find((c) => c.type === PROBE_CONDITION);
    expect(probe?.reason).to.equal('LivenessProbe');
    expect(probe?.message.length).to.equal(32768);
  });

  it('reads a Cluster as Karmada and the reconciler write it', () => {
    const v = viewOf({
      metadata: { name: 'm' },
      status: { conditions: [ready('True'), healthy('True', 'LivenessProbeSucceeded')], kubernetesVersion: 'v1.35.4' },
    });
    expect([v.name, v.ready?.status, v.healthy?.status, v.kubernetesVersion]).to.deep.equal([
      'm',
      'True',
      'True',
      'v1.35.4',
    ]);
  });
});

describe('ClusterProfile: namespaces Karmada never propagates from', () => {
  it('knows the reserved ones (names.IsReservedNamespace) and the default --skipped-propagating-namespaces', () => {
    expect(propagationSkipped(DEFAULT_PROFILE_NAMESPACE)).to.equal('reserved');
    expect(propagationSkipped('karmada-system')).to.equal('reserved');
    expect(propagationSkipped('karmada-es-member1')).to.equal('reserved');
    expect(propagationSkipped('kube-inventory')).to.equal('default-skip');
    expect(propagationSkipped('default')).to.equal(undefined);
    expect(propagationSkipped('fleet')).to.equal(undefined);
  });
});
