// An errored probe in the reconciler (the kubelet's "probe errored": the answer could not be read in 3 attempts): the
// real ClusterController against the in-memory apiserver, on a fake clock, with the probe's results chosen by the
// test. An errored Cluster is neither tainted nor marked Unknown, its run of failures goes on across the errored runs,
// and it costs one Warning Event per probe state, never one a period.
import { expect } from 'chai';
import { FakeClock } from '../../support/fake-clock.js';
import { FakeApiServer } from '../../support/fake-apiserver.js';
import { aCluster, healthyCondition, healthyOf, httpProbe, isTainted } from '../../support/cluster.js';
import { ClusterController, createMetrics } from '../../../src/reconciler/index.js';
import type { Condition } from '../../../packages/schema/src/schema/index.js';
import type { ProbeResult } from '../../../packages/probe/src/index.js';

type Run = 'success' | 'failure' | 'errored';

const ERRORED: ProbeResult = {
  result: 'error',
  code: 'ProbeErrored',
  message: 'Get "http://10.0.0.1:8080/healthz": read tcp 10.0.0.1:8080: read: connection reset by peer',
  attempts: 3,
  durationMs: 3,
};

const HEALTHY = healthyCondition('True');
const PERIOD_MS = 10_000;

/**
 * A ClusterController over one Cluster per key of `runs`, each probing a path of its own name; its n-th probe run
 * gives `runs[name][n]` (the last one repeats). Nothing runs until the test moves the clock.
 */
function harness(runs: Record<string, Run[]>, options: { guard?: boolean; conditions?: Condition[] } = {}) {
  const clock = new FakeClock(1_000_000);
  const kube = new FakeApiServer({ clock });
  const metrics = createMetrics();
  const warnings: string[] = [];
  const log = {
    info: () => undefined,
    debug: () => undefined,
    warn: (_o: object, msg: string) => void warnings.push(msg),
  };
  for (const name of Object.keys(runs))
    kube.putCluster(
      aCluster(name, {
        probe: httpProbe(
          8080,
          `/healthz/${name}`,
          { periodSeconds: PERIOD_MS / 1000, failureThreshold: 3 },
          '10.0.0.1',
        ),
        ...(options.conditions !== undefined ? { conditions: options.conditions } : {}),
      }),
    );
  const index = new Map<string, number>();
  const controller = new ClusterController({
    api: kube,
    taintEffect: 'NoSchedule',
    metrics,
    log,
    identity: 't',
    clock,
    random: () => 0,
    disruption: options.guard === true ? { mode: { kind: 'none' }, partialDisruptionRate: 0.01 } : false,
    runProbe: (probe) => {
      // Which Cluster: each probes a path of its own name.
      const name = (probe.httpGet?.path ?? '').replace('/healthz/', '');
      const i = index.get(name) ?? 0;
      index.set(name, i + 1);
      const run = runs[name]![Math.min(i, runs[name]!.length - 1)]!;
      return Promise.resolve(run === 'errored' ? ERRORED : { result: run, message: `probe ${run}`, durationMs: 1 });
    },
  });
  /** Lets what the last step of the clock started (probes, reconciles, writes, watch events) run to its end. */
  const settle = async (): Promise<void> => {
    for (let seen = -1; seen !== kube.requests.length;) {
      seen = kube.requests.length;
      await clock.advance(0);
      await controller.idle();
    }
  };
  /** Starts the controller (its first probe runs are due at once: no jitter), then runs `periods` periods of 10 s. */
  let started = false;
  const run = async (periods: number): Promise<void> => {
    for (let p = 0; p < periods; p++) {
      if (!started) {
        controller.start();
        await settle();
      }
      await clock.advance(started ? PERIOD_MS : 1);
      started = true;
      await settle();
    }
  };
  return {
    kube,
    controller,
    metrics,
    warnings,
    run,
    healthy: (name: string): Condition | undefined => healthyOf(kube.cluster(name)),
    tainted: (name: string): boolean => isTainted(kube.cluster(name)),
    stop: () => controller.stop(),
  };
}

describe('reconciler: an errored probe', () => {
  it('is neither tainted nor marked Unknown, and tells one Event in 10 periods, not one a period', async () => {
    const h = harness({ m1: ['errored'] }, { conditions: [HEALTHY] });
    await h.run(10);
    expect(h.tainted('m1')).to.equal(false);
    expect(h.healthy('m1')).to.deep.equal(HEALTHY);
    expect(h.controller.stateOf('m1')).to.equal('success');
    expect(h.kube.events.map((e) => `${e.type} ${e.reason}`)).to.deep.equal(['Warning LivenessProbeErrored']);
    expect(h.kube.events[0]!.message).to.equal(
      `liveness probe errored (3 attempts) and was not counted; no verdict until it answers: ${ERRORED.message}`,
    );
    // The one write in 10 errored periods is that Event.
    expect(h.kube.writeRequests()).to.deep.equal(['POST /api/v1/namespaces/default/events']);
    expect(h.warnings.filter((w) => w.startsWith('probe errored'))).to.have.length(1);
    const text = await h.metrics.registry.metrics();
    expect(text).to.match(/probe_results_total\{result="errored"\} 10/);
    await h.stop();
  });

  it('writes nothing but its Event on a Cluster that has no verdict yet (no condition, no taint)', async () => {
    const h = harness({ fresh: ['errored'] });
    await h.run(5);
    expect(h.healthy('fresh')).to.equal(undefined);
    expect(h.tainted('fresh')).to.equal(false);
    expect(h.controller.stateOf('fresh')).to.equal('unknown');
    expect(h.kube.writeRequests()).to.deep.equal(['POST /api/v1/namespaces/default/events']);
    await h.stop();
  });

  it('neither breaks nor extends a run of failures: the taint comes with the third real failure', async () => {
    const h = harness(
      { m1: ['failure', 'failure', 'errored', 'errored', 'failure', 'failure'] },
      { conditions: [HEALTHY] },
    );
    await h.run(4);
    expect(h.tainted('m1'), 'two failures and two errored runs are not three failures').to.equal(false);
    expect(h.healthy('m1')?.status).to.equal('True');
    await h.run(1);
    expect(h.tainted('m1'), 'the errored runs did not restart the count').to.equal(true);
    expect(h.healthy('m1')).to.include({ status: 'False', reason: 'LivenessProbeFailed' });
    // One Event for the errored runs while healthy, one for the transition; a new state may tell an errored run again.
    expect(h.kube.events.map((e) => e.reason)).to.deep.equal(['LivenessProbeErrored', 'LivenessProbeFailed']);
    await h.stop();
  });

  it('tells an errored probe again after a transition, once per state', async () => {
    const h = harness(
      { m1: ['errored', 'failure', 'failure', 'failure', 'errored', 'errored'] },
      { conditions: [HEALTHY] },
    );
    await h.run(6);
    expect(h.kube.events.map((e) => e.reason)).to.deep.equal([
      'LivenessProbeErrored',
      'LivenessProbeFailed',
      'LivenessProbeErrored',
    ]);
    await h.stop();
  });

  it('with the disruption guard on, an errored Cluster beside failing ones is not judged healthy', async () => {
    // b and c fail three times; a only errors after it answered once. Judged: b and c, both failing: the prober
    // blames itself and withholds their verdicts, where counting a's old success would have let them through.
    const h = harness(
      { a: ['success', 'errored'], b: ['success', 'failure'], c: ['success', 'failure'] },
      { guard: true, conditions: [HEALTHY] },
    );
    await h.run(4);
    expect(h.tainted('a')).to.equal(false);
    expect(h.healthy('a')).to.deep.equal(HEALTHY);
    for (const n of ['b', 'c']) {
      expect(h.tainted(n), n).to.equal(false);
      expect(h.healthy(n), n).to.include({ status: 'Unknown', reason: 'ProberDisrupted' });
    }
    await h.stop();
  });
});
