// The chart installed as its README says, running on a real one-node host cluster (src/dev/host-node.ts: etcd,
// kube-apiserver, kube-controller-manager, kube-scheduler, kubelet, containerd, CNI bridge) for a real Karmada
// (src/dev/karmada.ts) whose apiservers are bound to the bridge's address, so that the reconciler's Pods reach them.
// The image is the one scripts/build-image.mjs built from the Dockerfile, imported into containerd. Run by
// `npm run test:node` (scripts/run-node-tests.mjs), which builds everything first and sets the environment read here.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessGroup, freePort } from '../../src/dev/controlplane.js';
import { startHostNode, type HostNode } from '../../src/dev/host-node.js';
import { startKarmada, type KarmadaControlPlane } from '../../src/dev/karmada.js';
import { createNodeBridge, type NodeBridge } from '../../src/dev/node-bridge.js';
import { PROBE_ANNOTATION, UNHEALTHY_TAINT_KEY } from '../../packages/schema/src/api/constants.js';

const repo = join(import.meta.dirname, '..', '..');
const CHART = join(repo, 'charts', 'karmada-cluster-probe');
const NAMESPACE = 'cluster-probe-system';
const RELEASE = 'cluster-probe';
const RECONCILER = 'cluster-probe-reconciler';
const PERIOD_S = 2;
const FAILURE_THRESHOLD = 2;
const probe = { apiServer: { minReadyNodes: 2 }, periodSeconds: PERIOD_S, failureThreshold: FAILURE_THRESHOLD };
/** The chart's default reconciler.leaderElection.leaseDuration, seconds (values.yaml). */
const LEASE_DURATION_S = 15;

interface Cluster {
  metadata: { name: string };
  spec?: { taints?: { key: string; effect: string }[] };
  status?: { conditions?: { type: string; status: string }[] };
}

interface Pod {
  metadata: { name: string; deletionTimestamp?: string };
  spec: {
    nodeName?: string;
    securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: { type?: string } };
    containers: {
      name: string;
      image: string;
      resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
      securityContext?: {
        readOnlyRootFilesystem?: boolean;
        allowPrivilegeEscalation?: boolean;
        runAsNonRoot?: boolean;
        runAsUser?: number;
        capabilities?: { drop?: string[]; add?: string[] };
        seccompProfile?: { type?: string };
      };
    }[];
  };
  status?: { phase?: string; conditions?: { type: string; status: string }[] };
}

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run these tests with \`npm run test:node\``);
  return value;
}

function report(what: string, ms: number, bound: string): void {
  process.stderr.write(`      ${what}: ${(ms / 1000).toFixed(1)} s (${bound})\n`);
}

async function until<T>(
  what: string,
  timeoutMs: number,
  check: () => Promise<T | undefined>,
  hint = () => '',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    try {
      const got = await check();
      if (got !== undefined) return got;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? ` (last: ${last})` : ''}\n${hint()}`,
      );
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('the chart on a real one-node host cluster for a real Karmada', function () {
  this.timeout(900_000);
  let bridge: NodeBridge | undefined;
  let karmada: KarmadaControlPlane | undefined;
  let node: HostNode | undefined;
  let work: string;
  let helmBin: string;
  let image: string;

  const ka = async (args: string[], input?: string): Promise<string> => {
    const out = await karmada!.kubectl(args, input !== undefined ? { input } : {});
    if (out.code !== 0) throw new Error(`kubectl (karmada-apiserver) ${args.join(' ')} failed: ${out.stderr}`);
    return out.stdout;
  };
  const host = async (args: string[]): Promise<string> => {
    const out = await node!.kubectl(args);
    if (out.code !== 0) throw new Error(`kubectl (host) ${args.join(' ')} failed: ${out.stderr}`);
    return out.stdout;
  };
  const helm = (kubeconfig: string, args: string[], timeout = 300_000) => {
    const r = spawnSync(helmBin, ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', timeout, cwd: work });
    return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
  };
  const diagnostics = (): string =>
    node ? `${node.podLogs(NAMESPACE, RECONCILER)}\n${node.componentLogs(15)}` : '(no node)';
  const cluster = async (name: string): Promise<Cluster> =>
    JSON.parse(await ka(['get', 'cluster', name, '-o', 'json'])) as Cluster;
  const healthy = (c: Cluster) => c.status?.conditions?.find((x) => x.type === 'Healthy')?.status;
  const ourTaint = (c: Cluster) => (c.spec?.taints ?? []).find((t) => t.key === UNHEALTHY_TAINT_KEY);
  const pods = async (): Promise<Pod[]> =>
    (
      JSON.parse(
        await host(['get', 'pods', '-n', NAMESPACE, '-l', `app.kubernetes.io/component=reconciler`, '-o', 'json']),
      ) as { items: Pod[] }
    ).items;
  const holder = async (): Promise<string> =>
    (await ka(['get', 'lease', RECONCILER, '-n', NAMESPACE, '-o', 'jsonpath={.spec.holderIdentity}'])).trim();

  /** karmada.config from the reconciler's token Secret, with the commands of the chart's README and manifests/host. */
  const makeKarmadaConfig = async (): Promise<void> => {
    // The README's commands, with the server the host cluster's Pods reach karmada-apiserver at (the bridge address).
    const KA = (args: string[]) => ka([...args, '-n', NAMESPACE]);
    writeFileSync(
      join(work, 'ca.crt'),
      Buffer.from(await KA(['get', 'secret', `${RECONCILER}-token`, '-o', 'jsonpath={.data.ca\\.crt}']), 'base64'),
    );
    const token = Buffer.from(
      await KA(['get', 'secret', `${RECONCILER}-token`, '-o', 'jsonpath={.data.token}']),
      'base64',
    ).toString();
    const KC = (args: string[]) => {
      const r = spawnSync('kubectl', ['config', '--kubeconfig', join(work, 'karmada.config'), ...args], {
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).to.equal(0);
    };
    KC([
      'set-cluster',
      'karmada-apiserver',
      '--embed-certs',
      `--certificate-authority=${join(work, 'ca.crt')}`,
      `--server=${karmada!.host.url}`,
    ]);
    KC(['set-credentials', RECONCILER, `--token=${token}`]);
    KC(['set-context', 'karmada', '--cluster=karmada-apiserver', `--user=${RECONCILER}`]);
    KC(['use-context', 'karmada']);
  };

  before(async function () {
    helmBin = env('CLUSTER_PROBE_HELM');
    image = env('CLUSTER_PROBE_IMAGE');
    const archives = env('CLUSTER_PROBE_IMAGE_ARCHIVES').split(':');
    work = mkdtempSync(join(tmpdir(), 'cluster-probe-node-test-'));
    bridge = createNodeBridge({ log: (l) => process.stderr.write(`      ${l}\n`) });
    karmada = await startKarmada({ members: 2, nodesPerMember: 2, address: bridge.gateway });
    // A kube-controller-manager beside karmada-apiserver, as `karmadactl init` runs one: its token controller fills
    // the chart's legacy token Secret, from which the README makes karmada.config.
    const kcm = new ProcessGroup(
      'karmada-kube-controller-manager',
      join(env('CLUSTER_PROBE_NODE_BIN'), 'kube-controller-manager'),
      [
        `--kubeconfig=${karmada.host.kubeconfigPath}`,
        '--bind-address=127.0.0.1',
        `--secure-port=${await freePort()}`,
        '--leader-elect=false',
        `--service-account-private-key-file=${join(karmada.host.dir, 'sa.key')}`,
        `--root-ca-file=${join(karmada.host.dir, 'ca.crt')}`,
        '--controllers=serviceaccount-token,serviceaccount,namespace,garbagecollector',
      ],
      join(karmada.host.dir, 'kube-controller-manager.log'),
    );
    karmada.host.adopt(kcm);
    node = await startHostNode({ bridge, imageArchives: archives });
    for (const member of karmada.members) {
      await ka(['annotate', '--overwrite', 'cluster', member.name, `${PROBE_ANNOTATION}=${JSON.stringify(probe)}`]);
    }
  });

  after(async function () {
    this.timeout(300_000);
    const errors: string[] = [];
    for (const step of [() => node?.stop(), () => karmada?.stop()]) {
      try {
        await step();
      } catch (err) {
        errors.push(String(err));
      }
    }
    bridge?.remove();
    if (work) rmSync(work, { recursive: true, force: true });
    if (errors.length > 0) throw new Error(`cleanup failed: ${errors.join('; ')}`);
  });

  it('installs the karmada-apiserver half; the token controller fills its token Secret', async function () {
    const r = helm(karmada!.host.kubeconfigPath, [
      'install',
      RELEASE,
      CHART,
      '-n',
      NAMESPACE,
      '--create-namespace',
      '--set',
      'target=karmada-apiserver',
      // Leader election on a real node: this file follows one Lease holder through a Pod deleted and a rollout.
      // The chart's default for 2 replicas, Lease sharding, is judged on Karmada by test/e2e/sharding.test.ts.
      '--set',
      'reconciler.sharding=none',
      '--wait',
      '--timeout',
      '120s',
    ]);
    expect(r.code, r.out).to.equal(0);
    await until('the token in Secret cluster-probe-reconciler-token', 60_000, async () => {
      const token = await ka(['get', 'secret', `${RECONCILER}-token`, '-n', NAMESPACE, '-o', 'jsonpath={.data.token}']);
      return token.trim() !== '' ? true : undefined;
    });
  });

  let installedAt = 0;
  it('installs the host half with the kubeconfig made as the README says; the Deployment becomes Ready through its probes', async function () {
    await makeKarmadaConfig();

    const tag = image.slice(image.lastIndexOf(':') + 1);
    installedAt = Date.now();
    const r = helm(node!.controlPlane.kubeconfigPath, [
      'install',
      RELEASE,
      CHART,
      '-n',
      NAMESPACE,
      '--create-namespace',
      '--set',
      'target=host',
      '--set',
      'reconciler.sharding=none',
      '--set-file',
      `karmadaKubeconfig.kubeconfig=${join(work, 'karmada.config')}`,
      '--set',
      `image.tag=${tag}`,
      '--set',
      'image.pullPolicy=Never',
      '--wait',
      '--timeout',
      '180s',
    ]);
    expect(r.code, `${r.out}\n${diagnostics()}`).to.equal(0);
    report('helm install to Ready', Date.now() - installedAt, '2 replicas, readiness /readyz every 5 s');
    const ready = await host([
      'get',
      'deployment',
      RECONCILER,
      '-n',
      NAMESPACE,
      '-o',
      'jsonpath={.status.readyReplicas}',
    ]);
    expect(ready.trim()).to.equal('2');
  });

  it('runs its Pods as the apiserver stored them: non-root, read-only root, no capabilities, RuntimeDefault, resources', async function () {
    const list = await pods();
    expect(list).to.have.length(2);
    for (const pod of list) {
      expect(pod.spec.nodeName).to.equal(node!.nodeName);
      const c = pod.spec.containers[0]!;
      expect(c.image).to.equal(image);
      const nonRoot = c.securityContext?.runAsNonRoot ?? pod.spec.securityContext?.runAsNonRoot;
      expect(nonRoot, 'runAsNonRoot').to.equal(true);
      const uid = c.securityContext?.runAsUser ?? pod.spec.securityContext?.runAsUser;
      expect(uid, 'runAsUser').to.equal(65532);
      expect(c.securityContext?.readOnlyRootFilesystem, 'readOnlyRootFilesystem').to.equal(true);
      expect(c.securityContext?.allowPrivilegeEscalation, 'allowPrivilegeEscalation').to.equal(false);
      expect(c.securityContext?.capabilities?.drop, 'capabilities.drop').to.deep.equal(['ALL']);
      expect(c.securityContext?.capabilities?.add ?? []).to.deep.equal([]);
      const seccomp = c.securityContext?.seccompProfile?.type ?? pod.spec.securityContext?.seccompProfile?.type;
      expect(seccomp, 'seccompProfile').to.equal('RuntimeDefault');
      expect(c.resources?.requests?.cpu && c.resources?.requests?.memory, 'requests').to.be.a('string');
      expect(c.resources?.limits?.memory, 'memory limit').to.be.a('string');
    }
  });

  it('holds the Lease in karmada-apiserver with one of its two Pods', async function () {
    const names = (await pods()).map((p) => p.metadata.name);
    const leader = await until(
      'a Lease holder',
      60_000,
      async () => ((await holder()) !== '' ? holder() : undefined),
      diagnostics,
    );
    expect(names).to.include(leader);
  });

  it('taints a member whose nodes go NotReady, from the Pod, within the bound, and lifts it when they are Ready', async function () {
    for (const member of karmada!.members) {
      await until(
        `${member.name} Healthy=True`,
        90_000,
        async () => (healthy(await cluster(member.name)) === 'True' ? true : undefined),
        diagnostics,
      );
    }
    const started = Date.now();
    await karmada!.setNodesReady('member1', false);
    const tainted = await until(
      'member1 tainted with Healthy=False',
      60_000,
      async () => {
        const c = await cluster('member1');
        return healthy(c) === 'False' && ourTaint(c) ? c : undefined;
      },
      diagnostics,
    );
    report(
      'time to taint from the Pod',
      Date.now() - started,
      `failureThreshold ${FAILURE_THRESHOLD} x period ${PERIOD_S} s`,
    );
    expect(ourTaint(tainted)?.effect).to.equal('NoSchedule');
    expect(Date.now() - started).to.be.lessThan(30_000);
    expect(ourTaint(await cluster('member2'))).to.equal(undefined);
    await karmada!.setNodesReady('member1', true);
    await until(
      'member1 untainted',
      60_000,
      async () => (ourTaint(await cluster('member1')) ? undefined : true),
      diagnostics,
    );
  });

  it('hands the Lease over within the lease duration when the leader Pod is deleted', async function () {
    const leader = await holder();
    const started = Date.now();
    await host(['delete', 'pod', leader, '-n', NAMESPACE, '--wait=false']);
    const next = await until(
      'another Lease holder',
      (LEASE_DURATION_S + 30) * 1000,
      async () => {
        const h = await holder();
        return h !== '' && h !== leader ? h : undefined;
      },
      diagnostics,
    );
    const ms = Date.now() - started;
    report('leader failover', ms, `lease duration ${LEASE_DURATION_S} s`);
    expect(next).not.to.equal(leader);
    expect(ms).to.be.lessThan((LEASE_DURATION_S + 10) * 1000);
  });

  it('helm upgrade with taintEffect=NoExecute rolls the Pods and the new effect is written', async function () {
    const before = new Set((await pods()).map((p) => p.metadata.name));
    const r = helm(node!.controlPlane.kubeconfigPath, [
      'upgrade',
      RELEASE,
      CHART,
      '-n',
      NAMESPACE,
      '--reuse-values',
      '--set',
      'reconciler.taintEffect=NoExecute',
      '--wait',
      '--timeout',
      '180s',
    ]);
    expect(r.code, `${r.out}\n${diagnostics()}`).to.equal(0);
    await until(
      'two Ready Pods of the new ReplicaSet only',
      120_000,
      async () => {
        const now = (await pods()).filter((p) => !p.metadata.deletionTimestamp);
        const fresh = now.filter((p) => !before.has(p.metadata.name));
        return fresh.length === 2 && now.length === 2 ? true : undefined;
      },
      diagnostics,
    );
    await until(
      'a Lease holder among the new Pods',
      90_000,
      async () => {
        const h = await holder();
        return h !== '' && !before.has(h) ? h : undefined;
      },
      diagnostics,
    );
    await karmada!.setNodesReady('member1', false);
    const c = await until(
      'member1 tainted NoExecute',
      90_000,
      async () => {
        const got = await cluster('member1');
        // The taint is written before the condition: wait for both.
        return ourTaint(got)?.effect === 'NoExecute' && healthy(got) === 'False' ? got : undefined;
      },
      diagnostics,
    );
    expect(healthy(c)).to.equal('False');
  });

  it("helm uninstall of both halves, with the README's taint cleanup, leaves every Cluster and no taint of ours", async function () {
    // member1 is tainted now: uninstalling the reconciler alone would leave it unschedulable for ever.
    expect(ourTaint(await cluster('member1'))).not.to.equal(undefined);
    let r = helm(node!.controlPlane.kubeconfigPath, [
      'uninstall',
      RELEASE,
      '-n',
      NAMESPACE,
      '--wait',
      '--timeout',
      '120s',
    ]);
    expect(r.code, r.out).to.equal(0);
    // The chart README's cleanup command, as written there.
    const readme = readFileSync(join(CHART, 'README.md'), 'utf8');
    const block = /<!-- taint-cleanup -->\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block, 'the chart README has a taint-cleanup block').to.be.a('string');
    const cleanup = spawnSync('sh', ['-eu', '-c', block!], {
      encoding: 'utf8',
      cwd: work,
      env: { ...process.env, KARMADA_KUBECONFIG: karmada!.host.kubeconfigPath },
      timeout: 120_000,
    });
    expect(cleanup.status, `${cleanup.stdout}${cleanup.stderr}`).to.equal(0);
    r = helm(karmada!.host.kubeconfigPath, ['uninstall', RELEASE, '-n', NAMESPACE, '--wait', '--timeout', '120s']);
    expect(r.code, r.out).to.equal(0);
    const clusters = (JSON.parse(await ka(['get', 'clusters', '-o', 'json'])) as { items: Cluster[] }).items;
    expect(clusters.map((c) => c.metadata.name).sort()).to.deep.equal(['member1', 'member2']);
    for (const c of clusters) expect(ourTaint(c), c.metadata.name).to.equal(undefined);
    // helm waits for the Deployment; its Pods go after their grace period (30 s), through the garbage collector.
    await until(
      `no workload left in ${NAMESPACE} of the host cluster`,
      90_000,
      async () => {
        const left = await host(['get', 'deployment,replicaset,pods,secret', '-n', NAMESPACE, '-o', 'name']);
        return left.trim() === '' ? true : undefined;
      },
      diagnostics,
    );
  });

  it('installs with kustomize as docs/karmada.md says, taints from its Pods, and deletes cleanly', async function () {
    // The manifests deploy the release tag; the image is the same build.
    node!.tagImage(
      image,
      `${image.slice(0, image.lastIndexOf(':'))}:v${(JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }).version}`,
    );
    await ka(['apply', '-k', join(repo, 'manifests')]);
    await until('the token in Secret cluster-probe-reconciler-token', 60_000, async () => {
      const token = await ka(['get', 'secret', `${RECONCILER}-token`, '-n', NAMESPACE, '-o', 'jsonpath={.data.token}']);
      return token.trim() !== '' ? true : undefined;
    });
    rmSync(join(work, 'karmada.config'), { force: true });
    await makeKarmadaConfig();
    const started = Date.now();
    await host(['apply', '-k', join(repo, 'manifests', 'host')]);
    await host([
      'create',
      'secret',
      'generic',
      'karmada-kubeconfig',
      '-n',
      NAMESPACE,
      `--from-file=${join(work, 'karmada.config')}`,
    ]);
    const rolled = await node!.kubectl(
      ['rollout', 'status', `deployment/${RECONCILER}`, '-n', NAMESPACE, '--timeout=180s'],
      {
        timeoutMs: 200_000,
      },
    );
    expect(rolled.code, `${rolled.stderr}\n${diagnostics()}`).to.equal(0);
    report('kubectl apply -k to Ready', Date.now() - started, '2 replicas');
    // member1 is still NotReady from the upgrade test: with both failing, the disruption guard would hold every verdict.
    await karmada!.setNodesReady('member1', true);
    for (const member of karmada!.members) {
      await until(
        `${member.name} Healthy=True from the kustomize Pods`,
        90_000,
        async () => (healthy(await cluster(member.name)) === 'True' ? true : undefined),
        diagnostics,
      );
    }
    await karmada!.setNodesReady('member2', false);
    const c = await until(
      'member2 tainted from the kustomize Pods',
      60_000,
      async () => {
        const got = await cluster('member2');
        return ourTaint(got) ? got : undefined;
      },
      diagnostics,
    );
    expect(ourTaint(c)?.effect).to.equal('NoSchedule');
    await karmada!.setNodesReady('member2', true);
    await until(
      'member2 untainted',
      60_000,
      async () => (ourTaint(await cluster('member2')) ? undefined : true),
      diagnostics,
    );
    // --ignore-not-found: the token controller deletes the token Secret with its ServiceAccount.
    await host([
      'delete',
      '-k',
      join(repo, 'manifests', 'host'),
      '--ignore-not-found',
      '--wait=true',
      '--timeout=120s',
    ]);
    await ka(['delete', '-k', join(repo, 'manifests'), '--ignore-not-found', '--wait=true', '--timeout=120s']);
    const clusters = (JSON.parse(await ka(['get', 'clusters', '-o', 'json'])) as { items: Cluster[] }).items;
    expect(clusters.map((x) => x.metadata.name).sort()).to.deep.equal(['member1', 'member2']);
    for (const x of clusters) expect(ourTaint(x), x.metadata.name).to.equal(undefined);
  });
});
