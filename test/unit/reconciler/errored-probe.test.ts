// An errored probe in the reconciler (the kubelet's "probe errored": the answer could not be read in 3 attempts): the
// real probe workers, reconcile and writer against an in-memory Cluster, on a fake clock, with the probe's results
// chosen by the test. An errored Cluster is neither tainted nor marked Unknown, its run of failures goes on across the
// errored runs, and it costs one Warning Event per probe state, never one a period.
import { expect } from 'chai';
import { FakeClock } from '../probe/fake-clock.js';
import { ClusterReconciler } from '../../../src/reconciler/cluster-reconciler.js';
import { ProbeWorkers } from '../../../src/reconciler/probe-workers.js';
import { DisruptionGuard } from '../../../src/reconciler/disruption-guard.js';
import { DEFAULT_THRESHOLDS } from '../../../src/reconciler/disruption.js';
import { ClusterWriter, createMetrics, type KubeApi, type SecretStore } from '../../../src/reconciler/index.js';
import type { Cluster, Condition } from '../../../packages/schema/src/schema/index.js';
import type { ProbeResult } from '../../../packages/probe/src/index.js';

type Run = 'success' | 'failure' | 'errored';

const ERRORED: ProbeResult = {
  result: 'error',
  code: 'ProbeErrored',
  message: 'Get "http://10.0.0.1:8080/healthz": read tcp 10.0.0.1:8080: read: connection reset by peer',
  attempts: 3,
  durationMs: 3,
};

const HEALTHY: Condition = {
  type: 'Healthy',
  status: 'True',
  reason: 'LivenessProbeSucceeded',
  message: 'HTTP probe succeeded with statuscode: 200',
  lastTransitionTime: '2026-01-01T00:00:00Z',
};

/** Clusters in memory: merge patches bump the resourceVersion; every request is logged, Events by reason. */
class Clusters implements KubeApi {
  rv = 1;
  readonly calls: string[] = [];
  readonly events: { reason: string; type: string; message: string }[] = [];
  readonly store = new Map<string, Cluster>();
  async request<T>(method: string, path: string, options: { body?: unknown } = {}): Promise<T> {
    this.calls.push(`${method} ${path.replace('/apis/cluster.karmada.io/v1alpha1/clusters/', '')}`);
    if (method === 'POST') {
      const e = options.body as { reason: string; type: string; message: string };
      this.events.push({ reason: e.reason, type: e.type, message: e.message });
      return {} as T;
    }
    const name = decodeURIComponent(path.split('/clusters/')[1]!.replace(/\/status$/, ''));
    const c = structuredClone(this.store.get(name)!);
    if (method === 'PATCH') {
      const body = options.body as { spec?: object; status?: object };
      if (path.endsWith('/status')) c.status = { ...c.status, ...body.status };
      else c.spec = { ...c.spec, ...body.spec };
      c.metadata!.resourceVersion = String(++this.rv);
      this.store.set(name, c);
    }
    return structuredClone(c) as T;
  }
  watch(): Promise<void> {
    return Promise.reject(new Error('no watch here'));
  }
  /** Writes only: PATCHes and Events (POST). */
  writes(): string[] {
    return this.calls.filter((c) => !c.startsWith('GET'));
  }
}

/**
 * The controller's loop, by hand: the workers' transitions and errored Events queue a Cluster, the queue is drained
 * after every step of the clock, and the cache catches up with the writes (the informer) after each drain.
 */
function harness(runs: Record<string, Run[]>, options: { guard?: boolean; conditions?: Condition[] } = {}) {
  const clock = new FakeClock(1_000_000);
  const api = new Clusters();
  const cache = new Map<string, Cluster>();
  const queue: string[] = [];
  const metrics = createMetrics();
  const warnings: string[] = [];
  const log = { info: () => undefined, warn: (_o: object, msg: string) => void warnings.push(msg) };
  const index = new Map<string, number>();
  for (const name of Object.keys(runs)) {
    const c: Cluster = {
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name, uid: `uid-${name}`, resourceVersion: '1' },
      spec: {
        syncMode: 'Push',
        livenessProbe: {
          httpGet: { host: '10.0.0.1', port: 8080, path: `/healthz/${name}` },
          periodSeconds: 10,
          failureThreshold: 3,
        },
      },
      ...(options.conditions !== undefined ? { status: { conditions: options.conditions } } : {}),
    };
    api.store.set(name, c);
    cache.set(name, structuredClone(c));
  }
  const guard =
    options.guard === true
      ? new DisruptionGuard({
          mode: { kind: 'none' },
          thresholds: DEFAULT_THRESHOLDS,
          partialDisruptionRate: 0.01,
          taintEffect: 'NoSchedule',
          clock,
          metrics,
          log,
          get: (n) => cache.get(n),
          stateOf: (n) => workers.stateOf(n),
          requeue: (n) => void queue.push(n),
        })
      : undefined;
  const workers: ProbeWorkers = new ProbeWorkers({
    secrets: {} as SecretStore,
    metrics,
    log,
    clock,
    random: () => 0,
    ...(guard !== undefined ? { guard } : {}),
    onTransition: (name) => void queue.push(name),
    onErrored: (name) => void queue.push(name),
    runProbe: (probe) => {
      // Which Cluster: each probes a path of its own name.
      const name = (probe.httpGet?.path ?? '').replace('/healthz/', '');
      const i = index.get(name) ?? 0;
      index.set(name, i + 1);
      const run = runs[name]![Math.min(i, runs[name]!.length - 1)]!;
      return Promise.resolve(run === 'errored' ? ERRORED : { result: run, message: `probe ${run}`, durationMs: 1 });
    },
  });
  const reconciler = new ClusterReconciler({
    get: (n) => cache.get(n),
    owns: () => true,
    workers,
    ...(guard !== undefined ? { guard } : {}),
    writer: new ClusterWriter({
      api,
      taintEffect: 'NoSchedule',
      metrics,
      log,
      identity: 't',
      eventNamespace: 'default',
      clock,
    }),
  });
  const drain = async (): Promise<void> => {
    while (queue.length > 0) {
      const name = queue.shift()!;
      if ((await reconciler.reconcile(name)).requeue === true) queue.push(name);
    }
    for (const [name, c] of api.store) cache.set(name, structuredClone(c));
  };
  /** Starts every worker (the first reconcile of each Cluster), then runs `periods` periods of 10 s. */
  let started = false;
  const run = async (periods: number): Promise<void> => {
    for (let p = 0; p < periods; p++) {
      if (!started) for (const name of Object.keys(runs)) queue.push(name);
      await drain();
      // The first runs are due at once (no jitter), the next ones a period apart.
      await clock.advance(started ? 10_000 : 1);
      started = true;
      await drain();
    }
  };
  const healthy = (name: string): Condition | undefined =>
    api.store.get(name)!.status?.conditions?.find((c) => c.type === 'Healthy');
  const tainted = (name: string): boolean =>
    (api.store.get(name)!.spec.taints ?? []).some((t) => t.key === 'cluster.karmada.io/unhealthy');
  return { api, workers, metrics, warnings, run, healthy, tainted, stop: () => workers.stop() };
}

describe('reconciler: an errored probe', () => {
  it('is neither tainted nor marked Unknown, and tells one Event in 10 periods, not one a period', async () => {
    const h = harness({ m1: ['errored'] }, { conditions: [HEALTHY] });
    await h.run(10);
    expect(h.tainted('m1')).to.equal(false);
    expect(h.healthy('m1')).to.deep.equal(HEALTHY);
    expect(h.workers.stateOf('m1')).to.equal('success');
    expect(h.api.events.map((e) => `${e.type} ${e.reason}`)).to.deep.equal(['Warning LivenessProbeErrored']);
    expect(h.api.events[0]!.message).to.equal(
      `liveness probe errored (3 attempts) and was not counted; no verdict until it answers: ${ERRORED.message}`,
    );
    // The one write in 10 errored periods is that Event.
    expect(h.api.writes()).to.deep.equal(['POST /api/v1/namespaces/default/events']);
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
    expect(h.workers.stateOf('fresh')).to.equal('unknown');
    expect(h.api.writes()).to.deep.equal(['POST /api/v1/namespaces/default/events']);
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
    expect(h.api.events.map((e) => e.reason)).to.deep.equal(['LivenessProbeErrored', 'LivenessProbeFailed']);
    await h.stop();
  });

  it('tells an errored probe again after a transition, once per state', async () => {
    const h = harness(
      { m1: ['errored', 'failure', 'failure', 'failure', 'errored', 'errored'] },
      { conditions: [HEALTHY] },
    );
    await h.run(6);
    expect(h.api.events.map((e) => e.reason)).to.deep.equal([
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
