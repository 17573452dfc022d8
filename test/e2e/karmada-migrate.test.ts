// `cluster-probe migrate --in-cluster` run as its --help offers it, with no --probe-location, on the real things: a
// Karmada v1.18.2 control plane (karmada-aggregated-apiserver behind its APIService drops spec.livenessProbe and
// answers 200), stock and with the admission patch plus our webhook, and the stand-in (kube-apiserver serving our
// CRD). On Karmada nothing is lost: the members' probes stay in their annotation and keep running (their Healthy
// conditions unchanged), the legacy Cluster moves into the annotation, `--probe-location field` is refused before any
// write, the dry run shows what would be stored, and a backup and --restore round trip gives the annotations back
// byte for byte. On the stand-in, auto moves the probe into the field.
import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeApiError, KubeClient, lostResourceVersionRace, type KubeApi } from '../../src/kube/index.js';
import { defaultProbe, type Cluster } from '../../packages/schema/src/schema/index.js';
import { startKarmada, type KarmadaControlPlane } from '../../src/dev/karmada.js';
import { runCli, WebhookProcess, type CliInvocation, type CliResult } from '../../src/dev/webhook-process.js';
import { startControlPlane, type ControlPlane } from './harness/controlplane.js';
import { sleep, startReconciler, waitFor, type ReconcilerProcess } from './support/reconciler-env.js';

const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';
import { PROBE_ANNOTATION } from '../../packages/schema/src/api/index.js';
const LEGACY_ANNOTATION = 'cluster.karmada.io/health-checker';
const CLI: CliInvocation = {
  command: process.execPath,
  args: ['--import', 'tsx', fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url))],
};
const CRD = fileURLToPath(new URL('../../manifests/crd/cluster.karmada.io_clusters.yaml', import.meta.url));
const PERIOD_S = 2;
// Written by hand, with its own spacing: a round trip must give these bytes back.
const PROBE = `{"apiServer": {"minReadyNodes": 2}, "periodSeconds": ${PERIOD_S}, "failureThreshold": 2}`;

type Condition = { type?: string; status?: string; reason?: string; lastTransitionTime?: string };
const healthy = (c: Cluster): Condition | undefined =>
  (c.status?.conditions as Condition[] | undefined)?.find((x) => x.type === 'Healthy');

/** A Cluster on member1's endpoint and Secret, carrying `annotations`. */
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

/** Each run's default backup directory is a temporary XDG_STATE_HOME, never the user's. */
function withStateHome(): { dir: string; restore: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'cluster-probe-migrate-e2e-'));
  const was = process.env.XDG_STATE_HOME;
  process.env.XDG_STATE_HOME = dir;
  return {
    dir,
    restore: () => {
      if (was === undefined) delete process.env.XDG_STATE_HOME;
      else process.env.XDG_STATE_HOME = was;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function backupsIn(state: string): string[] {
  const at = join(state, 'karmada-cluster-probe');
  return existsSync(at) ? readdirSync(at).map((f) => join(at, f)) : [];
}

const printed = (r: CliResult) => `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;

/** The checks every Karmada flavour must pass, on a control plane whose member Clusters carry PROBE. */
function onKarmada(
  setup: () => { karmada: KarmadaControlPlane; api: KubeApi; state: string; legacy: string },
  webhookMigrates = false,
) {
  const annotations = async (name: string) =>
    (await setup().api.request<Cluster>('GET', `${CLUSTERS}/${name}`)).metadata?.annotations ?? {};
  const migrate = (...args: string[]) =>
    runCli(CLI, ['migrate', '--in-cluster', '--kubeconfig', setup().karmada.host.kubeconfigPath, ...args]);

  it('refuses --probe-location field before any write, saying why and what to pass', async function () {
    const { karmada, state, legacy } = setup();
    const before = await Promise.all(['member1', legacy].map(annotations));
    const r = await migrate('--probe-location', 'field');
    expect(r.code, printed(r)).to.equal(2);
    expect(r.stderr).to.include('--probe-location field refused');
    expect(r.stderr).to.include('does not store spec.livenessProbe');
    expect(r.stderr).to.include('karmada-system/karmada-aggregated-apiserver');
    expect(r.stderr).to.include('pass --probe-location annotation');
    expect(r.stdout).to.equal('');
    expect(await Promise.all(['member1', legacy].map(annotations))).to.deep.equal(before);
    expect(backupsIn(state)).to.deep.equal([]);
    void karmada;
  });

  it('--dry-run shows what karmada-aggregated-apiserver would store, and stores nothing', async function () {
    const { legacy } = setup();
    const was = await annotations(legacy);
    const r = await migrate('--dry-run');
    expect(r.code, printed(r)).to.equal(0);
    expect(r.stderr).to.include('--probe-location auto: annotation');
    expect(r.stdout).to.include(
      `cluster/${legacy}: would migrate (dry run, nothing stored); the apiserver would store:`,
    );
    expect(r.stdout).to.include(`  - metadata.annotations[${LEGACY_ANNOTATION}]: ${was[LEGACY_ANNOTATION]}`);
    expect(r.stdout).to.match(/\+ metadata\.annotations\[cluster\.karmada\.io\/liveness-probe\]: \{"httpGet"/);
    expect(r.stdout).to.not.include('cluster/member1');
    expect(await annotations(legacy)).to.deep.equal(was);
  });

  it('the exact run of --help (no --probe-location) loses no probe, migrates the legacy Cluster into the annotation, and restores byte for byte', async function () {
    const { state, legacy } = setup();
    const before = Object.fromEntries(
      await Promise.all(['member1', legacy].map(async (n) => [n, await annotations(n)] as const)),
    );
    const r = await runCli(CLI, ['migrate', '--in-cluster', '--kubeconfig', setup().karmada.host.kubeconfigPath]);
    expect(r.code, printed(r)).to.equal(0);
    expect(r.stdout).to.include(`cluster/${legacy}: migrated`);
    expect(r.stdout).to.match(/1 migrated, \d+ unchanged, 0 failed/);
    expect(await annotations('member1')).to.deep.equal(before.member1);
    const moved = await annotations(legacy);
    expect(moved[LEGACY_ANNOTATION]).to.equal(undefined);
    expect(JSON.parse(moved[PROBE_ANNOTATION] ?? '{}')).to.have.property('httpGet');
    const [backup] = backupsIn(state);
    expect(r.stderr).to.include(`backup: ${backup}`);

    const back = await runCli(CLI, [
      'migrate',
      '--restore',
      backup!,
      '--kubeconfig',
      setup().karmada.host.kubeconfigPath,
    ]);
    if (webhookMigrates) {
      // Our webhook migrates the legacy annotation on every write, the restore's too: said, not hidden.
      expect(back.code, printed(back)).to.equal(1);
      expect(back.stdout).to.include(`cluster/${legacy}: the apiserver did not store what the backup holds`);
      expect(await annotations(legacy)).to.deep.equal(moved);
      return;
    }
    expect(back.code, printed(back)).to.equal(0);
    expect(back.stdout).to.include(`cluster/${legacy}: restored`);
    expect(await annotations(legacy)).to.deep.equal(before[legacy]);
    expect((await annotations(legacy))[LEGACY_ANNOTATION]).to.equal(before[legacy]![LEGACY_ANNOTATION]);
  });
}

describe('migrate --in-cluster on stock Karmada v1.18.2 (e2e)', function () {
  this.timeout(600_000);
  let karmada: KarmadaControlPlane | undefined;
  let api: KubeApi;
  let reconciler: ReconcilerProcess | undefined;
  let state: ReturnType<typeof withStateHome>;
  const get = (name: string) => api.request<Cluster>('GET', `${CLUSTERS}/${name}`);

  before(async function () {
    state = withStateHome();
    karmada = await startKarmada({ members: 2, nodesPerMember: 2, name: 'karmada-migrate' });
    const kc = new KubeConfig();
    kc.loadFromFile(karmada.host.kubeconfigPath);
    api = new KubeClient(kc);
    for (const member of karmada.members) {
      const out = await karmada.kubectl(['annotate', 'cluster', member.name, `${PROBE_ANNOTATION}=${PROBE}`]);
      expect(out.code, out.stderr).to.equal(0);
    }
    const legacy = JSON.stringify({ url: `${karmada.members[0]!.controlPlane.url}/readyz` });
    const applied = await karmada.kubectl(['apply', '-f', '-'], {
      input: extraCluster(karmada, 'k3-legacy', { [LEGACY_ANNOTATION]: legacy }),
    });
    expect(applied.code, applied.stderr).to.equal(0);
    reconciler = await startReconciler('karmada-migrate-e2e', karmada.host.kubeconfigPath, [
      '--lease-namespace',
      'default',
    ]);
    for (const name of ['member1', 'member2'])
      await waitFor(`${name} Healthy=True`, 60_000, async () =>
        healthy(await get(name))?.status === 'True' ? true : undefined,
      );
  });
  after(async function () {
    await reconciler?.kill('SIGTERM');
    await karmada?.stop();
    state?.restore();
  });

  let conditionsBefore: Record<string, Condition | undefined> = {};
  it('(the members are probed: Healthy=True)', async function () {
    conditionsBefore = { member1: healthy(await get('member1')), member2: healthy(await get('member2')) };
    expect(conditionsBefore.member1?.status).to.equal('True');
    expect(conditionsBefore.member2?.status).to.equal('True');
  });

  it("a JSON patch whose resourceVersion test fails: karmada-aggregated-apiserver's bare 422, as the fake apiserver of the integration tests answers it", async function () {
    const now = await get('member2');
    const err = await api
      .request('PATCH', `${CLUSTERS}/member2`, {
        body: [
          { op: 'test', path: '/metadata/resourceVersion', value: `${now.metadata?.resourceVersion ?? ''}0` },
          { op: 'add', path: '/metadata/labels', value: { raced: 'yes' } },
        ],
        contentType: 'application/json-patch+json',
      })
      .catch((e: unknown) => e);
    expect(err).to.be.instanceOf(KubeApiError);
    const e = err as KubeApiError;
    expect([e.status, e.reason]).to.deep.equal([422, 'Invalid']);
    // A bare 422 Invalid, nothing stored: the answer alone does not say the test failed (no causes), which is why
    // lostResourceVersionRace reads the object's resourceVersion to tell.
    expect(e.causes).to.deep.equal([]);
    expect(
      await lostResourceVersionRace(api, `${CLUSTERS}/member2`, e, `${now.metadata?.resourceVersion ?? ''}0`),
    ).to.equal(true);
    expect((await get('member2')).metadata?.labels?.raced).to.equal(undefined);
  });

  onKarmada(() => ({ karmada: karmada!, api, state: state.dir, legacy: 'k3-legacy' }));

  it("afterwards the members' probes still run: Healthy conditions unchanged, every probe's worker still there", async function () {
    const results = await reconciler!.metric('cluster_probe_reconciler_probe_results_total');
    await sleep(3 * PERIOD_S * 1000);
    expect(await reconciler!.metric('cluster_probe_reconciler_probe_results_total')).to.be.greaterThan(results);
    expect(await reconciler!.metric('cluster_probe_reconciler_workers')).to.equal(3);
    for (const name of ['member1', 'member2']) {
      const now = healthy(await get(name));
      expect(now, name).to.deep.equal(conditionsBefore[name]);
      expect((await get(name)).metadata?.annotations?.[PROBE_ANNOTATION], name).to.equal(PROBE);
    }
  });
});

describe('migrate --in-cluster on Karmada with the admission patch and our webhook (e2e)', function () {
  this.timeout(600_000);
  let karmada: KarmadaControlPlane | undefined;
  let api: KubeApi;
  let state: ReturnType<typeof withStateHome>;

  before(async function () {
    state = withStateHome();
    karmada = await startKarmada({ members: 1, nodesPerMember: 1, admission: true, name: 'karmada-migrate-admission' });
    const kc = new KubeConfig();
    kc.loadFromFile(karmada.host.kubeconfigPath);
    api = new KubeClient(kc);
    const out = await karmada.kubectl(['annotate', 'cluster', 'member1', `${PROBE_ANNOTATION}=${PROBE}`]);
    expect(out.code, out.stderr).to.equal(0);
    // Stored before the webhook is registered, as a Cluster older than the install would be.
    const legacy = JSON.stringify({ url: `${karmada.members[0]!.controlPlane.url}/readyz` });
    const applied = await karmada.kubectl(['apply', '-f', '-'], {
      input: extraCluster(karmada, 'k3-legacy', { [LEGACY_ANNOTATION]: legacy }),
    });
    expect(applied.code, applied.stderr).to.equal(0);
    const plane = karmada;
    const webhook = await WebhookProcess.create({
      cli: CLI,
      dir: plane.host.dir,
      serveArgs: ['--probe-location', 'annotation'],
      onStart: (group) => plane.host.adopt(group),
    });
    await webhook.start();
    await plane.host.registerWebhooks(await webhook.manifests());
    // The aggregated apiserver's webhook informer needs a moment to see the new configurations.
    await waitFor('the webhook to migrate a legacy Cluster on write', 60_000, async () => {
      const out = await plane.kubectl(['apply', '--dry-run=server', '-o', 'json', '-f', '-'], {
        input: extraCluster(plane, 'probe-admission', { [LEGACY_ANNOTATION]: '{"url":"https://127.0.0.1:1/"}' }),
      });
      if (out.code !== 0) return undefined;
      const stored = JSON.parse(out.stdout) as Cluster;
      return stored.metadata?.annotations?.[LEGACY_ANNOTATION] === undefined ? true : undefined;
    });
  });
  after(async function () {
    await karmada?.stop();
    state?.restore();
  });

  onKarmada(() => ({ karmada: karmada!, api, state: state.dir, legacy: 'k3-legacy' }), true);
});

describe('migrate --in-cluster on the stand-in: kube-apiserver serving our CRD (e2e)', function () {
  this.timeout(300_000);
  let cp: ControlPlane | undefined;
  let state: ReturnType<typeof withStateHome>;

  before(async function () {
    state = withStateHome();
    cp = await startControlPlane();
    await cp.applyCrd(CRD);
  });
  after(async function () {
    await cp?.stop();
    state?.restore();
  });

  it('without --probe-location moves the probe from the annotation into spec.livenessProbe', async function () {
    const applied = await cp!.kubectl(['apply', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'cluster.karmada.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name: 'member1', annotations: { [PROBE_ANNOTATION]: PROBE } },
        spec: { syncMode: 'Push', apiEndpoint: 'https://10.20.0.5:6443' },
      }),
    });
    expect(applied.code, applied.stderr).to.equal(0);
    const r = await runCli(CLI, ['migrate', '--in-cluster', '--kubeconfig', cp!.kubeconfigPath]);
    expect(r.code, printed(r)).to.equal(0);
    expect(r.stderr).to.include('--probe-location auto: field');
    expect(r.stdout).to.include('cluster/member1: migrated');
    const got = JSON.parse((await cp!.kubectl(['get', 'cluster', 'member1', '-o', 'json'])).stdout) as Cluster;
    // The CRD's structural schema fills in the defaults.
    expect(got.spec?.livenessProbe).to.deep.equal(defaultProbe(JSON.parse(PROBE)));
    expect(got.metadata?.annotations?.[PROBE_ANNOTATION]).to.equal(undefined);
    expect(backupsIn(state.dir)).to.have.length(1);
  });
});
