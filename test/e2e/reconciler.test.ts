// The reconciler end to end: a real kube-apiserver holding Clusters, the real `cluster-probe reconcile` CLI, loopback
// health servers the tests turn bad and good, and a second kube-apiserver as a member whose Nodes' Ready condition the
// apiServer probe counts. Taints, conditions, Events, restarts, leader election and deletion, with bounded waits.
import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient, type KubeApi } from '../../src/kube/index.js';
import { shardOf } from '../../src/reconciler/index.js';
import type { Cluster } from '../../packages/schema/src/schema/index.js';
import { startControlPlane, type ControlPlane } from './harness/controlplane.js';
import {
  restartApiServer,
  sleep,
  startHealthServer,
  startReconciler,
  waitFor,
  type HealthServer,
  type ReconcilerProcess,
  type RestartedApiServer,
} from './support/reconciler-env.js';

const CRD = fileURLToPath(new URL('../../manifests/crd/cluster.karmada.io_clusters.yaml', import.meta.url));
const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';
const TAINT = 'cluster.karmada.io/unhealthy';
const PERIOD_S = 1;
const FAILURE_THRESHOLD = 2;
/** The bound: failureThreshold x period + 2 s. */
const BOUND_MS = FAILURE_THRESHOLD * PERIOD_S * 1000 + 2000;

interface EventObject {
  reason?: string;
  type?: string;
  involvedObject?: { name?: string; kind?: string };
  reportingInstance?: string;
}

function httpCluster(name: string, port: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name },
    spec: {
      syncMode: 'Push',
      apiEndpoint: 'https://127.0.0.1:6443',
      livenessProbe: {
        httpGet: { host: '127.0.0.1', port, path: '/healthz' },
        periodSeconds: PERIOD_S,
        failureThreshold: FAILURE_THRESHOLD,
        successThreshold: 1,
        timeoutSeconds: 1,
      },
      ...extra,
    },
  };
}

describe('reconciler (e2e)', function () {
  this.timeout(300_000);
  let host: ControlPlane | undefined;
  let member: ControlPlane | undefined;
  let api: KubeApi;
  let memberApi: KubeApi;
  const servers = new Map<string, HealthServer>();
  const procs: ReconcilerProcess[] = [];
  let restarted: RestartedApiServer | undefined;
  let r1: ReconcilerProcess | undefined;

  const apply = async (cp: ControlPlane, obj: unknown): Promise<void> => {
    const out = await cp.kubectl(['apply', '-f', '-'], { input: JSON.stringify(obj) });
    if (out.code !== 0) throw new Error(`kubectl apply failed: ${out.stderr}`);
  };
  const kubectlOk = async (cp: ControlPlane, args: string[]): Promise<string> => {
    const out = await cp.kubectl(args);
    if (out.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed: ${out.stderr}`);
    return out.stdout;
  };
  const getCluster = (name: string): Promise<Cluster> => api.request<Cluster>('GET', `${CLUSTERS}/${name}`);
  const healthy = (c: Cluster): string | undefined => c.status?.conditions?.find((x) => x.type === 'Healthy')?.status;
  const reason = (c: Cluster): string | undefined => c.status?.conditions?.find((x) => x.type === 'Healthy')?.reason;
  const tainted = (c: Cluster): boolean => (c.spec.taints ?? []).some((t) => t.key === TAINT);
  const events = async (cluster: string): Promise<EventObject[]> =>
    (
      await api.request<{ items: EventObject[] }>('GET', '/api/v1/namespaces/default/events', {
        query: { fieldSelector: `involvedObject.name=${cluster}` },
      })
    ).items;
  const waitCluster = (what: string, name: string, ok: (c: Cluster) => boolean, timeoutMs: number) =>
    waitFor(`${name}: ${what}`, timeoutMs, async () => {
      const c = await getCluster(name);
      return ok(c) ? c : undefined;
    });
  const setNodeReady = async (name: string, ready: boolean): Promise<void> => {
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    await memberApi.request('PATCH', `/api/v1/nodes/${name}/status`, {
      contentType: 'application/merge-patch+json',
      body: {
        status: {
          conditions: [
            {
              type: 'Ready',
              status: ready ? 'True' : 'False',
              reason: ready ? 'KubeletReady' : 'KubeletNotReady',
              message: ready ? 'kubelet is posting ready status' : 'flipped by the e2e test',
              lastHeartbeatTime: now,
              lastTransitionTime: now,
            },
          ],
        },
      },
    });
  };

  before(async function () {
    [host, member] = await Promise.all([startControlPlane(), startControlPlane()]);
    await host.applyCrd(CRD);
    const kc = new KubeConfig();
    kc.loadFromFile(host.kubeconfigPath);
    api = new KubeClient(kc);
    const mkc = new KubeConfig();
    mkc.loadFromFile(member.kubeconfigPath);
    memberApi = new KubeClient(mkc);

    for (const name of ['c-flip', 'c-steady', 'c-deleted', 'c-legacy', 'c-annotation', 'c-ha'])
      servers.set(name, await startHealthServer());
    const port = (n: string): number => servers.get(n)!.port;
    await apply(
      host,
      httpCluster('c-flip', port('c-flip'), {
        taints: [{ key: 'example.com/maintenance', value: 'planned', effect: 'NoSchedule' }],
      }),
    );
    await apply(host, httpCluster('c-steady', port('c-steady')));
    await apply(host, httpCluster('c-deleted', port('c-deleted')));
    await apply(host, httpCluster('c-ha', port('c-ha')));
    await apply(host, {
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: {
        name: 'c-legacy',
        annotations: {
          'cluster.karmada.io/health-checker': JSON.stringify({ url: `http://127.0.0.1:${port('c-legacy')}/healthz` }),
        },
      },
      spec: { syncMode: 'Push', apiEndpoint: 'https://127.0.0.1:6443' },
    });
    await apply(host, {
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: {
        name: 'c-annotation',
        annotations: {
          'cluster.karmada.io/liveness-probe': JSON.stringify({
            tcpSocket: { host: '127.0.0.1', port: port('c-annotation') },
            periodSeconds: 1,
          }),
        },
      },
      spec: { syncMode: 'Push', apiEndpoint: 'https://127.0.0.1:6443' },
    });
    await apply(
      host,
      httpCluster('c-badport', 1, {
        livenessProbe: { httpGet: { host: '127.0.0.1', port: 'nosuchservice' }, periodSeconds: 1 },
      }),
    );

    // The member: a service account allowed to list nodes and pods, its token and the member's CA in a Secret.
    await apply(member, {
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'karmada-probe', namespace: 'default' } },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          metadata: { name: 'karmada-probe' },
          rules: [{ apiGroups: [''], resources: ['nodes', 'pods'], verbs: ['list'] }],
        },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: 'karmada-probe' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'karmada-probe' },
          subjects: [{ kind: 'ServiceAccount', name: 'karmada-probe', namespace: 'default' }],
        },
        { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-a' } },
        { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-b' } },
      ],
    });
    await setNodeReady('node-a', true);
    await setNodeReady('node-b', true);
    const token = (
      await kubectlOk(member, ['create', 'token', 'karmada-probe', '-n', 'default', '--duration=2h'])
    ).trim();
    await apply(host, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'karmada-cluster' } });
    await apply(host, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'member-api', namespace: 'karmada-cluster' },
      data: {
        token: Buffer.from(token).toString('base64'),
        caBundle: Buffer.from(member.caPem).toString('base64'),
      },
    });
    const apiCluster = (name: string, secret: string) => ({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name },
      spec: {
        syncMode: 'Push',
        apiEndpoint: member!.url,
        secretRef: { namespace: 'karmada-cluster', name: secret },
        livenessProbe: {
          apiServer: { path: '/readyz', minReadyNodes: 2 },
          periodSeconds: PERIOD_S,
          failureThreshold: FAILURE_THRESHOLD,
          timeoutSeconds: 2,
        },
      },
    });
    await apply(host, apiCluster('c-member', 'member-api'));
    await apply(host, apiCluster('c-nosecret', 'member-api-later'));
  });

  after(async function () {
    for (const p of procs) await p.kill('SIGKILL');
    for (const s of servers.values()) await s.close();
    await restarted?.stop();
    await Promise.all([host?.stop(), member?.stop()]);
  });

  const launch = async (name: string, args: string[] = []): Promise<ReconcilerProcess> => {
    const p = await startReconciler(name, host!.kubeconfigPath, args);
    procs.push(p);
    return p;
  };

  it('marks every probed Cluster Healthy, from the field, the probe annotation and the legacy annotation', async function () {
    r1 = await launch('r1');
    for (const name of ['c-flip', 'c-steady', 'c-deleted', 'c-legacy', 'c-annotation', 'c-ha', 'c-member'])
      await waitCluster('Healthy=True', name, (c) => healthy(c) === 'True' && !tainted(c), 15_000);
    const flip = await getCluster('c-flip');
    expect(reason(flip)).to.equal('LivenessProbeSucceeded');
    expect(flip.spec.taints).to.deep.equal([
      { key: 'example.com/maintenance', value: 'planned', effect: 'NoSchedule' },
    ]);
    expect((await events('c-flip')).map((e) => e.reason)).to.include('LivenessProbeSucceeded');
  });

  it("taints, sets Healthy=False and records an Event within failureThreshold x period + 2 s, keeping others' taints", async function () {
    servers.get('c-flip')!.healthy = false;
    const started = Date.now();
    const c = await waitCluster(
      'tainted and Healthy=False',
      'c-flip',
      (x) => tainted(x) && healthy(x) === 'False',
      10_000,
    );
    const elapsed = Date.now() - started;
    console.log(`      c-flip tainted ${elapsed} ms after its server turned bad (bound ${BOUND_MS} ms)`);
    expect(elapsed).to.be.below(BOUND_MS);
    expect(reason(c)).to.equal('LivenessProbeFailed');
    expect(c.spec.taints!.map((t) => `${t.key}:${t.effect}`)).to.deep.equal([
      'example.com/maintenance:NoSchedule',
      `${TAINT}:NoSchedule`,
    ]);
    const ev = await waitFor('a LivenessProbeFailed Event', 5_000, async () =>
      (await events('c-flip')).find((e) => e.reason === 'LivenessProbeFailed'),
    );
    expect(ev.type).to.equal('Warning');
    expect(ev.involvedObject?.kind).to.equal('Cluster');
  });

  it('removes the taint and sets Healthy=True on recovery', async function () {
    servers.get('c-flip')!.healthy = true;
    const c = await waitCluster(
      'untainted and Healthy=True',
      'c-flip',
      (x) => !tainted(x) && healthy(x) === 'True',
      BOUND_MS,
    );
    expect(c.spec.taints).to.deep.equal([{ key: 'example.com/maintenance', value: 'planned', effect: 'NoSchedule' }]);
    const ok = (await events('c-flip')).filter((e) => e.reason === 'LivenessProbeSucceeded');
    expect(ok.length).to.equal(2);
  });

  it('reports a configuration error as Unknown/LivenessProbeError and taints nothing', async function () {
    const c = await waitCluster('Healthy=Unknown', 'c-badport', (x) => healthy(x) === 'Unknown', 10_000);
    expect(reason(c)).to.equal('LivenessProbeError');
    expect(tainted(c)).to.equal(false);
    const missing = await waitCluster('Healthy=Unknown', 'c-nosecret', (x) => healthy(x) === 'Unknown', 10_000);
    expect(missing.status!.conditions!.find((x) => x.type === 'Healthy')!.message).to.include('not found');
    expect(tainted(missing)).to.equal(false);
  });

  it("reads the Secret again when it appears, and the apiServer check follows the member's Node Ready conditions", async function () {
    const secret = await api.request<{ data: Record<string, string> }>(
      'GET',
      '/api/v1/namespaces/karmada-cluster/secrets/member-api',
    );
    await apply(host!, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'member-api-later', namespace: 'karmada-cluster' },
      data: secret.data,
    });
    await waitCluster('Healthy=True once the Secret exists', 'c-nosecret', (x) => healthy(x) === 'True', 10_000);

    await setNodeReady('node-b', false);
    const started = Date.now();
    const c = await waitCluster('tainted', 'c-member', (x) => tainted(x) && healthy(x) === 'False', 10_000);
    const elapsed = Date.now() - started;
    console.log(`      c-member tainted ${elapsed} ms after node-b turned NotReady`);
    expect(elapsed).to.be.below(BOUND_MS);
    expect(c.status!.conditions!.find((x) => x.type === 'Healthy')!.message).to.match(
      /1 Ready nodes, fewer than the 2/,
    );
    await setNodeReady('node-b', true);
    await waitCluster('untainted', 'c-member', (x) => !tainted(x) && healthy(x) === 'True', BOUND_MS);
  });

  it('stops the worker of a deleted Cluster', async function () {
    const server = servers.get('c-deleted')!;
    await kubectlOk(host!, ['delete', 'clusters.cluster.karmada.io', 'c-deleted', '--wait=false']);
    await r1!.waitForLog('worker stopped', (l) => l.msg === 'worker stopped' && l.cluster === 'c-deleted', 5_000);
    expect(await r1!.metric('cluster_probe_reconciler_workers_stopped_total', { reason: 'deleted' })).to.equal(1);
    const before = server.requests;
    await sleep(3 * PERIOD_S * 1000);
    expect(server.requests - before, 'probes after deletion').to.equal(0);
  });

  it('writes nothing again after being killed and restarted (no duplicate writes)', async function () {
    // Settle: one more probe period so that nothing is in flight.
    await sleep(1500);
    const names = ['c-flip', 'c-steady', 'c-legacy', 'c-annotation', 'c-ha', 'c-member', 'c-badport', 'c-nosecret'];
    const versions = async () =>
      Object.fromEntries(
        await Promise.all(names.map(async (n) => [n, (await getCluster(n)).metadata?.resourceVersion])),
      );
    const eventCount = async () =>
      (await api.request<{ items: unknown[] }>('GET', '/api/v1/namespaces/default/events')).items.length;
    const before = await versions();
    const eventsBefore = await eventCount();
    await r1!.kill('SIGKILL');
    const r2 = await launch('r2');
    await waitFor(
      'r2 ready',
      15_000,
      async () => (await fetch(`http://127.0.0.1:${r2.metricsPort}/readyz`)).status === 200,
    );
    await sleep(5 * PERIOD_S * 1000);
    expect(await r2.metric('cluster_probe_reconciler_probe_results_total')).to.be.above(10);
    expect(await versions()).to.deep.equal(before);
    expect(await eventCount()).to.equal(eventsBefore);
    expect(await r2.metric('cluster_probe_reconciler_writes_total', { kind: 'status' })).to.equal(0);
    expect(await r2.metric('cluster_probe_reconciler_writes_total', { kind: 'taints' })).to.equal(0);
    r1 = r2;
  });

  it('survives a kube-apiserver restart: the watch comes back and transitions are written', async function () {
    restarted = await restartApiServer(host!, 2_000);
    await waitFor('a watch restart', 30_000, async () =>
      (await r1!.metric('cluster_probe_reconciler_watch_restarts_total', { resource: 'clusters' })) > 0
        ? true
        : undefined,
    );
    servers.get('c-steady')!.healthy = false;
    await waitCluster('tainted after the restart', 'c-steady', (x) => tainted(x) && healthy(x) === 'False', 30_000);
    servers.get('c-steady')!.healthy = true;
    await waitCluster('untainted after the restart', 'c-steady', (x) => !tainted(x) && healthy(x) === 'True', 15_000);
  });

  it('with two replicas and leader election, only the leader writes; the follower takes over within the lease', async function () {
    const r2 = r1!;
    const stopped = await r2.kill('SIGTERM');
    expect(stopped.code, 'exit code after SIGTERM').to.equal(0);
    expect(r2.logs.some((l) => l.msg === 'workers stopped')).to.equal(true);
    const le = ['--leader-elect', '--lease-namespace', 'default', '--lease-duration', '3'];
    const a = await launch('ha-a', le);
    const b = await launch('ha-b', le);
    const leaderOf = async (): Promise<[ReconcilerProcess, ReconcilerProcess] | undefined> => {
      const [la, lb] = await Promise.all([
        a.metric('cluster_probe_reconciler_leader'),
        b.metric('cluster_probe_reconciler_leader'),
      ]);
      if (la + lb !== 1) return undefined;
      return la === 1 ? [a, b] : [b, a];
    };
    const [leader, follower] = await waitFor('one leader', 15_000, leaderOf);
    servers.get('c-ha')!.healthy = false;
    await waitCluster('tainted by the leader', 'c-ha', (x) => tainted(x), 15_000);
    const ev = await waitFor('the Event', 5_000, async () =>
      (await events('c-ha')).find((e) => e.reason === 'LivenessProbeFailed'),
    );
    expect(ev.reportingInstance).to.equal(leader.name);
    expect(await leader.metric('cluster_probe_reconciler_writes_total', { kind: 'taints', outcome: 'ok' })).to.be.above(
      0,
    );
    expect(await follower.metric('cluster_probe_reconciler_writes_total', { kind: 'taints' })).to.equal(0);
    expect(await follower.metric('cluster_probe_reconciler_writes_total', { kind: 'status' })).to.equal(0);
    expect(await follower.metric('cluster_probe_reconciler_probe_results_total')).to.equal(0);

    // The leader dies without releasing: the follower must wait out the lease (3 s), then act.
    await leader.kill('SIGKILL');
    const killedAt = Date.now();
    await waitFor('the follower leads', 10_000, async () =>
      (await follower.metric('cluster_probe_reconciler_leader')) === 1 ? true : undefined,
    );
    const takeover = Date.now() - killedAt;
    console.log(`      follower took over ${takeover} ms after the leader was killed (lease 3 s)`);
    expect(takeover).to.be.below(3000 + 2000);
    servers.get('c-ha')!.healthy = true;
    await waitCluster('untainted by the new leader', 'c-ha', (x) => !tainted(x), 15_000);
    const ok = await waitFor('the recovery Event', 5_000, async () =>
      (await events('c-ha')).find(
        (e) => e.reason === 'LivenessProbeSucceeded' && e.reportingInstance === follower.name,
      ),
    );
    expect(ok).to.not.equal(undefined);

    // A clean stop releases the lease.
    const out = await follower.kill('SIGTERM');
    expect(out.code).to.equal(0);
    const lease = await api.request<{ spec: { holderIdentity?: string } }>(
      'GET',
      '/apis/coordination.k8s.io/v1/namespaces/default/leases/cluster-probe-reconciler',
    );
    expect(lease.spec.holderIdentity ?? '').to.equal('');
  });

  it('runs in Pull mode for one Cluster with only the RBAC of manifests/reconciler', async function () {
    const cp = host!;
    await apply(cp, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'cluster-probe-system' } });
    for (const file of ['serviceaccount.yaml', 'rbac.yaml']) {
      const out = await cp.kubectl([
        'apply',
        '-f',
        fileURLToPath(new URL(`../../manifests/reconciler/${file}`, import.meta.url)),
      ]);
      if (out.code !== 0) throw new Error(`kubectl apply ${file}: ${out.stderr}`);
    }
    const token = (
      await kubectlOk(cp, [
        'create',
        'token',
        'cluster-probe-reconciler',
        '-n',
        'cluster-probe-system',
        '--duration=1h',
      ])
    ).trim();
    const kubeconfig = join(cp.dir, 'reconciler-sa.kubeconfig');
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'e2e',
            cluster: { server: cp.url, 'certificate-authority-data': Buffer.from(cp.caPem).toString('base64') },
          },
        ],
        users: [{ name: 'sa', user: { token } }],
        contexts: [{ name: 'sa', context: { cluster: 'e2e', user: 'sa' } }],
        'current-context': 'sa',
      }),
      { mode: 0o600 },
    );
    const pull = await startReconciler('pull-agent', kubeconfig, [
      '--cluster-name',
      'c-pull',
      '--leader-elect',
      '--lease-namespace',
      'cluster-probe-system',
      '--lease-duration',
      '3',
    ]);
    procs.push(pull);
    const server = await startHealthServer();
    servers.set('c-pull', server);
    const pullCluster = httpCluster('c-pull', server.port);
    await apply(cp, { ...pullCluster, spec: { ...(pullCluster.spec as object), syncMode: 'Pull' } });
    await waitCluster('Healthy=True', 'c-pull', (x) => healthy(x) === 'True', 15_000);
    server.healthy = false;
    await waitCluster('tainted', 'c-pull', (x) => tainted(x) && healthy(x) === 'False', BOUND_MS + 1000);
    // The Event is posted right after the condition it tells of: poll for it, a GET at once can come before it.
    let reasons: (string | undefined)[] = [];
    const eventDeadline = Date.now() + 5_000;
    while (!reasons.includes('LivenessProbeFailed') && Date.now() < eventDeadline) {
      const ev = await api.request<{ items: EventObject[] }>('GET', '/api/v1/namespaces/default/events', {
        query: { fieldSelector: 'involvedObject.name=c-pull' },
      });
      reasons = ev.items.map((e) => e.reason);
      if (!reasons.includes('LivenessProbeFailed')) await sleep(100);
    }
    expect(reasons, JSON.stringify(pull.logs.filter((l) => l.level >= 40))).to.include('LivenessProbeFailed');
    // Only its one Cluster: one worker, no watch errors (Forbidden would show as restarts).
    expect(await pull.metric('cluster_probe_reconciler_workers')).to.equal(1);
    expect(await pull.metric('cluster_probe_reconciler_watch_restarts_total', { reason: 'error' })).to.equal(0);
    expect(await pull.metric('cluster_probe_reconciler_writes_total', { outcome: 'error' })).to.equal(0);
    // Exactly one write per change: Healthy=True, Healthy=False, the taint.
    expect(await pull.metric('cluster_probe_reconciler_writes_total', { kind: 'status' })).to.equal(2);
    expect(await pull.metric('cluster_probe_reconciler_writes_total', { kind: 'taints' })).to.equal(1);
    const lease = await api.request<{ spec: { holderIdentity?: string } }>(
      'GET',
      '/apis/coordination.k8s.io/v1/namespaces/cluster-probe-system/leases/cluster-probe-reconciler-c-pull',
    );
    expect(lease.spec.holderIdentity).to.equal('pull-agent');
    expect((await pull.kill('SIGTERM')).code).to.equal(0);
  });

  it('splits the Clusters between two shards by the stable hash; each shard writes only its own', async function () {
    const probed = ['c-flip', 'c-steady', 'c-legacy', 'c-annotation', 'c-ha', 'c-member', 'c-badport', 'c-nosecret'];
    const shards = [
      await launch('shard-0', ['--shard-index', '0', '--shard-count', '2']),
      await launch('shard-1', ['--shard-index', '1', '--shard-count', '2']),
    ];
    const expected = [0, 1].map((i) => probed.filter((n) => shardOf(n, 2) === i).length);
    expect(expected[0]! * expected[1]!, 'both shards own something').to.be.above(0);
    await waitFor('both shards listed', 15_000, async () => {
      const w = await Promise.all(shards.map((x) => x.metric('cluster_probe_reconciler_workers')));
      return w[0] === expected[0] && w[1] === expected[1] ? true : undefined;
    });
    const owner = shardOf('c-flip', 2);
    servers.get('c-flip')!.healthy = false;
    await waitCluster('tainted by its shard', 'c-flip', (x) => tainted(x), BOUND_MS + 1000);
    servers.get('c-flip')!.healthy = true;
    await waitCluster('untainted by its shard', 'c-flip', (x) => !tainted(x), BOUND_MS + 1000);
    expect(await shards[owner]!.metric('cluster_probe_reconciler_writes_total', { kind: 'taints' })).to.equal(2);
    expect(await shards[1 - owner]!.metric('cluster_probe_reconciler_writes_total', { kind: 'taints' })).to.equal(0);
    for (const x of shards) expect((await x.kill('SIGTERM')).code).to.equal(0);
  });
});
