// The project on a real Karmada v1.18.2 control plane (src/dev/karmada.ts): karmada-apiserver, karmada-aggregated-
// apiserver behind its APIService, Karmada's CRDs, karmada-webhook, -controller-manager and -scheduler, and two member
// kube-apiservers joined as Push Clusters whose Nodes' Ready condition the tests flip. The member whose nodes are all
// NotReady stays Ready for Karmada (its /readyz answers OK); our reconciler marks it, and karmada-scheduler obeys.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { httpsGet } from '../../src/dev/loopback.js';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient, type KubeApi } from '../../src/reconciler/index.js';
import type { Cluster } from '../../packages/schema/src/schema/index.js';
import { startKarmada, type KarmadaControlPlane } from '../../src/dev/karmada.js';
import { sampleWorkload } from '../../src/dev/karmada-playground.js';
import { runCli, WebhookProcess, type CliInvocation } from '../../src/dev/webhook-process.js';
import { assertNotKarmadaControlPlane, KarmadaControlPlaneError } from '../../src/deploy/index.js';
import { parseMetric, sleep, startReconciler, waitFor, type ReconcilerProcess } from './support/reconciler-env.js';

const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';
const PROBE_ANNOTATION = 'cluster.karmada.io/liveness-probe';
const LEGACY_ANNOTATION = 'cluster.karmada.io/health-checker';
// The CLI from source, as `npx tsx src/cli/bin.ts` runs it.
const CLI: CliInvocation = {
  command: process.execPath,
  args: ['--import', 'tsx', fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url))],
};
const TAINT = 'cluster.karmada.io/unhealthy';
const PERIOD_S = 2;
const FAILURE_THRESHOLD = 2;
const SUCCESS_THRESHOLD = 1;
/** How long the tests watch Karmada's controllers for undoing our condition or taint. */
const OBSERVE_MS = Number(process.env.CLUSTER_PROBE_KARMADA_OBSERVE_MS ?? 60_000);

interface EventObject {
  reason?: string;
  type?: string;
  message?: string;
  involvedObject?: { name?: string; kind?: string };
}

interface Binding {
  spec?: { clusters?: { name: string }[] };
}

const probe = { apiServer: { minReadyNodes: 2 }, periodSeconds: PERIOD_S, failureThreshold: FAILURE_THRESHOLD };

function condition(c: Cluster, type: string): { status?: string; reason?: string; message?: string } | undefined {
  return c.status?.conditions?.find((x) => x.type === type);
}

function hasTaint(c: Cluster): boolean {
  return (c.spec?.taints ?? []).some((t) => t.key === TAINT);
}

function report(what: string, ms: number): void {
  const bound = FAILURE_THRESHOLD * PERIOD_S;
  process.stderr.write(
    `      ${what}: ${(ms / 1000).toFixed(1)} s (failureThreshold ${FAILURE_THRESHOLD} x period ${PERIOD_S} s = ${bound} s)\n`,
  );
}

describe('Karmada v1.18.2 control plane (e2e)', function () {
  this.timeout(600_000);
  let karmada: KarmadaControlPlane | undefined;
  let api: KubeApi;
  let reconciler: ReconcilerProcess | undefined;

  const k = async (args: string[], input?: string): Promise<string> => {
    const out = await karmada!.kubectl(args, input !== undefined ? { input } : {});
    if (out.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed: ${out.stderr}`);
    return out.stdout;
  };
  const getCluster = (name: string): Promise<Cluster> => api.request<Cluster>('GET', `${CLUSTERS}/${name}`);
  const binding = async (name: string): Promise<string[] | undefined> => {
    const out = await karmada!.kubectl(['get', 'resourcebinding', `${name}-deployment`, '-n', 'default', '-o', 'json']);
    if (out.code !== 0) return undefined;
    const clusters = (JSON.parse(out.stdout) as Binding).spec?.clusters;
    return clusters?.map((c) => c.name).sort();
  };
  const deploy = async (name: string): Promise<void> => {
    await k(
      ['apply', '-f', '-'],
      sampleWorkload(
        name,
        karmada!.members.map((m) => m.name),
        'registry.invalid/web:1',
      ),
    );
  };
  const writes = async (): Promise<number> => reconciler!.metric('cluster_probe_reconciler_writes_total');

  before(async function () {
    // Failover: Karmada's ClusterTaintPolicy controller runs only with it (the condition-only test below).
    karmada = await startKarmada({
      members: 2,
      nodesPerMember: 2,
      extraControllerManagerArgs: ['--feature-gates=Failover=true'],
    });
    const kc = new KubeConfig();
    kc.loadFromFile(karmada.host.kubeconfigPath);
    api = new KubeClient(kc);
    for (const member of karmada.members) {
      await k(['annotate', '--overwrite', 'cluster', member.name, `${PROBE_ANNOTATION}=${JSON.stringify(probe)}`]);
    }
    reconciler = await startReconciler('karmada-e2e', karmada.host.kubeconfigPath, ['--lease-namespace', 'default']);
  });

  after(async function () {
    await reconciler?.kill('SIGTERM');
    await karmada?.stop();
  });

  it('serves Cluster from karmada-aggregated-apiserver behind its APIService, not from a CRD', async function () {
    const apiService = JSON.parse(await k(['get', 'apiservice', 'v1alpha1.cluster.karmada.io', '-o', 'json'])) as {
      spec?: { service?: { name?: string } };
    };
    expect(apiService.spec?.service?.name).to.equal('karmada-aggregated-apiserver');
    const crd = await karmada!.kubectl(['get', 'crd', 'clusters.cluster.karmada.io']);
    expect(crd.code).to.not.equal(0);
    expect(crd.stderr).to.include('NotFound');
  });

  it('probes both healthy members: Healthy=True, no taint, Karmada Ready=True', async function () {
    for (const member of karmada!.members) {
      const c = await waitFor(`${member.name} Healthy=True`, 60_000, async () => {
        const got = await getCluster(member.name);
        return condition(got, 'Healthy')?.status === 'True' ? got : undefined;
      });
      expect(hasTaint(c)).to.equal(false);
      expect(condition(c, 'Ready')?.status).to.equal('True');
    }
  });

  it('taints a member whose nodes are all NotReady while Karmada still calls it Ready, with an Event', async function () {
    const started = Date.now();
    await karmada!.setNodesReady('member1', false);
    const tainted = await waitFor('member1 tainted', 60_000, async () => {
      const c = await getCluster('member1');
      return hasTaint(c) && condition(c, 'Healthy')?.status === 'False' ? c : undefined;
    });
    report('time to taint', Date.now() - started);
    expect(condition(tainted, 'Healthy')?.message).to.match(/Ready nodes|ready nodes|nodes/i);
    // Karmada's own health check calls /readyz of the member, which answers OK.
    expect(condition(tainted, 'Ready')?.status).to.equal('True');
    const events = JSON.parse(
      await k(['get', 'events', '-n', 'default', '--field-selector', 'involvedObject.name=member1', '-o', 'json']),
    ) as { items: EventObject[] };
    expect(events.items.some((e) => e.involvedObject?.kind === 'Cluster' && e.type === 'Warning')).to.equal(true);
    const member2 = await getCluster('member2');
    expect(hasTaint(member2)).to.equal(false);
  });

  it('karmada-scheduler leaves the tainted member out of a new ResourceBinding', async function () {
    await deploy('web-while-tainted');
    const clusters = await waitFor('ResourceBinding web-while-tainted scheduled', 90_000, async () => {
      const got = await binding('web-while-tainted');
      return got !== undefined && got.length > 0 ? got : undefined;
    });
    expect(clusters).to.deep.equal(['member2']);
  });

  it("Karmada's controllers leave the condition and the taint alone, and the reconciler writes nothing", async function () {
    const before = await writes();
    const deadline = Date.now() + OBSERVE_MS;
    let checks = 0;
    while (Date.now() < deadline) {
      const c = await getCluster('member1');
      expect(hasTaint(c), 'taint still there').to.equal(true);
      expect(condition(c, 'Healthy')?.status, 'Healthy still False').to.equal('False');
      checks++;
      await sleep(2_000);
    }
    const after = await writes();
    process.stderr.write(
      `      steady state: ${after - before} writes in ${(OBSERVE_MS / 1000).toFixed(0)} s, ${checks} checks\n`,
    );
    expect(after - before).to.equal(0);
  });

  it('removes the taint when the nodes come back, and a new workload is placed on both members', async function () {
    const started = Date.now();
    await karmada!.setNodesReady('member1', true);
    await waitFor('member1 untainted', 60_000, async () => {
      const c = await getCluster('member1');
      return !hasTaint(c) && condition(c, 'Healthy')?.status === 'True';
    });
    report(`time to untaint (successThreshold ${SUCCESS_THRESHOLD})`, Date.now() - started);
    await deploy('web-after-recovery');
    const clusters = await waitFor('ResourceBinding web-after-recovery on both', 90_000, async () => {
      const got = await binding('web-after-recovery');
      return got !== undefined && got.length === 2 ? got : undefined;
    });
    expect(clusters).to.deep.equal(['member1', 'member2']);
  });

  it('reports a probe that bypassed admission as Healthy=Unknown/InvalidLivenessProbe and never runs it', async function () {
    const applied = await karmada!.kubectl(['apply', '-f', '-'], {
      input: extraCluster(karmada!, 'bad-port', { [PROBE_ANNOTATION]: BAD_PORT }),
    });
    expect(applied.code, applied.stderr).to.equal(0);
    const c = await waitFor('bad-port Healthy=Unknown', 60_000, async () => {
      const got = await getCluster('bad-port');
      return condition(got, 'Healthy')?.status === 'Unknown' ? got : undefined;
    });
    expect(condition(c, 'Healthy')?.reason).to.equal('InvalidLivenessProbe');
    expect(condition(c, 'Healthy')?.message).to.include(
      'httpGet.port: Invalid value: 70000: must be between 1 and 65535, inclusive',
    );
    expect(hasTaint(c)).to.equal(false);
    const events = JSON.parse(
      await k(['get', 'events', '-n', 'default', '--field-selector', 'involvedObject.name=bad-port', '-o', 'json']),
    ) as { items: EventObject[] };
    expect(events.items.map((e) => `${e.type}/${e.reason}`)).to.include('Warning/InvalidLivenessProbe');
    expect(await reconciler!.metric('cluster_probe_reconciler_invalid_probes')).to.equal(1);
    await k(['delete', 'cluster', 'bad-port', '--wait=false']);
  });

  it("trusts the member's CA from spec.secretRef for a legacy url aimed at the member's own endpoint", async function () {
    const member = karmada!.members[0]!;
    const legacy = JSON.stringify({ url: `${member.controlPlane.url}/readyz` });
    const applied = await karmada!.kubectl(['apply', '-f', '-'], {
      input: extraCluster(karmada!, 'legacy-endpoint', { [LEGACY_ANNOTATION]: legacy }),
    });
    expect(applied.code, applied.stderr).to.equal(0);
    const c = await waitFor('legacy-endpoint Healthy', 60_000, async () => {
      const got = await getCluster('legacy-endpoint');
      const status = condition(got, 'Healthy')?.status;
      return status === 'True' || status === 'False' ? got : undefined;
    });
    // Without the Secret's caBundle this is `x509: certificate signed by unknown authority` and a taint.
    expect(condition(c, 'Healthy')?.status, condition(c, 'Healthy')?.message).to.equal('True');
    expect(hasTaint(c)).to.equal(false);
    await k(['delete', 'cluster', 'legacy-endpoint', '--wait=false']);
  });

  it('drops or refuses spec.livenessProbe: the aggregated apiserver has no such field', async function () {
    const patched = await karmada!.kubectl([
      'patch',
      'cluster',
      'member2',
      '--type=merge',
      '-p',
      JSON.stringify({ spec: { livenessProbe: { tcpSocket: { port: 6443 } } } }),
    ]);
    const c = (await getCluster('member2')) as Cluster & { spec: Record<string, unknown> };
    expect(c.spec.livenessProbe, `patch said: ${patched.stdout}${patched.stderr}`).to.equal(undefined);
  });

  it('refuses to install the CRD on Karmada: the guard finds the aggregated APIService', async function () {
    let refused: unknown;
    await assertNotKarmadaControlPlane(karmada!.host.kubeconfigPath).catch((err: unknown) => (refused = err));
    expect(refused).to.be.instanceOf(KarmadaControlPlaneError);
    expect((refused as Error).message).to.include('v1alpha1.cluster.karmada.io');
    const cli = await runCli(CLI, [
      'manifests',
      '--only',
      'crd-served',
      '--with-crd',
      '--kubeconfig',
      karmada!.host.kubeconfigPath,
    ]);
    expect(cli.code).to.equal(1);
    expect(cli.stdout).to.equal('');
    expect(cli.stderr).to.include('cluster.karmada.io');
  });

  it('applies and deletes the Karmada install (kubectl apply/delete -k manifests/): every Cluster and binding stays', async function () {
    const before = (await k(['get', 'clusters', '-o', 'name'])).trim().split('\n').sort();
    const bindings = (await k(['get', 'resourcebindings', '-A', '-o', 'name'])).trim().split('\n').sort();
    await k(['apply', '-k', fileURLToPath(new URL('../../manifests/', import.meta.url))]);
    await k([
      'apply',
      '-k',
      fileURLToPath(new URL('../../manifests/karmada-apiserver/taint-policy/', import.meta.url)),
    ]);
    const crd = await karmada!.kubectl(['get', 'crd', 'clusters.cluster.karmada.io']);
    expect(crd.code, 'the Karmada install must not contain the CRD').to.not.equal(0);
    await k([
      'delete',
      '--wait=false',
      '-k',
      fileURLToPath(new URL('../../manifests/karmada-apiserver/taint-policy/', import.meta.url)),
    ]);
    await k(['delete', '--wait=false', '-k', fileURLToPath(new URL('../../manifests/', import.meta.url))]);
    await sleep(3_000);
    expect((await k(['get', 'clusters', '-o', 'name'])).trim().split('\n').sort()).to.deep.equal(before);
    expect((await k(['get', 'resourcebindings', '-A', '-o', 'name'])).trim().split('\n').sort()).to.deep.equal(
      bindings,
    );
    for (const member of karmada!.members) {
      expect(condition(await getCluster(member.name), 'Ready')?.status).to.equal('True');
    }
  });

  it('condition-only mode: a ClusterTaintPolicy turns Healthy=False into the taint, and removes it', async function () {
    await reconciler!.kill('SIGTERM');
    reconciler = await startReconciler('karmada-e2e-condition-only', karmada!.host.kubeconfigPath, [
      '--lease-namespace',
      'default',
      '--taint-effect',
      'None',
    ]);
    const policyDir = fileURLToPath(new URL('../../manifests/karmada-apiserver/taint-policy/', import.meta.url));
    await k(['apply', '-k', policyDir]);
    const started = Date.now();
    await karmada!.setNodesReady('member2', false);
    const tainted = await waitFor('member2 tainted by the ClusterTaintPolicy', 90_000, async () => {
      const c = await getCluster('member2');
      return condition(c, 'Healthy')?.status === 'False' && hasTaint(c) ? c : undefined;
    });
    report('time to taint through ClusterTaintPolicy', Date.now() - started);
    expect((tainted.spec?.taints ?? []).find((t) => t.key === TAINT)?.effect).to.equal('NoSchedule');
    await karmada!.setNodesReady('member2', true);
    await waitFor('member2 untainted by the ClusterTaintPolicy', 90_000, async () => {
      const c = await getCluster('member2');
      return condition(c, 'Healthy')?.status === 'True' && !hasTaint(c);
    });
    await k(['delete', '--wait=false', '-k', policyDir]);
  });
});

/** A Cluster joined like the members but never probed by Karmada's tests: a second name for member1's endpoint. */
function extraCluster(karmada: KarmadaControlPlane, name: string, annotations: Record<string, string>): string {
  const member = karmada.members[0]!;
  return JSON.stringify({
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name, annotations },
    spec: {
      syncMode: 'Push',
      apiEndpoint: member.controlPlane.url,
      secretRef: { namespace: 'karmada-cluster', name: member.name },
    },
  });
}

const BAD_PORT = JSON.stringify({ httpGet: { host: '127.0.0.1', port: 70000, path: '/healthz' } });
const LEGACY = JSON.stringify({ url: 'https://127.0.0.1:6443/readyz' });

/** Our webhook registered on karmada-apiserver exactly as docs/webhook.md said (manifests --url, --only webhooks). */
async function startWebhook(karmada: KarmadaControlPlane): Promise<WebhookProcess> {
  const webhook = await WebhookProcess.create({
    cli: CLI,
    dir: karmada.host.dir,
    serveArgs: ['--probe-location', 'annotation'],
    onStart: (group) => karmada.host.adopt(group),
  });
  await webhook.start();
  await karmada.host.registerWebhooks(await webhook.manifests());
  return webhook;
}

/** Admission requests the webhook has answered, from its /metrics over TLS with its own CA. */
async function webhookRequests(webhook: WebhookProcess): Promise<number> {
  const res = await httpsGet({
    port: Number(new URL(webhook.url).port),
    path: '/metrics',
    ca: readFileSync(webhook.caFile, 'utf8'),
    timeoutMs: 5_000,
  });
  if (res.status !== 200) throw new Error(`webhook /metrics answered ${res.status}`);
  return parseMetric(res.body, 'cluster_probe_webhook_requests_total');
}

describe('stock Karmada: no admission for Cluster writes (e2e)', function () {
  this.timeout(600_000);
  let karmada: KarmadaControlPlane | undefined;
  let webhook: WebhookProcess | undefined;

  before(async function () {
    karmada = await startKarmada({ members: 1, nodesPerMember: 1, name: 'karmada-stock' });
    webhook = await startWebhook(karmada);
  });
  after(async function () {
    await karmada?.stop();
  });

  it('stores a probe with port 70000 and a legacy annotation unchanged: the webhook is never called', async function () {
    const bad = await karmada!.kubectl(['apply', '-f', '-'], {
      input: extraCluster(karmada!, 'bad-port', { [PROBE_ANNOTATION]: BAD_PORT }),
    });
    expect(bad.code, bad.stderr).to.equal(0);
    const legacy = await karmada!.kubectl(['apply', '-f', '-'], {
      input: extraCluster(karmada!, 'legacy', { [LEGACY_ANNOTATION]: LEGACY }),
    });
    expect(legacy.code, legacy.stderr).to.equal(0);
    const stored = JSON.parse((await karmada!.kubectl(['get', 'cluster', 'legacy', '-o', 'json'])).stdout) as Cluster;
    expect(stored.metadata?.annotations?.[LEGACY_ANNOTATION]).to.equal(LEGACY);
    expect(stored.metadata?.annotations?.[PROBE_ANNOTATION]).to.equal(undefined);
    // The webhook answers the apiserver for what karmada-apiserver serves itself, never for a Cluster.
    expect(await webhookRequests(webhook!)).to.equal(0);
  });

  it('migrate --in-cluster moves the legacy annotation of live Clusters (dry run first, then for real, then nothing)', async function () {
    const args = [
      'migrate',
      '--in-cluster',
      '--probe-location',
      'annotation',
      '--kubeconfig',
      karmada!.host.kubeconfigPath,
    ];
    const dry = await runCli(CLI, [...args, '--dry-run']);
    expect(dry.code, dry.stderr).to.equal(0);
    expect(dry.stdout).to.include('cluster/legacy: would migrate (dry run, nothing stored)');
    expect(dry.stdout).to.include(`  - metadata.annotations[${LEGACY_ANNOTATION}]: ${LEGACY}`);
    expect(dry.stdout).to.match(/1 would migrate, \d+ unchanged, 0 failed/);
    const still = JSON.parse((await karmada!.kubectl(['get', 'cluster', 'legacy', '-o', 'json'])).stdout) as Cluster;
    expect(still.metadata?.annotations?.[LEGACY_ANNOTATION]).to.equal(LEGACY);

    const real = await runCli(CLI, args);
    expect(real.code, real.stderr).to.equal(0);
    expect(real.stdout).to.include('cluster/legacy: migrated');
    const moved = JSON.parse((await karmada!.kubectl(['get', 'cluster', 'legacy', '-o', 'json'])).stdout) as Cluster;
    expect(moved.metadata?.annotations?.[LEGACY_ANNOTATION]).to.equal(undefined);
    const probe = JSON.parse(moved.metadata?.annotations?.[PROBE_ANNOTATION] ?? '{}') as {
      httpGet?: { port?: unknown };
    };
    expect(probe.httpGet?.port).to.equal(6443);
    // Nothing else of the Cluster changed (Karmada's controllers may write taints and status meanwhile).
    expect(moved.spec?.apiEndpoint).to.equal(still.spec?.apiEndpoint);
    expect(moved.spec?.secretRef).to.deep.equal(still.spec?.secretRef);
    expect(Object.keys(moved.metadata?.annotations ?? {}).sort()).to.deep.equal(
      Object.keys(still.metadata?.annotations ?? {})
        .filter((key) => key !== LEGACY_ANNOTATION)
        .concat(PROBE_ANNOTATION)
        .sort(),
    );

    const again = await runCli(CLI, args);
    expect(again.code, again.stderr).to.equal(0);
    expect(again.stdout).to.match(/0 migrated, \d+ unchanged, 0 failed/);
  });
});

describe('Karmada with the admission patch (e2e)', function () {
  this.timeout(600_000);
  let karmada: KarmadaControlPlane | undefined;
  let webhook: WebhookProcess | undefined;

  before(async function () {
    karmada = await startKarmada({ members: 1, nodesPerMember: 1, admission: true, name: 'karmada-admission' });
    webhook = await startWebhook(karmada);
    // The aggregated apiserver's webhook informer needs a moment to see the new configurations.
    await waitFor('the webhook to be called for a Cluster write', 60_000, async () => {
      await karmada!.kubectl(['apply', '--dry-run=server', '-f', '-'], {
        input: extraCluster(karmada!, 'probe-admission', {}),
      });
      return (await webhookRequests(webhook!)) > 0;
    });
  });
  after(async function () {
    await karmada?.stop();
  });

  it("denies a probe with port 70000 in the apiserver's words", async function () {
    const out = await karmada!.kubectl(['apply', '-f', '-'], {
      input: extraCluster(karmada!, 'bad-port', { [PROBE_ANNOTATION]: BAD_PORT }),
    });
    expect(out.code).to.equal(1);
    expect(out.stderr).to.include('The Cluster "bad-port" is invalid');
    expect(out.stderr).to.include('httpGet.port: Invalid value: 70000: must be between 1 and 65535, inclusive');
    const got = await karmada!.kubectl(['get', 'cluster', 'bad-port']);
    expect(got.code).to.not.equal(0);
  });

  it('migrates the legacy annotation into the probe annotation, with a warning', async function () {
    const out = await karmada!.kubectl(['apply', '-f', '-'], {
      input: extraCluster(karmada!, 'legacy', { [LEGACY_ANNOTATION]: LEGACY }),
    });
    expect(out.code, out.stderr).to.equal(0);
    expect(out.stderr).to.match(/Warning: .*health-checker/);
    const stored = JSON.parse((await karmada!.kubectl(['get', 'cluster', 'legacy', '-o', 'json'])).stdout) as Cluster;
    expect(stored.metadata?.annotations?.[LEGACY_ANNOTATION]).to.equal(undefined);
    const migrated = JSON.parse(stored.metadata?.annotations?.[PROBE_ANNOTATION] ?? '{}') as Record<string, unknown>;
    expect(migrated.httpGet).to.be.an('object');
  });

  it('fills in the timing defaults of a probe that omits them', async function () {
    const out = await karmada!.kubectl(['apply', '-f', '-'], {
      input: extraCluster(karmada!, 'defaults', { [PROBE_ANNOTATION]: JSON.stringify({ tcpSocket: { port: 6443 } }) }),
    });
    expect(out.code, out.stderr).to.equal(0);
    const stored = JSON.parse((await karmada!.kubectl(['get', 'cluster', 'defaults', '-o', 'json'])).stdout) as Cluster;
    const probe = JSON.parse(stored.metadata?.annotations?.[PROBE_ANNOTATION] ?? '{}') as Record<string, unknown>;
    expect(probe).to.include({ periodSeconds: 10, timeoutSeconds: 1, failureThreshold: 3, successThreshold: 1 });
  });
});
