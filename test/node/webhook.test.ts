// The chart's admission webhook, running on the real one-node host cluster (src/dev/host-node.ts), called by a Karmada
// whose aggregated apiserver runs the admission chain (the patched build, docs/karmada-admission.md). That apiserver
// is a host process without cluster DNS, so it reaches the webhook as any client outside the cluster does: a
// URL-mode configuration (`webhook.url`) naming the bridge address, where src/dev/service-forwarder.ts forwards to the
// ready endpoints of the webhook's Service (kube-proxy's part); the serving certificate, made with `cluster-probe
// certs` as the chart's README says, carries that address as an IP SAN. Run by `npm run test:node`.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROBE_ANNOTATION } from '../../packages/schema/src/api/constants.js';
import { startHostNode, type HostNode } from '../../src/dev/host-node.js';
import { startKarmada, type KarmadaControlPlane } from '../../src/dev/karmada.js';
import { createNodeBridge, type NodeBridge } from '../../src/dev/node-bridge.js';
import { forwardService, type ServiceForwarder } from '../../src/dev/service-forwarder.js';

const repo = join(import.meta.dirname, '..', '..');
const CHART = join(repo, 'charts', 'karmada-cluster-probe');
const NAMESPACE = 'cluster-probe-system';
const RELEASE = 'cluster-probe';
const WEBHOOK = 'cluster-probe-webhook';
const LEGACY_ANNOTATION = 'cluster.karmada.io/health-checker';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run these tests with \`npm run test:node\``);
  return value;
}

describe("the chart's webhook on a real node, called by Karmada's aggregated apiserver with admission", function () {
  this.timeout(900_000);
  let bridge: NodeBridge | undefined;
  let karmada: KarmadaControlPlane | undefined;
  let node: HostNode | undefined;
  let forwarder: ServiceForwarder | undefined;
  let work: string;

  const helm = (kubeconfig: string, args: string[]) => {
    const r = spawnSync(env('CLUSTER_PROBE_HELM'), ['--kubeconfig', kubeconfig, ...args], {
      encoding: 'utf8',
      timeout: 300_000,
      cwd: work,
    });
    return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
  };
  const diagnostics = (): string => (node ? `${node.podLogs(NAMESPACE, WEBHOOK)}\n${node.componentLogs(10)}` : '');
  const cluster = (name: string, annotations: Record<string, string>): string =>
    JSON.stringify({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name, annotations },
      spec: {
        syncMode: 'Push',
        apiEndpoint: karmada!.members[0]!.controlPlane.url,
        secretRef: { namespace: 'karmada-cluster', name: karmada!.members[0]!.name },
      },
    });

  before(async function () {
    const image = env('CLUSTER_PROBE_IMAGE');
    work = mkdtempSync(join(tmpdir(), 'cluster-probe-node-webhook-'));
    bridge = createNodeBridge({ log: (l) => process.stderr.write(`      ${l}\n`) });
    karmada = await startKarmada({
      members: 1,
      nodesPerMember: 1,
      admission: true,
      address: bridge.gateway,
      name: 'karmada-node-admission',
    });
    node = await startHostNode({ bridge, imageArchives: env('CLUSTER_PROBE_IMAGE_ARCHIVES').split(':') });

    // The chart README's webhook steps: the serving certificate and its Secret, with the bridge address as IP SAN.
    const certs = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(repo, 'src', 'cli', 'bin.ts'),
        'certs',
        '--out',
        join(work, 'certs'),
        '--service',
        `${NAMESPACE}/${WEBHOOK}`,
        '--ip',
        bridge.gateway,
      ],
      { encoding: 'utf8', cwd: repo },
    );
    expect(certs.status, `${certs.stdout}${certs.stderr}`).to.equal(0);
    for (const args of [
      ['create', 'namespace', NAMESPACE],
      [
        'create',
        'secret',
        'tls',
        `${WEBHOOK}-tls`,
        '-n',
        NAMESPACE,
        `--cert=${join(work, 'certs', 'tls.crt')}`,
        `--key=${join(work, 'certs', 'tls.key')}`,
      ],
    ]) {
      const out = await node.kubectl(args);
      expect(out.code, out.stderr).to.equal(0);
    }
    const tag = image.slice(image.lastIndexOf(':') + 1);
    const host = helm(node.controlPlane.kubeconfigPath, [
      'install',
      RELEASE,
      CHART,
      '-n',
      NAMESPACE,
      '--set',
      'target=host',
      '--set',
      'reconciler.enabled=false',
      '--set',
      'webhook.enabled=true',
      '--set',
      `image.tag=${tag}`,
      '--set',
      'image.pullPolicy=Never',
      '--wait',
      '--timeout',
      '180s',
    ]);
    expect(host.code, `${host.out}\n${diagnostics()}`).to.equal(0);
    forwarder = await forwardService({
      kubectl: (args) => node!.kubectl(args),
      namespace: NAMESPACE,
      service: WEBHOOK,
      portName: 'https',
      host: bridge.gateway,
    });
    const url = `https://${forwarder.host}:${forwarder.port}`;
    const onKarmada = helm(karmada.host.kubeconfigPath, [
      'install',
      RELEASE,
      CHART,
      '-n',
      NAMESPACE,
      '--create-namespace',
      '--set',
      'target=karmada-apiserver',
      '--set',
      'webhook.enabled=true',
      '--set',
      `webhook.url=${url}`,
      '--set-file',
      `webhook.caBundle=${join(work, 'certs', 'ca.crt')}`,
      '--wait',
      '--timeout',
      '120s',
    ]);
    expect(onKarmada.code, onKarmada.out).to.equal(0);
    // The aggregated apiserver's webhook informer needs a moment to see the new configurations.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const out = await karmada.kubectl(['apply', '--dry-run=server', '-o', 'json', '-f', '-'], {
        input: cluster('probe-admission', { [PROBE_ANNOTATION]: JSON.stringify({ tcpSocket: { port: 6443 } }) }),
      });
      const stored = JSON.parse(out.stdout || '{}') as { metadata?: { annotations?: Record<string, string> } };
      const probe = stored.metadata?.annotations?.[PROBE_ANNOTATION] ?? '';
      if (out.code === 0 && probe.includes('periodSeconds')) break;
      if (Date.now() > deadline) {
        throw new Error(`the webhook was never called through ${url}: ${out.stderr}\n${diagnostics()}`);
      }
      await new Promise((r) => setTimeout(r, 1_000));
    }
  });

  after(async function () {
    this.timeout(300_000);
    await forwarder?.close();
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

  it('serves from its two Pods behind the Service; the apiserver stored their Pod security', async function () {
    expect(forwarder!.endpoints()).to.have.length(2);
    const pods = JSON.parse(
      (await node!.kubectl(['get', 'pods', '-n', NAMESPACE, '-l', 'app.kubernetes.io/component=webhook', '-o', 'json']))
        .stdout,
    ) as {
      items: {
        spec: {
          containers: {
            securityContext?: { readOnlyRootFilesystem?: boolean; capabilities?: { drop?: string[] } };
          }[];
        };
      }[];
    };
    expect(pods.items).to.have.length(2);
    for (const pod of pods.items) {
      expect(pod.spec.containers[0]?.securityContext?.readOnlyRootFilesystem).to.equal(true);
      expect(pod.spec.containers[0]?.securityContext?.capabilities?.drop).to.deep.equal(['ALL']);
    }
  });

  it("refuses port 70000 from the Pod, in the apiserver's words", async function () {
    const bad = JSON.stringify({ httpGet: { host: '127.0.0.1', port: 70000, path: '/healthz' } });
    const out = await karmada!.kubectl(['apply', '-f', '-'], {
      input: cluster('bad-port', { [PROBE_ANNOTATION]: bad }),
    });
    expect(out.code, out.stdout).to.equal(1);
    expect(out.stderr).to.include('httpGet.port: Invalid value: 70000: must be between 1 and 65535, inclusive');
    expect((await karmada!.kubectl(['get', 'cluster', 'bad-port'])).code).to.not.equal(0);
  });

  it('migrates the legacy annotation into the probe annotation, from the Pod', async function () {
    const legacy = JSON.stringify({ url: 'https://127.0.0.1:6443/readyz' });
    const out = await karmada!.kubectl(['apply', '-f', '-'], {
      input: cluster('legacy', { [LEGACY_ANNOTATION]: legacy }),
    });
    expect(out.code, out.stderr).to.equal(0);
    expect(out.stderr).to.match(/Warning: .*health-checker/);
    const stored = JSON.parse((await karmada!.kubectl(['get', 'cluster', 'legacy', '-o', 'json'])).stdout) as {
      metadata?: { annotations?: Record<string, string> };
    };
    expect(stored.metadata?.annotations?.[LEGACY_ANNOTATION]).to.equal(undefined);
    const probe = JSON.parse(stored.metadata?.annotations?.[PROBE_ANNOTATION] ?? '{}') as Record<string, unknown>;
    expect(probe.httpGet).to.be.an('object');
  });
});
