// What a probe state asks of a Cluster: the Healthy condition and the unhealthy taint, and the smallest change to get
// there. Pure logic: no apiserver, no clock.
import { expect } from 'chai';
import {
  eventFor,
  planCluster,
  planConditions,
  planTaints,
  stateFromConditions,
  type Desired,
} from '../../../src/reconciler/index.js';
import { stateFromCluster } from '../../../src/reconciler/desired-state.js';
import type { Condition, Taint } from '../../../packages/schema/src/schema/index.js';
import { aCluster } from '../../support/cluster.js';

const NOW = Date.parse('2026-03-01T12:00:00.456Z');
const failed: Desired = { kind: 'state', state: 'failure', message: 'HTTP probe failed with statuscode: 500' };
const succeeded: Desired = { kind: 'state', state: 'success', message: 'HTTP probe succeeded' };
const errored: Desired = { kind: 'state', state: 'error', message: 'Secret "karmada-cluster/m1" not found' };
const invalid: Desired = {
  kind: 'invalid',
  message: 'spec.livenessProbe.httpGet.port: Invalid value: 70000: must be between 1 and 65535, inclusive',
};
const ready: Condition = {
  type: 'Ready',
  status: 'True',
  reason: 'ClusterReady',
  message: 'cluster is healthy and ready to accept workloads',
  lastTransitionTime: '2026-01-01T00:00:00Z',
};
const healthyTrue: Condition = {
  type: 'Healthy',
  status: 'True',
  reason: 'LivenessProbeSucceeded',
  message: 'HTTP probe succeeded',
  lastTransitionTime: '2026-02-01T00:00:00Z',
};
const maintenance: Taint = { key: 'example.com/maintenance', value: 'planned', effect: 'NoSchedule' };
const ours: Taint = { key: 'cluster.karmada.io/unhealthy', effect: 'NoSchedule', timeAdded: '2026-02-02T00:00:00Z' };

describe('reconciler desired state: Healthy condition', () => {
  it('adds Healthy=False/LivenessProbeFailed beside the other conditions, with the transition to tell', () => {
    const plan = planConditions([ready], failed, NOW);
    expect(plan?.conditions).to.deep.equal([
      ready,
      {
        type: 'Healthy',
        status: 'False',
        reason: 'LivenessProbeFailed',
        message: 'HTTP probe failed with statuscode: 500',
        lastTransitionTime: '2026-03-01T12:00:00Z',
      },
    ]);
    expect(plan?.change?.from).to.equal(undefined);
    expect(plan?.change?.to.status).to.equal('False');
  });

  it('replaces True with False in place, recording the previous condition', () => {
    const plan = planConditions([healthyTrue, ready], failed, NOW)!;
    expect(plan.conditions.map((c) => `${c.type}=${c.status}`)).to.deep.equal(['Healthy=False', 'Ready=True']);
    expect(plan.change?.from).to.deep.equal(healthyTrue);
  });

  it('writes nothing when status and reason already match, even if the message differs (a restart lost it)', () => {
    expect(planConditions([healthyTrue], { ...succeeded, message: 'another message' }, NOW)).to.equal(undefined);
  });

  it('writes nothing while the worker has no result yet', () => {
    expect(planConditions([healthyTrue], { kind: 'keep' }, NOW)).to.equal(undefined);
    expect(planConditions(undefined, { kind: 'keep' }, NOW)).to.equal(undefined);
  });

  it('sets Unknown/LivenessProbeError for a configuration error', () => {
    const plan = planConditions([healthyTrue], errored, NOW)!;
    expect(plan.conditions[0]).to.include({ status: 'Unknown', reason: 'LivenessProbeError' });
  });

  it('sets Unknown/InvalidLivenessProbe for a probe that fails validation, with the transition to tell', () => {
    const plan = planConditions([healthyTrue], invalid, NOW)!;
    expect(plan.conditions[0]).to.deep.equal({
      type: 'Healthy',
      status: 'Unknown',
      reason: 'InvalidLivenessProbe',
      message: invalid.message,
      lastTransitionTime: '2026-03-01T12:00:00Z',
    });
    expect(plan.change?.from).to.deep.equal(healthyTrue);
    // From a configuration error at run time (same status, another reason): a transition too.
    const fromError = planConditions(planConditions([], errored, NOW)!.conditions, invalid, NOW + 60_000)!;
    expect(fromError.change?.to.reason).to.equal('InvalidLivenessProbe');
    expect(fromError.conditions[0]!.lastTransitionTime).to.equal('2026-03-01T12:00:00Z');
  });

  it('writes nothing for an invalid probe already reported; a new list of errors updates the message without an Event', () => {
    const first = planConditions([], invalid, NOW)!.conditions;
    expect(planConditions(first, invalid, NOW + 60_000)).to.equal(undefined);
    const edited = planConditions(first, { kind: 'invalid', message: 'spec.livenessProbe: Required value' }, NOW + 1)!;
    expect(edited.change).to.equal(undefined);
    expect(edited.conditions[0]).to.include({
      message: 'spec.livenessProbe: Required value',
      lastTransitionTime: '2026-03-01T12:00:00Z',
    });
  });

  it('removes only a Healthy condition it wrote when the probe is gone', () => {
    expect(planConditions([ready, healthyTrue], { kind: 'absent' }, NOW)?.conditions).to.deep.equal([ready]);
    const wasInvalid = planConditions([ready], invalid, NOW)!.conditions;
    expect(planConditions(wasInvalid, { kind: 'absent' }, NOW)?.conditions).to.deep.equal([ready]);
    const foreign = { ...healthyTrue, reason: 'SomeoneElse' };
    expect(planConditions([foreign], { kind: 'absent' }, NOW)).to.equal(undefined);
  });

  it('bounds a long message', () => {
    const plan = planConditions([], { ...failed, message: 'x'.repeat(10_000) }, NOW)!;
    expect(plan.conditions[0]!.message.length).to.be.at.most(4096);
  });
});

describe('reconciler desired state: taint', () => {
  it("adds the taint after others' taints, leaving them untouched", () => {
    expect(planTaints([maintenance], failed, 'NoSchedule', NOW)).to.deep.equal([
      maintenance,
      { key: 'cluster.karmada.io/unhealthy', effect: 'NoSchedule', timeAdded: '2026-03-01T12:00:00Z' },
    ]);
  });

  it('writes nothing when the taint is already there with the configured effect', () => {
    expect(planTaints([maintenance, ours], failed, 'NoSchedule', NOW)).to.equal(undefined);
  });

  it('changes the effect in place when the flag changed', () => {
    const out = planTaints([ours, maintenance], failed, 'NoExecute', NOW)!;
    expect(out.map((t) => `${t.key}:${t.effect}`)).to.deep.equal([
      'cluster.karmada.io/unhealthy:NoExecute',
      'example.com/maintenance:NoSchedule',
    ]);
  });

  it('collapses duplicates of its own key into one taint', () => {
    const out = planTaints([ours, maintenance, { ...ours, effect: 'NoExecute' }], failed, 'NoSchedule', NOW)!;
    expect(out.filter((t) => t.key === ours.key)).to.have.length(1);
    expect(out).to.deep.include(maintenance);
  });

  it('removes only its own taint on recovery', () => {
    expect(planTaints([maintenance, ours], succeeded, 'NoSchedule', NOW)).to.deep.equal([maintenance]);
    expect(planTaints([maintenance], succeeded, 'NoSchedule', NOW)).to.equal(undefined);
  });

  it('taints nothing for a configuration error (and lifts a taint left from a failure)', () => {
    expect(planTaints([maintenance], errored, 'NoSchedule', NOW)).to.equal(undefined);
    expect(planTaints([ours], errored, 'NoSchedule', NOW)).to.deep.equal([]);
  });

  it('taints nothing for an invalid probe, and lifts our taint (Unknown is not a verdict)', () => {
    expect(planTaints([maintenance], invalid, 'NoSchedule', NOW)).to.equal(undefined);
    expect(planTaints([maintenance, ours], invalid, 'NoSchedule', NOW)).to.deep.equal([maintenance]);
  });

  it('never reads or writes taints with --taint-effect none (condition-only, for a ClusterTaintPolicy)', () => {
    expect(planTaints([maintenance], failed, 'none', NOW)).to.equal(undefined);
    // A taint with our key belongs to whoever manages taints in this mode (e.g. Karmada's ClusterTaintPolicy).
    for (const d of [failed, succeeded, errored, invalid, { kind: 'absent' } as Desired])
      expect(planTaints([maintenance, ours], d, 'none', NOW), JSON.stringify(d)).to.equal(undefined);
    const cluster = aCluster('m1', { taints: [ours], conditions: [healthyTrue] });
    expect(planCluster(cluster, failed, 'none', NOW).taints).to.equal(undefined);
    expect(planCluster(cluster, failed, 'none', NOW).status?.change?.to.status).to.equal('False');
  });

  it('never touches taints while there is no result', () => {
    expect(planTaints([ours], { kind: 'keep' }, 'NoSchedule', NOW)).to.equal(undefined);
  });

  it('plans nothing at all for a Cluster already in the desired state', () => {
    const cluster = aCluster('m1', {
      taints: [maintenance, ours],
      conditions: [ready, { ...healthyTrue, status: 'False', reason: 'LivenessProbeFailed' }],
    });
    expect(planCluster(cluster, failed, 'NoSchedule', NOW)).to.deep.equal({});
  });

  it("plans nothing after Karmada's own writes (issue 50: Ready=Unknown, its taint swapped, a new timeAdded, a new order)", () => {
    // What karmada-controller-manager's cluster controller does to a Pull Cluster whose agent never reports
    // (cluster_controller.go tryUpdateClusterHealth and updateClusterTaints): Ready set to Unknown in the list,
    // cluster.karmada.io/not-ready replaced by cluster.karmada.io/unreachable with timeAdded now, ours kept in place.
    const unknown: Condition = {
      type: 'Ready',
      status: 'Unknown',
      reason: 'ClusterStatusNeverUpdated',
      message: 'Cluster status controller never posted cluster status.',
      lastTransitionTime: '2026-03-01T11:59:00Z',
    };
    const notReady: Taint = {
      key: 'cluster.karmada.io/not-ready',
      effect: 'NoSchedule',
      timeAdded: '2026-03-01T11:00:00Z',
    };
    const unreachable: Taint = {
      key: 'cluster.karmada.io/unreachable',
      effect: 'NoSchedule',
      timeAdded: '2026-03-01T11:59:00Z',
    };
    for (const effect of ['NoSchedule', 'NoExecute', 'none'] as const) {
      const oursNow = { ...ours, effect: effect === 'none' ? 'NoSchedule' : effect };
      const healthy = aCluster('m1', { syncMode: 'Pull', taints: [notReady], conditions: [ready, healthyTrue] });
      expect(planCluster(healthy, succeeded, effect, NOW), effect).to.deep.equal({});
      const afterKarmada = aCluster('m1', {
        syncMode: 'Pull',
        taints: [unreachable],
        conditions: [{ ...healthyTrue, message: 'an older message' }, unknown],
      });
      expect(planCluster(afterKarmada, succeeded, effect, NOW), effect).to.deep.equal({});
      const failing = aCluster('m1', {
        syncMode: 'Pull',
        taints: effect === 'none' ? [unreachable] : [unreachable, oursNow],
        conditions: [unknown, { ...healthyTrue, status: 'False', reason: 'LivenessProbeFailed' }],
      });
      expect(planCluster(failing, failed, effect, NOW), effect).to.deep.equal({});
    }
  });
});

describe('reconciler desired state: resuming and telling', () => {
  it('resumes the worker state from the Healthy condition it wrote', () => {
    expect(stateFromConditions([healthyTrue])).to.equal('success');
    expect(stateFromConditions([{ ...healthyTrue, status: 'False', reason: 'LivenessProbeFailed' }])).to.equal(
      'failure',
    );
    expect(stateFromConditions([{ ...healthyTrue, status: 'Unknown', reason: 'LivenessProbeError' }])).to.equal(
      'error',
    );
    expect(stateFromConditions([{ ...healthyTrue, status: 'Unknown', reason: 'InvalidLivenessProbe' }])).to.equal(
      'error',
    );
    expect(stateFromConditions([ready])).to.equal('unknown');
    expect(stateFromConditions([{ ...healthyTrue, reason: 'SomeoneElse' }])).to.equal('unknown');
  });

  it('resumes from the condition only where our taint agrees with it: a half-written verdict resumes as unknown', () => {
    const taint: Taint = { key: 'cluster.karmada.io/unhealthy', effect: 'NoSchedule' };
    const other: Taint = { key: 'example.com/maintenance', effect: 'NoSchedule' };
    const falseCond = { ...healthyTrue, status: 'False' as const, reason: 'LivenessProbeFailed' };
    expect(stateFromCluster(aCluster('m1', { taints: [taint], conditions: [falseCond] }))).to.equal('failure');
    expect(stateFromCluster(aCluster('m1', { taints: [other], conditions: [healthyTrue] }))).to.equal('success');
    // Tainted, the condition not yet written (the replica stopped between the two): not 'success', which would lift it.
    expect(stateFromCluster(aCluster('m1', { taints: [other, taint], conditions: [healthyTrue] }))).to.equal('unknown');
    // Untainted on recovery, the condition not yet written: not 'failure', which would put the taint back.
    expect(stateFromCluster(aCluster('m1', { conditions: [falseCond] }))).to.equal('unknown');
    expect(stateFromCluster(aCluster('m1', { taints: [taint], status: {} }))).to.equal('unknown');
    const errorCond = { ...healthyTrue, status: 'Unknown' as const, reason: 'LivenessProbeError' };
    expect(stateFromCluster(aCluster('m1', { taints: [taint], conditions: [errorCond] }))).to.equal('error');
  });

  it('tells a failure as a Warning and a recovery as Normal', () => {
    const down = planConditions([healthyTrue], failed, NOW)!.change!;
    expect(eventFor(down)).to.deep.equal({
      type: 'Warning',
      reason: 'LivenessProbeFailed',
      message: 'liveness probe failed: HTTP probe failed with statuscode: 500',
    });
    const up = planConditions(planConditions([healthyTrue], failed, NOW)!.conditions, succeeded, NOW)!.change!;
    expect(eventFor(up).type).to.equal('Normal');
  });

  it('tells an invalid probe as a Warning InvalidLivenessProbe with the field errors', () => {
    expect(eventFor(planConditions([healthyTrue], invalid, NOW)!.change!)).to.deep.equal({
      type: 'Warning',
      reason: 'InvalidLivenessProbe',
      message: `liveness probe is invalid and is not run: ${invalid.message}`,
    });
  });
});
