// The ClusterProfile producer on a real Karmada v1.18.2 (src/dev/karmada.ts, members with real kube-apiservers and
// Node objects): the chart's karmada-apiserver half rendered by helm with clusterProfiles.enabled and installCRD
// (upstream's CRD, pinned; the reconciler's RBAC, checked with `kubectl auth can-i` as its ServiceAccount), then
// `cluster-probe reconcile --cluster-profile-namespace karmada-cluster`. The profile appears with both conditions, flips with the probe's
// verdict (every Node of member1 NotReady while Karmada keeps calling it Ready), shows the disruption guard's
// withheld verdict as Unknown (never False), takes 0 writes in steady state, is never propagated to a member even
// under a ClusterPropagationPolicy that selects every ClusterProfile (while one in `default` is), only gains our
// condition where another manager owns the profile, and goes with its Cluster.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parseAllDocuments } from 'yaml';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient, type KubeApi } from '../../src/reconciler/index.js';
import { startKarmada, type KarmadaControlPlane } from '../../src/dev/karmada.js';
import {
  CLUSTER_MANAGER_LABEL,
  CLUSTER_MANAGER_NAME,
  CONTROL_PLANE_HEALTHY,
  FIELD_MANAGER,
  PROBE_CONDITION,
  PROFILE_API_VERSION,
  type ClusterProfile,
  type ProfileCondition,
} from '../../src/profile/index.js';
import type { Cluster } from '../../packages/schema/src/schema/index.js';
import { sleep, startReconciler, waitFor, type ReconcilerProcess } from './support/reconciler-env.js';

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const NS = 'karmada-cluster';
const RELEASE_NS = 'cluster-probe-system';
const SA = `system:serviceaccount:${RELEASE_NS}:cluster-probe-reconciler`;

/** kube-controller-manager v1.35.4 where scripts/build-node.mjs builds it (npm run test:node). */
function kubeControllerManager(): string {
  const r = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "const m = await import('./scripts/build-node.mjs'); console.log(m.nodeBinDir());"],
    { cwd: REPO, encoding: 'utf8' },
  );
  return join(r.stdout.trim(), 'kube-controller-manager');
}

/** The chart's karmada-apiserver half with the producer on, rendered by the helm the chart tests build. */
function renderChart(): string {
  const built = spawnSync(process.execPath, [join(REPO, 'scripts', 'build-helm.mjs')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 30 * 60_000,
  });
  const dir = built.stdout.trim().split('\n').pop() ?? '';
  if (built.status !== 0 || dir === '') throw new Error(`scripts/build-helm.mjs failed (exit ${built.status})`);
  const r = spawnSync(
    join(dir, 'helm'),
    [
      'template',
      'cluster-probe',
      join(REPO, 'charts', 'karmada-cluster-probe'),
      '-n',
      RELEASE_NS,
      '--set',
      'target=karmada-apiserver',
      '--set',
      'clusterProfiles.enabled=true',
      '--set',
      'clusterProfiles.installCRD=true',
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`helm template: ${r.stderr}`);
  return r.stdout;
}
const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';
const PROFILES = `/apis/${PROFILE_API_VERSION}/namespaces/${NS}/clusterprofiles`;
const PROBE_ANNOTATION = 'cluster.karmada.io/liveness-probe';
const WRITES = 'cluster_probe_reconciler_writes_total';
const LEADER = 'cluster_probe_reconciler_leader';
const RECONCILE_ARGS = ['--taint-effect', 'NoSchedule', '--cluster-profile-namespace', NS];
const probe = { apiServer: { minReadyNodes: 1 }, periodSeconds: 1, failureThreshold: 2 };

describe('Karmada v1.18.2: the ClusterProfile producer (e2e)', function () {
  this.timeout(600_000);
  let karmada: KarmadaControlPlane | undefined;
  let api: KubeApi;
  let reconciler: ReconcilerProcess | undefined;

  const profile = async (name: string, ns = NS): Promise<ClusterProfile | undefined> => {
    try {
      return await api.request<ClusterProfile>(
        'GET',
        `/apis/${PROFILE_API_VERSION}/namespaces/${ns}/clusterprofiles/${name}`,
      );
    } catch {
      return undefined;
    }
  };
  const conditionOf = (p: ClusterProfile | undefined, type: string): ProfileCondition | undefined =>
    p?.status?.conditions?.find((c) => c.type === type);
  const kubectl = async (args: string[], input?: string): Promise<string> => {
    const r = await karmada!.kubectl(args, input === undefined ? {} : { input });
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const profileWrites = async (): Promise<number> =>
    (await reconciler!.metric('cluster_probe_reconciler_writes_total', { kind: 'profile' })) +
    (await reconciler!.metric('cluster_probe_reconciler_writes_total', { kind: 'profile_status' })) +
    (await reconciler!.metric('cluster_probe_reconciler_writes_total', { kind: 'profile_delete' }));

  before(async () => {
    karmada = await startKarmada({ members: 2, nodesPerMember: 1 });
    const kc = new KubeConfig();
    kc.loadFromFile(karmada.host.kubeconfigPath);
    api = new KubeClient(kc);
    const rendered = renderChart();
    const kinds = parseAllDocuments(rendered).map((d) => (d.toJS() as { kind?: string } | null)?.kind);
    expect(kinds).to.include('CustomResourceDefinition');
    await kubectl(['create', 'namespace', RELEASE_NS]);
    await kubectl(['apply', '--server-side', '-f', '-'], rendered);
    await kubectl([
      'wait',
      '--for=condition=Established',
      '--timeout=60s',
      'crd/clusterprofiles.multicluster.x-k8s.io',
    ]);
    for (const name of ['member1', 'member2'])
      await kubectl(['annotate', '--overwrite', 'cluster', name, `${PROBE_ANNOTATION}=${JSON.stringify(probe)}`]);
    // member2's profile belongs to another cluster manager, created before we start, with its own condition.
    await kubectl(
      ['apply', '--server-side', '--field-manager=other-manager', '-f', '-'],
      JSON.stringify({
        apiVersion: PROFILE_API_VERSION,
        kind: 'ClusterProfile',
        metadata: { name: 'member2', namespace: NS, labels: { [CLUSTER_MANAGER_LABEL]: 'other' } },
        spec: { clusterManager: { name: 'other' } },
      }),
    );
    await kubectl(
      ['apply', '--server-side', '--field-manager=other-manager', '--subresource=status', '-f', '-'],
      JSON.stringify({
        apiVersion: PROFILE_API_VERSION,
        kind: 'ClusterProfile',
        metadata: { name: 'member2', namespace: NS },
        status: {
          conditions: [
            {
              type: CONTROL_PLANE_HEALTHY,
              status: 'True',
              reason: 'OtherSaysSo',
              message: 'theirs',
              lastTransitionTime: '2026-01-01T00:00:00Z',
            },
          ],
        },
      }),
    );
    reconciler = await startReconciler('profiles', karmada.host.kubeconfigPath, RECONCILE_ARGS);
  });

  after(async () => {
    await reconciler?.kill('SIGTERM');
    await karmada?.stop();
  });

  it('the chart installs upstream’s CRD (v1alpha1) and lets the reconciler’s identity write profiles in karmada-cluster only', async () => {
    const crd = JSON.parse(await kubectl(['get', 'crd', 'clusterprofiles.multicluster.x-k8s.io', '-o', 'json'])) as {
      spec: { versions: { name: string }[] };
    };
    expect(crd.spec.versions.map((v) => v.name)).to.deep.equal(['v1alpha1']);
    const can = async (verb: string, resource: string, ns: string): Promise<string> =>
      (await karmada!.kubectl(['auth', 'can-i', verb, resource, '-n', ns, `--as=${SA}`])).stdout.trim();
    for (const verb of ['get', 'list', 'watch', 'create', 'patch', 'delete'])
      expect(await can(verb, 'clusterprofiles.multicluster.x-k8s.io', NS), verb).to.equal('yes');
    expect(await can('patch', 'clusterprofiles.multicluster.x-k8s.io/status', NS)).to.equal('yes');
    expect(await can('patch', 'clusterprofiles.multicluster.x-k8s.io', 'default')).to.equal('no');
  });

  it('member1’s profile appears: the cluster-manager label and spec, ControlPlaneHealthy and our condition True, the Kubernetes version', async () => {
    const p = await waitFor('member1’s profile with both conditions True', 60_000, async () => {
      const p = await profile('member1');
      return conditionOf(p, CONTROL_PLANE_HEALTHY)?.status === 'True' &&
        conditionOf(p, PROBE_CONDITION)?.status === 'True'
        ? p
        : undefined;
    });
    const cluster = await api.request<Cluster>('GET', `${CLUSTERS}/member1`);
    process.stderr.write(
      `      ${JSON.stringify({ metadata: { labels: p.metadata?.labels }, spec: p.spec, status: p.status })}\n`,
    );
    expect(p.metadata?.labels?.[CLUSTER_MANAGER_LABEL]).to.equal(CLUSTER_MANAGER_NAME);
    expect(p.spec?.clusterManager?.name).to.equal(CLUSTER_MANAGER_NAME);
    expect(conditionOf(p, CONTROL_PLANE_HEALTHY)?.reason).to.equal('Healthy');
    expect(conditionOf(p, PROBE_CONDITION)?.reason).to.equal('LivenessProbeSucceeded');
    const version = (cluster.status as { kubernetesVersion?: string } | undefined)?.kubernetesVersion;
    expect(version, 'Karmada reports the member’s version').to.match(/^v1\./);
    expect(p.status?.version?.kubernetes).to.equal(version);
  });

  it('another manager’s profile (member2) gains only our condition, written by our field manager', async () => {
    const p = await waitFor('our condition on member2’s profile', 60_000, async () => {
      const p = await profile('member2');
      return conditionOf(p, PROBE_CONDITION)?.status === 'True' ? p : undefined;
    });
    expect(p.spec?.clusterManager?.name).to.equal('other');
    expect(p.metadata?.labels).to.deep.equal({ [CLUSTER_MANAGER_LABEL]: 'other' });
    expect(conditionOf(p, CONTROL_PLANE_HEALTHY)).to.include({
      status: 'True',
      reason: 'OtherSaysSo',
      message: 'theirs',
    });
    const managed = (p.metadata as { managedFields?: { manager: string; subresource?: string; fieldsV1?: object }[] })
      .managedFields;
    const ours = managed?.filter((m) => m.manager === FIELD_MANAGER) ?? [];
    expect(ours.map((m) => m.subresource)).to.deep.equal(['status']);
    expect(JSON.stringify(ours[0]?.fieldsV1))
      .to.include(PROBE_CONDITION)
      .and.not.include(`"k:{\\"type\\":\\"${CONTROL_PLANE_HEALTHY}\\"}"`);
  });

  it('0 profile writes in steady state while Karmada’s controllers keep updating the Clusters', async () => {
    const before = await profileWrites();
    const rv = (await profile('member1'))?.metadata?.resourceVersion;
    await sleep(15_000);
    expect(await profileWrites()).to.equal(before);
    expect((await profile('member1'))?.metadata?.resourceVersion).to.equal(rv);
    process.stderr.write(`      profile writes in 15 s of steady state: 0 (of ${before} since start)\n`);
  });

  it('restarted as two replicas with leader election: nothing written on start; a change written by the leader alone, then by the new leader after a handover', async () => {
    const rvs = async (): Promise<(string | undefined)[]> =>
      Promise.all(['member1', 'member2'].map(async (n) => (await profile(n))?.metadata?.resourceVersion));
    const writesOf = async (r: ReconcilerProcess): Promise<number> =>
      (await r.metric(WRITES, { kind: 'profile' })) +
      (await r.metric(WRITES, { kind: 'profile_status' })) +
      (await r.metric(WRITES, { kind: 'profile_delete' }));
    const cph = async (): Promise<string | undefined> =>
      conditionOf(await profile('member1'), CONTROL_PLANE_HEALTHY)?.status;
    const flip = async (): Promise<void> => {
      await karmada!.setNodesReady('member1', false);
      await waitFor('member1’s profile False', 60_000, async () => ((await cph()) === 'False' ? true : undefined));
      await karmada!.setNodesReady('member1', true);
      await waitFor('member1’s profile True', 60_000, async () => ((await cph()) === 'True' ? true : undefined));
    };
    const before = await rvs();
    await reconciler!.kill('SIGTERM');
    const elect = ['--leader-elect', '--lease-namespace', 'default', '--lease-name', 'profiles-e2e'];
    const a = await startReconciler('profiles-a', karmada!.host.kubeconfigPath, [...RECONCILE_ARGS, ...elect]);
    const b = await startReconciler('profiles-b', karmada!.host.kubeconfigPath, [...RECONCILE_ARGS, ...elect]);
    reconciler = a;
    const leaderOf = async (): Promise<ReconcilerProcess | undefined> =>
      (await a.metric(LEADER)) === 1 ? a : (await b.metric(LEADER)) === 1 ? b : undefined;
    const leader = await waitFor('a leader', 60_000, leaderOf, 250);
    const follower = leader === a ? b : a;
    // Both caches listed and every Cluster gone through by the leader: well past the first list on loopback.
    await sleep(10_000);
    expect(await writesOf(a)).to.equal(0);
    expect(await writesOf(b)).to.equal(0);
    expect(await rvs()).to.deep.equal(before);

    await flip();
    expect(await writesOf(leader), 'the leader wrote the change').to.be.greaterThan(0);
    expect(await writesOf(follower), 'the follower wrote nothing').to.equal(0);

    await leader.kill('SIGTERM');
    await waitFor(
      'the follower leading',
      60_000,
      async () => ((await follower.metric(LEADER)) === 1 ? true : undefined),
      250,
    );
    reconciler = follower;
    await flip();
    expect(await writesOf(follower), 'the new leader wrote the change').to.be.greaterThan(0);
    await b.kill('SIGTERM').catch(() => undefined);
    await a.kill('SIGTERM').catch(() => undefined);
    reconciler = await startReconciler('profiles-c', karmada!.host.kubeconfigPath, RECONCILE_ARGS);
  });

  it('flips with the probe: member1’s nodes NotReady make ControlPlaneHealthy False while Karmada’s Ready stays True, and back', async () => {
    await karmada!.setNodesReady('member1', false);
    const p = await waitFor('member1’s profile False', 60_000, async () => {
      const p = await profile('member1');
      return conditionOf(p, CONTROL_PLANE_HEALTHY)?.status === 'False' ? p : undefined;
    });
    expect(conditionOf(p, CONTROL_PLANE_HEALTHY)?.reason).to.equal('LivenessProbeFailed');
    expect(conditionOf(p, PROBE_CONDITION)).to.include({ status: 'False', reason: 'LivenessProbeFailed' });
    expect(conditionOf(p, PROBE_CONDITION)?.message).to.match(/Ready nodes/);
    const cluster = await api.request<Cluster>('GET', `${CLUSTERS}/member1`);
    expect(cluster.status?.conditions?.find((c) => c.type === 'Ready')?.status).to.equal('True');
    await karmada!.setNodesReady('member1', true);
    await waitFor('member1’s profile True again', 60_000, async () =>
      conditionOf(await profile('member1'), CONTROL_PLANE_HEALTHY)?.status === 'True' ? true : undefined,
    );
  });

  it('the disruption guard’s prober disrupted (every member failing at once) is Unknown, never False', async () => {
    const seen: string[] = [];
    await karmada!.setNodesReady('member1', false);
    await karmada!.setNodesReady('member2', false);
    try {
      const p = await waitFor(
        'member1’s profile Unknown/ProberDisrupted',
        60_000,
        async () => {
          const p = await profile('member1');
          const c = conditionOf(p, CONTROL_PLANE_HEALTHY);
          if (c !== undefined) seen.push(`${c.status}/${c.reason}`);
          return c?.status === 'Unknown' && c.reason === 'ProberDisrupted' ? p : undefined;
        },
        200,
      );
      expect(conditionOf(p, PROBE_CONDITION)).to.include({ status: 'Unknown', reason: 'ProberDisrupted' });
      const other = await waitFor('our condition on member2 Unknown', 30_000, async () => {
        const q = await profile('member2');
        return conditionOf(q, PROBE_CONDITION)?.status === 'Unknown' ? q : undefined;
      });
      expect(conditionOf(other, PROBE_CONDITION)?.reason).to.equal('ProberDisrupted');
      await sleep(3_000);
      expect(conditionOf(await profile('member1'), CONTROL_PLANE_HEALTHY)?.status).to.equal('Unknown');
      expect(
        seen.filter((s) => s.startsWith('False')),
        'never False on the way',
      ).to.deep.equal([]);
    } finally {
      await karmada!.setNodesReady('member1', true);
      await karmada!.setNodesReady('member2', true);
    }
    await waitFor('both healthy again', 60_000, async () =>
      conditionOf(await profile('member1'), CONTROL_PLANE_HEALTHY)?.status === 'True' &&
      conditionOf(await profile('member2'), PROBE_CONDITION)?.status === 'True'
        ? true
        : undefined,
    );
  });

  it('with no producer running, kube-controller-manager’s garbage collector (as Karmada runs one) removes a profile with its Cluster: the owner reference holds across the aggregated API', async function () {
    const kcmPath = kubeControllerManager();
    if (!existsSync(kcmPath)) {
      process.stderr.write(`      pending: ${kcmPath} is missing; \`node scripts/build-node.mjs\` builds it\n`);
      this.skip();
    }
    // A Cluster with no member behind it: its profile is written all the same (Karmada's Ready not True yet).
    await kubectl(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'cluster.karmada.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name: 'ghost' },
        spec: { syncMode: 'Push', apiEndpoint: 'https://127.0.0.1:9' },
      }),
    );
    const p = await waitFor('ghost’s profile', 60_000, async () => {
      const p = await profile('ghost');
      return (p?.metadata?.ownerReferences ?? []).length > 0 ? p : undefined;
    });
    const cluster = await api.request<Cluster>('GET', `${CLUSTERS}/ghost`);
    expect(p.metadata?.ownerReferences).to.deep.equal([
      { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', name: 'ghost', uid: cluster.metadata?.uid },
    ]);
    await reconciler!.kill('SIGTERM');
    const kcm = spawn(
      kcmPath,
      [
        `--kubeconfig=${karmada!.host.kubeconfigPath}`,
        '--bind-address=127.0.0.1',
        '--secure-port=0',
        '--leader-elect=false',
        '--use-service-account-credentials=false',
        '--controllers=garbagecollector',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    kcm.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    try {
      await waitFor('the garbage collector synced', 60_000, () => log.includes('all resource monitors have synced'));
      await kubectl(['delete', 'cluster', 'ghost', '--wait=false']);
      await kubectl(['patch', 'cluster', 'ghost', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
      const t0 = Date.now();
      await waitFor('ghost’s profile collected', 60_000, async () =>
        (await profile('ghost')) === undefined ? true : undefined,
      );
      process.stderr.write(`      collected ${((Date.now() - t0) / 1000).toFixed(1)} s after the Cluster's deletion\n`);
      expect(await profile('member1'), 'the others stay').to.not.equal(undefined);
    } finally {
      kcm.kill('SIGKILL');
      reconciler = await startReconciler('profiles-d', karmada!.host.kubeconfigPath, RECONCILE_ARGS);
    }
  });

  it('is never propagated: a ClusterPropagationPolicy selecting every ClusterProfile binds one in `default`, none in karmada-cluster', async () => {
    await kubectl(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'policy.karmada.io/v1alpha1',
        kind: 'ClusterPropagationPolicy',
        metadata: { name: 'every-clusterprofile' },
        spec: {
          resourceSelectors: [{ apiVersion: PROFILE_API_VERSION, kind: 'ClusterProfile' }],
          placement: { clusterAffinity: { clusterNames: ['member1', 'member2'] } },
        },
      }),
    );
    // The control: the same kind outside the reserved namespaces is a resource template Karmada binds.
    await kubectl(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: PROFILE_API_VERSION,
        kind: 'ClusterProfile',
        metadata: { name: 'control', namespace: 'default' },
        spec: { clusterManager: { name: 'test' } },
      }),
    );
    const bindingsOf = async (): Promise<{ namespace: string; name: string }[]> => {
      const list = JSON.parse(await kubectl(['get', 'resourcebindings', '-A', '-o', 'json'])) as {
        items: { metadata: { namespace: string }; spec: { resource: { kind: string; name: string } } }[];
      };
      return list.items
        .filter((b) => b.spec.resource.kind === 'ClusterProfile')
        .map((b) => ({ namespace: b.metadata.namespace, name: b.spec.resource.name }));
    };
    const bound = await waitFor('the control profile bound', 60_000, async () => {
      const b = await bindingsOf();
      return b.some((x) => x.name === 'control') ? b : undefined;
    });
    // A relist of the detector (it handles every template again) gets no other chance than the time the control took.
    await sleep(5_000);
    const all = await bindingsOf();
    process.stderr.write(`      ResourceBindings of ClusterProfiles: ${JSON.stringify(all)}\n`);
    expect(all.filter((b) => b.namespace === NS)).to.deep.equal([]);
    expect(bound.map((b) => b.namespace)).to.deep.equal(['default']);
    await kubectl(['delete', 'clusterpropagationpolicy', 'every-clusterprofile', '--wait=false']);
    await kubectl(['delete', 'clusterprofile', '-n', 'default', 'control', '--wait=false']);
  });

  it('goes with its Cluster: ours deleted, our condition withdrawn from another manager’s', async () => {
    for (const name of ['member1', 'member2']) {
      await kubectl(['delete', 'cluster', name, '--wait=false']);
      // No kube-controller-manager finalizes the execution namespace here, so Karmada's cluster finalizer would wait
      // for ever; lifting it stands in for what a real control plane completes.
      await kubectl(['patch', 'cluster', name, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    }
    await waitFor('both Clusters gone', 60_000, async () => {
      const list = await api.request<{ items: unknown[] }>('GET', CLUSTERS);
      return list.items.length === 0;
    });
    await waitFor('member1’s profile deleted', 30_000, async () =>
      (await profile('member1')) === undefined ? true : undefined,
    );
    const p = await waitFor('our condition withdrawn from member2’s profile', 30_000, async () => {
      const p = await profile('member2');
      return p !== undefined && conditionOf(p, PROBE_CONDITION) === undefined ? p : undefined;
    });
    expect(conditionOf(p, CONTROL_PLANE_HEALTHY)).to.include({ status: 'True', reason: 'OtherSaysSo' });
    expect(p.spec?.clusterManager?.name).to.equal('other');
    const list = await api.request<{ items: ClusterProfile[] }>('GET', PROFILES);
    expect(list.items.map((x) => x.metadata?.name)).to.deep.equal(['member2']);
  });
});
