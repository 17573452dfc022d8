// The reconcile of one Cluster (cluster-reconciler.ts), with the probe workers stubbed and the real writer against the
// in-memory apiserver (its resourceVersion preconditions enforced): a deleted or foreign Cluster stops its worker and
// writes nothing; a failing one gets its taint alone first and is queued again, then its condition and Event; the
// second pass reads our own write while the cache is behind it, so nothing is written twice.
import { expect } from 'chai';
import { ClusterReconciler } from '../../../src/reconciler/cluster-reconciler.js';
import type { ProbeWorkers, StopReason } from '../../../src/reconciler/probe-workers.js';
import { ClusterWriter, createMetrics, type Desired } from '../../../src/reconciler/index.js';
import { CLUSTERS, FakeApiServer } from '../../support/fake-apiserver.js';
import { aCluster } from '../../support/cluster.js';
import type { Cluster } from '../../../packages/schema/src/schema/index.js';

class Workers {
  readonly ensured: string[] = [];
  readonly removed: [string, StopReason][] = [];
  desiredState: Desired | undefined = { kind: 'state', state: 'failure', message: 'HTTP probe failed' };
  ensure(c: Cluster): void {
    this.ensured.push(c.metadata?.name ?? '');
  }
  desired(): Desired | undefined {
    return this.desiredState;
  }
  remove(name: string, reason: StopReason): void {
    this.removed.push([name, reason]);
  }
  takeErroredEvent(): undefined {
    return undefined;
  }
}

/** Every request the apiserver took, a Cluster's path as its name alone. */
function callsTo(api: FakeApiServer): string[] {
  return api.requests.map((r) => r.replace(`${CLUSTERS}/`, ''));
}

function setup(owns = true): {
  api: FakeApiServer;
  workers: Workers;
  requeued: string[];
  cache: Map<string, Cluster>;
  reconciler: Pick<ClusterReconciler, 'reconcile'>;
} {
  const api = new FakeApiServer();
  const cache = new Map<string, Cluster>([['m1', api.putCluster(aCluster('m1'))]]);
  const workers = new Workers();
  const requeued: string[] = [];
  const inner = new ClusterReconciler({
    get: (name) => cache.get(name),
    owns: () => owns,
    workers: workers as unknown as ProbeWorkers,
    writer: new ClusterWriter({
      api,
      taintEffect: 'NoSchedule',
      metrics: createMetrics(),
      log: { info: () => undefined, warn: () => undefined },
      identity: 't',
      eventNamespace: 'default',
    }),
  });
  // What the controller does with the result: `{ requeue: true }` queues the Cluster again.
  const reconciler = {
    reconcile: async (name: string) => {
      const next = await inner.reconcile(name);
      if (next.requeue === true) requeued.push(name);
      return next;
    },
  };
  return { api, workers, requeued, cache, reconciler };
}

describe('reconciler: reconcile(name)', () => {
  it('writes the taint alone and queues the Cluster again; the next pass writes the condition and its Event', async () => {
    const { api, workers, requeued, reconciler } = setup();
    await reconciler.reconcile('m1');
    expect(workers.ensured).to.deep.equal(['m1']);
    expect(callsTo(api)).to.deep.equal(['PATCH m1']);
    expect(requeued).to.deep.equal(['m1']);
    // The cache has not seen the taint write yet: the second pass plans from our own write, not from the cache.
    await reconciler.reconcile('m1');
    expect(callsTo(api)).to.deep.equal(['PATCH m1', 'PATCH m1/status', 'POST /api/v1/namespaces/default/events']);
    expect(requeued).to.deep.equal(['m1']);
    await reconciler.reconcile('m1');
    expect(callsTo(api)).to.have.length(3);
  });

  it('stops the worker of a deleted Cluster and writes nothing', async () => {
    const { api, workers, cache, reconciler } = setup();
    cache.delete('m1');
    await reconciler.reconcile('m1');
    expect(workers.removed).to.deep.equal([['m1', 'deleted']]);
    expect(workers.ensured).to.deep.equal([]);
    expect(callsTo(api)).to.deep.equal([]);
  });

  it('stops the worker of a Cluster this replica does not own and writes nothing', async () => {
    const { api, workers, reconciler } = setup(false);
    await reconciler.reconcile('m1');
    expect(workers.removed).to.deep.equal([['m1', 'not-owned']]);
    expect(callsTo(api)).to.deep.equal([]);
  });

  it('writes nothing while the probe has no result yet', async () => {
    const { api, workers, requeued, reconciler } = setup();
    workers.desiredState = { kind: 'keep' };
    await reconciler.reconcile('m1');
    expect(workers.ensured).to.deep.equal(['m1']);
    expect(callsTo(api)).to.deep.equal([]);
    expect(requeued).to.deep.equal([]);
  });
});
