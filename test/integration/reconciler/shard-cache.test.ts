// What a shard keeps in memory (issue 23): every shard watches the whole fleet, but caches in full only the Clusters it
// judges, without what the reconciler never reads (managedFields, a member's status beyond its conditions, Karmada's
// resourceModels); another shard's Cluster is a stub of its name, syncMode, failure domain and Healthy condition. The
// stubs still count in the disruption guard, the merge patches we write leave the fields we dropped alone on the
// server, and a Cluster that stops being ours (Push to Pull) is dropped to a stub and its worker stopped, then cached
// whole and probed again when it comes back.
import http from 'node:http';
import { expect } from 'chai';
import { ClusterController, createMetrics, shardOf } from '../../../src/reconciler/index.js';
import type { Cluster } from '../../../packages/schema/src/schema/index.js';
import { close, listen } from '../probe/servers.js';
import { FakeApiServer } from '../../support/fake-apiserver.js';
import { aCluster, healthyCondition, healthyOf, httpProbe } from '../../support/cluster.js';
import { HANG_MS, until } from './until.js';

const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
const SHARDS = 4;

/** A member's status as Karmada's status controller writes it: a few kB of API enablements and summaries. */
function memberStatus(): NonNullable<Cluster['status']> & Record<string, unknown> {
  return {
    kubernetesVersion: 'v1.35.4',
    apiEnablements: Array.from({ length: 40 }, (_, g) => ({
      groupVersion: `group${g}.example.io/v1`,
      resources: Array.from({ length: 6 }, (_, r) => ({ name: `resources${r}`, kind: `Resource${r}` })),
    })),
    nodeSummary: { totalNum: 3, readyNum: 3 },
    resourceSummary: { allocatable: { cpu: '12', memory: '48Gi', pods: '330' } },
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        reason: 'ClusterReady',
        message: 'cluster is healthy and ready to accept workloads',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
    ],
  } as NonNullable<Cluster['status']> & Record<string, unknown>;
}

describe('a shard caches in full only the Clusters it judges (in-memory apiserver, real probe target)', function () {
  this.timeout(4 * HANG_MS); // catches a hang only: each wait below has a HANG_MS deadline of its own
  let kube: FakeApiServer;
  let controller: ClusterController | undefined;
  let server: http.Server;
  let port = 0;

  before(async () => {
    server = http.createServer((_req, res) => res.writeHead(200).end());
    port = await listen(server);
  });
  after(async () => {
    await controller?.stop();
    await close(server);
  });

  const names = Array.from({ length: 24 }, (_, i) => `member-${i}`);
  const ours = names.filter((n) => shardOf(n, SHARDS) === 0);
  const theirs = names.filter((n) => shardOf(n, SHARDS) !== 0);

  function put(name: string, syncMode: 'Push' | 'Pull' = 'Push'): void {
    kube.putCluster(
      aCluster(name, {
        syncMode,
        region: 'eu',
        zones: ['a'],
        labels: { 'example.com/team': 'a' },
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': 'x'.repeat(2000) },
        metadata: {
          managedFields: [{ manager: 'karmada-controller-manager', operation: 'Update', fieldsV1: { 'f:status': {} } }],
        } as Cluster['metadata'],
        spec: {
          resourceModels: Array.from({ length: 9 }, (_, grade) => ({
            grade,
            ranges: [{ name: 'cpu', min: String(grade), max: String(grade + 1) }],
          })),
        },
        probe: httpProbe(port, `/${name}`, { periodSeconds: 1 }),
        status: memberStatus(),
      }),
    );
  }

  it('keeps its own whole but slim, the others as stubs; writes leave the dropped fields on the server', async () => {
    expect(ours.length, 'some Clusters in shard 0').to.be.greaterThan(2);
    expect(theirs.length, 'some Clusters in other shards').to.be.greaterThan(2);
    kube = new FakeApiServer();
    for (const n of names) put(n);
    // Another shard's verdict, as its replica wrote it: the stub keeps it for the guard.
    kube.updateCluster(theirs[0]!, (c) => c.status!.conditions!.push(healthyCondition('False')));
    controller = new ClusterController({
      api: kube,
      taintEffect: 'NoSchedule',
      metrics: createMetrics(),
      log: quiet,
      identity: 'shard-0',
      random: () => 0,
      shard: { index: 0, count: SHARDS },
    });
    controller.start();
    await until('every Cluster of shard 0 Healthy=True', () =>
      ours.every((n) => healthyOf(kube.cluster(n))?.status === 'True') ? true : undefined,
    );

    for (const n of ours) {
      const cached = controller.informer.get(n)!;
      expect(cached.spec.livenessProbe, `${n}: its probe`).to.not.equal(undefined);
      expect(cached.metadata?.annotations, `${n}: its annotations (where a probe may be)`).to.not.equal(undefined);
      expect(cached.metadata?.managedFields, `${n}: managedFields`).to.equal(undefined);
      expect(cached.spec.resourceModels, `${n}: resourceModels`).to.equal(undefined);
      expect(Object.keys(cached.status ?? {}), `${n}: status`).to.deep.equal(['conditions']);
      // On the server, our merge patches left what the cache dropped.
      const stored = kube.cluster(n)! as Cluster & { status: Record<string, unknown> };
      expect(stored.status.apiEnablements, `${n}: apiEnablements on the server`).to.have.length(40);
      expect(stored.spec.resourceModels, `${n}: resourceModels on the server`).to.have.length(9);
    }
    for (const n of theirs) {
      const cached = controller.informer.get(n)!;
      expect(Object.keys(cached.metadata ?? {}).sort(), `${n}: stub metadata`).to.deep.equal([
        'labels',
        'name',
        'resourceVersion',
        'uid',
      ]);
      expect(cached.spec, `${n}: stub spec`).to.deep.equal({ syncMode: 'Push', region: 'eu', zones: ['a'] });
      const whole = JSON.stringify(kube.cluster(n)).length;
      expect(JSON.stringify(cached).length, `${n}: stub size against the whole (${whole})`).to.be.below(whole / 10);
      expect(healthyOf(kube.cluster(n))?.reason, `${n}: not judged here`).to.satisfy(
        (r: string | undefined) => n === theirs[0] || r === undefined,
      );
    }
    expect(healthyOf(controller.informer.get(theirs[0]!))?.status, "another shard's verdict, kept").to.equal('False');
    // The guard counts it: one judged failing elsewhere, in the one domain.
    const assessed = controller.guard!.assess();
    expect(assessed.own).to.deep.equal({ total: ours.length, failing: 0 });
    expect(assessed.fleet.failing, "the other shard's failing Cluster, counted").to.equal(1);
    expect([...assessed.domains.keys()], 'its domain from the stub (region eu, zone a)').to.have.length(1);
    expect([...assessed.domains.keys()][0]).to.include('eu');
  });

  it('drops a Cluster that stops being ours to a stub and stops its worker; probes it again when it is back', async () => {
    const n = ours[0]!;
    put(n, 'Pull');
    await until(`${n} a stub`, () =>
      controller!.informer.get(n)?.spec.livenessProbe === undefined ? true : undefined,
    );
    await until(`${n}'s worker stopped`, () => (controller!.stateOf(n) === undefined ? true : undefined));
    put(n, 'Push');
    await until(`${n} whole again`, () =>
      controller!.informer.get(n)?.spec.livenessProbe !== undefined ? true : undefined,
    );
    await until(`${n} probed again`, () => (controller!.stateOf(n) !== undefined ? true : undefined));
  });
});
