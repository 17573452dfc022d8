// `cluster-probe manifests` as a user runs it: no CRD unless --with-crd, --with-crd only for crd-served, and
// --kubeconfig refusing a Karmada control plane (an HTTP server on loopback answering the APIService list as
// karmada-apiserver and as a plain kube-apiserver with the CRD do).
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args], { stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function kinds(yaml: string): string[] {
  return parseAllDocuments(yaml).map((d) => (d.toJS() as { kind: string }).kind);
}

const karmada = {
  kind: 'APIServiceList',
  apiVersion: 'apiregistration.k8s.io/v1',
  items: [
    { metadata: { name: 'v1.apps' }, spec: { group: 'apps', version: 'v1' } },
    {
      metadata: { name: 'v1alpha1.cluster.karmada.io' },
      spec: {
        group: 'cluster.karmada.io',
        version: 'v1alpha1',
        service: { namespace: 'karmada-system', name: 'karmada-aggregated-apiserver', port: 443 },
      },
    },
  ],
};
const standIn = {
  kind: 'APIServiceList',
  apiVersion: 'apiregistration.k8s.io/v1',
  items: [
    { metadata: { name: 'v1alpha1.cluster.karmada.io' }, spec: { group: 'cluster.karmada.io', version: 'v1alpha1' } },
  ],
};

describe('cluster-probe manifests', function () {
  this.timeout(120_000);
  let server: Server;
  let answer: unknown = standIn;
  let dir: string;
  const requests: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'manifests-cli-'));
    server = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    writeFileSync(
      join(dir, 'kubeconfig'),
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: `http://127.0.0.1:${port}`, 'insecure-skip-tls-verify': true } }],
        users: [{ name: 'u', user: { token: 'x' } }],
        contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'c',
      }),
    );
  });

  after(() => {
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints no CRD by default', async () => {
    const r = await cli(['manifests']);
    expect(r.code, r.stderr).to.equal(0);
    expect(kinds(r.stdout)).to.include('Deployment').and.not.include('CustomResourceDefinition');
  });

  it('refuses --with-crd with a Karmada part', async () => {
    const r = await cli(['manifests', '--only', 'karmada-apiserver', '--with-crd']);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.include('--with-crd goes with --only crd-served, not --only karmada-apiserver');
  });

  it('refuses with exit 1 when --kubeconfig names a Karmada control plane, and prints nothing', async () => {
    answer = karmada;
    requests.length = 0;
    const r = await cli(['manifests', '--only', 'crd-served', '--with-crd', '--kubeconfig', join(dir, 'kubeconfig')]);
    expect(r.code).to.equal(1);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.include('refusing to install the Cluster CRD');
    expect(r.stderr).to.include('APIService v1alpha1.cluster.karmada.io is served by the aggregated apiserver');
    expect(requests.some((x) => x.startsWith('GET /apis/apiregistration.k8s.io/v1/apiservices'))).to.equal(true);
  });

  it('prints the CRD first under the warning when --kubeconfig names a kube-apiserver serving Cluster from it', async () => {
    answer = standIn;
    const r = await cli(['manifests', '--only', 'crd-served', '--with-crd', '--kubeconfig', join(dir, 'kubeconfig')]);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^# WARNING: the Cluster CRD is ONLY for/);
    expect(kinds(r.stdout)[0]).to.equal('CustomResourceDefinition');
  });

  it('writes the tree with --out, and the CRD only with --with-crd', async () => {
    const out = join(dir, 'out');
    const r = await cli(['manifests', '--out', out]);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr).to.include('overlays/crd-served/ needs crd/cluster.karmada.io_clusters.yaml, not written');
    const withCrd = await cli(['manifests', '--out', join(dir, 'out2'), '--with-crd']);
    expect(withCrd.code, withCrd.stderr).to.equal(0);
    expect(existsSync(join(out, 'crd/cluster.karmada.io_clusters.yaml'))).to.equal(false);
    expect(readFileSync(join(dir, 'out2/crd/cluster.karmada.io_clusters.yaml'), 'utf8')).to.include(
      'kind: CustomResourceDefinition',
    );
    expect(existsSync(join(out, 'host/reconciler-deployment.yaml'))).to.equal(true);
  });
});
