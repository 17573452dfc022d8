// The writer against the in-memory apiserver (test/support/fake-apiserver.ts), which enforces resourceVersion
// preconditions on merge patches: conflicts are re-read and re-planned, others' concurrent taints survive, a steady
// Cluster costs no write, an Event per change.
import { expect } from 'chai';
import { FakeClock } from '../../support/fake-clock.js';
import { FakeApiServer } from '../../support/fake-apiserver.js';
import { aCluster } from '../../support/cluster.js';
import {
  ClusterWriter,
  KubeApiError,
  createMetrics,
  type Desired,
  type KubeApi,
  type ReconcilerMetrics,
} from '../../../src/reconciler/index.js';

const quiet = { info: () => undefined, warn: () => undefined };
const failed: Desired = { kind: 'state', state: 'failure', message: 'HTTP probe failed with statuscode: 500' };
const cluster = aCluster('m1', { taints: [{ key: 'example.com/maintenance', effect: 'NoSchedule' }] });

/** The apiserver with the one Cluster stored, at resourceVersion 1. */
function apiserver(): FakeApiServer {
  const api = new FakeApiServer();
  api.putCluster(cluster);
  return api;
}

function writer(api: KubeApi, metrics: ReconcilerMetrics): ClusterWriter {
  return new ClusterWriter({
    api,
    taintEffect: 'NoSchedule',
    metrics,
    log: quiet,
    identity: 'test-replica',
    eventNamespace: 'default',
    clock: new FakeClock(0, Date.parse('2026-03-01T12:00:00Z')),
  });
}

async function count(metrics: ReconcilerMetrics, labels: Partial<Record<'kind' | 'outcome', string>>): Promise<number> {
  const m = await metrics.writes.get();
  return m.values
    .filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k as 'kind' | 'outcome'] === x))
    .reduce((a, v) => a + v.value, 0);
}

describe('reconciler cluster writer', () => {
  it('writes the taint, then the condition and its Event, each guarded by the resourceVersion, and one Event', async () => {
    const api = apiserver();
    const metrics = createMetrics();
    const out = await writer(api, metrics).apply(api.cluster('m1')!, failed);
    expect(out.wrote).to.deep.equal({ status: true, taints: true, event: true });
    // The taint first: it is what stops the scheduler. The Event is told right after the condition it tells of.
    expect(api.requests).to.deep.equal([
      'PATCH /apis/cluster.karmada.io/v1alpha1/clusters/m1',
      'PATCH /apis/cluster.karmada.io/v1alpha1/clusters/m1/status',
      'POST /api/v1/namespaces/default/events',
    ]);
    expect(api.cluster('m1')!.spec.taints!.map((t) => t.key)).to.deep.equal([
      'example.com/maintenance',
      'cluster.karmada.io/unhealthy',
    ]);
    expect(api.cluster('m1')!.status!.conditions![0]).to.include({ type: 'Healthy', status: 'False' });
    expect(api.events).to.have.length(1);
    expect(api.events[0]).to.deep.include({ reason: 'LivenessProbeFailed', type: 'Warning' });
    expect(out.staleVersions).to.deep.equal(['1', '2']);
  });

  it('with taintsOnly writes a needed taint alone, and the condition and its Event on the next call', async () => {
    const api = apiserver();
    const metrics = createMetrics();
    const w = writer(api, metrics);
    const first = await w.apply(api.cluster('m1')!, failed, { taintsOnly: true });
    expect(first.wrote).to.deep.equal({ status: false, taints: true, event: false });
    expect(api.requests).to.deep.equal(['PATCH /apis/cluster.karmada.io/v1alpha1/clusters/m1']);
    const second = await w.apply(first.cluster!, failed, { taintsOnly: true });
    expect(second.wrote).to.deep.equal({ status: true, taints: false, event: true });
    expect(api.requests.slice(1)).to.deep.equal([
      'PATCH /apis/cluster.karmada.io/v1alpha1/clusters/m1/status',
      'POST /api/v1/namespaces/default/events',
    ]);
    expect(api.cluster('m1')!.status!.conditions![0]).to.include({ type: 'Healthy', status: 'False' });
  });

  it('writes nothing for a Cluster already in the desired state', async () => {
    const api = apiserver();
    const metrics = createMetrics();
    await writer(api, metrics).apply(api.cluster('m1')!, failed);
    api.requests.length = 0;
    const again = await writer(api, metrics).apply(api.cluster('m1')!, failed);
    expect(again.wrote).to.deep.equal({ status: false, taints: false, event: false });
    expect(api.requests).to.deep.equal([]);
  });

  it('re-reads on 409 and keeps a taint another controller added meanwhile', async () => {
    const api = apiserver();
    const metrics = createMetrics();
    const stale = api.cluster('m1')!;
    await writer(api, metrics).apply(stale, { kind: 'state', state: 'success', message: 'ok' });
    // Our cache is now behind; another controller adds its taint just before our taint patch lands.
    const cached = api.cluster('m1')!;
    api.beforeNext('PATCH', () => {
      api.updateCluster(
        'm1',
        (c) => (c.spec.taints = [...(c.spec.taints ?? []), { key: 'other.io/drain', effect: 'NoExecute' }]),
      );
    });
    const out = await writer(api, metrics).apply(cached, failed);
    expect(out.wrote.taints).to.equal(true);
    expect(api.cluster('m1')!.spec.taints!.map((t) => t.key)).to.deep.equal([
      'example.com/maintenance',
      'other.io/drain',
      'cluster.karmada.io/unhealthy',
    ]);
    expect(await count(metrics, { outcome: 'conflict' })).to.equal(1);
    expect(api.events.filter((e) => e.reason === 'LivenessProbeFailed')).to.have.length(1);
  });

  it('writes nothing once it may no longer write: a 409 that comes back after the lease was lost is not retried', async () => {
    // Found by the control-plane faults e2e (docs/controlplane-faults.md, defect 2): a write held by the apiserver
    // while the leader was cut off came back 409 after it had lost the lease, and the writer re-read the Cluster and
    // wrote the verdict it had been given before: a follower's taint on a healthy Cluster.
    const api = apiserver();
    const metrics = createMetrics();
    let leading = true;
    api.beforeNext('PATCH', () => {
      api.updateCluster('m1', (c) => (c.metadata!.labels = { karmada: 'wrote meanwhile' }));
      leading = false;
    });
    const w = new ClusterWriter({
      api,
      taintEffect: 'NoSchedule',
      metrics,
      log: quiet,
      identity: 'r',
      eventNamespace: 'default',
      mayWrite: () => leading,
    });
    const out = await w.apply(api.cluster('m1')!, failed);
    expect(out.wrote).to.deep.equal({ status: false, taints: false, event: false });
    expect(out.fenced).to.equal(true);
    expect(api.requests).to.deep.equal(['PATCH /apis/cluster.karmada.io/v1alpha1/clusters/m1']);
    expect(api.cluster('m1')!.spec.taints!.map((t) => t.key)).to.deep.equal(['example.com/maintenance']);
    expect(api.events).to.have.length(0);
  });

  it('drops a write still waiting for the rate limit when every write is fenced, and says it was fenced', async () => {
    // Found by the sharding e2e: writes that had passed mayWrite waited in the client's rate limit and went out up to
    // 1.6 s after the replica's renew deadline, when its peers could already count its Lease expired.
    const api = apiserver();
    const metrics = createMetrics();
    const fence = new AbortController();
    let release!: () => void;
    const queued = new Promise<void>((r) => (release = r));
    const limited: KubeApi = {
      // The client's order: wait for the rate limit, then send only if the signal has not been aborted meanwhile.
      request: async <T>(method: string, path: string, options: { signal?: AbortSignal; body?: unknown } = {}) => {
        await queued;
        if (options.signal?.aborted === true) throw options.signal.reason as Error;
        return api.request<T>(method, path, options);
      },
      watch: () => Promise.reject(new Error('no watch here')),
    };
    const w = new ClusterWriter({
      api: limited,
      taintEffect: 'NoSchedule',
      metrics,
      log: quiet,
      identity: 'r',
      eventNamespace: 'default',
      signal: fence.signal,
    });
    const out = w.apply(api.cluster('m1')!, failed);
    fence.abort(new Error('writes fenced'));
    release();
    expect((await out).fenced).to.equal(true);
    expect(api.requests).to.deep.equal([]);
    expect(api.cluster('m1')!.spec.taints!.map((t) => t.key)).to.deep.equal(['example.com/maintenance']);
  });

  it('asks before each write: the condition and its Event are not written once the Cluster is released', async () => {
    const api = apiserver();
    const metrics = createMetrics();
    let writes = 0;
    const w = new ClusterWriter({
      api,
      taintEffect: 'NoSchedule',
      metrics,
      log: quiet,
      identity: 'r',
      eventNamespace: 'default',
      // Released (another replica's now) right after the taint was written.
      mayWrite: () => writes++ < 1,
    });
    const out = await w.apply(api.cluster('m1')!, failed);
    expect(out.wrote).to.deep.equal({ status: false, taints: true, event: false });
    expect(api.requests).to.deep.equal(['PATCH /apis/cluster.karmada.io/v1alpha1/clusters/m1']);
    expect(api.events).to.have.length(0);
  });

  it('gives up after the conflict retries and lets the queue retry later', async () => {
    const api = apiserver();
    const metrics = createMetrics();
    let races = 0;
    const race = (): void => {
      races++;
      api.updateCluster('m1', (c) => (c.metadata!.labels = { n: String(races) }));
      api.beforeNext('PATCH', race);
    };
    api.beforeNext('PATCH', race);
    const w = new ClusterWriter({
      api,
      taintEffect: 'NoSchedule',
      metrics,
      log: quiet,
      identity: 'r',
      eventNamespace: 'default',
      maxConflictRetries: 2,
    });
    let err: unknown;
    await w.apply(api.cluster('m1')!, failed).catch((e: unknown) => (err = e));
    expect(err).to.be.instanceOf(KubeApiError);
    expect((err as KubeApiError).status).to.equal(409);
    expect(races).to.equal(3);
  });
});
