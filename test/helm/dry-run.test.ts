// The chart's objects against a real kube-apiserver (v1.35.4, the e2e harness): every value set of chart.test.ts,
// rendered by helm, is applied with `kubectl apply --dry-run=server --validate=strict`, so the apiserver's own
// validation, defaulting and strict field checks judge each object (Karmada's ClusterTaintPolicy against Karmada's own
// CRD). cert-manager's Issuer and Certificate are left out: this apiserver has no cert-manager CRDs. Then `helm install
// --dry-run=server`, whose lookup must refuse target=crd-served where an aggregated apiserver serves cluster.karmada.io.
import { expect } from 'chai';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { startControlPlane, type ControlPlane } from '../e2e/harness/controlplane.js';
import { KUBECONFIG_FILE, VALUE_SETS } from './value-sets.js';
import { chartDir, find, helm, NAMESPACE, removeHelmHome, render, type Obj } from './helm.js';

const toYaml = (objects: Obj[]): string => objects.map((o) => stringify(o)).join('---\n');

describe('the Helm chart against a real kube-apiserver (server-side dry run)', function () {
  this.timeout(180_000);
  let cp: ControlPlane;

  before(async () => {
    cp = await startControlPlane({ name: 'helm' });
    // `helm install --create-namespace` makes the release namespace; a dry run of a Namespace would not persist it.
    const ns = await cp.kubectl(['create', 'namespace', NAMESPACE]);
    expect(ns.code, ns.stderr).to.equal(0);
    const karmada = process.env.CLUSTER_PROBE_KARMADA_BIN;
    if (!karmada) throw new Error('CLUSTER_PROBE_KARMADA_BIN is not set: run with `npm run test:helm`');
    await cp.applyCrd(join(karmada, 'artifacts', 'crds', 'policy', 'policy.karmada.io_clustertaintpolicies.yaml'));
  });
  after(async () => {
    removeHelmHome();
    await cp?.stop();
  });

  for (const [name, values] of Object.entries(VALUE_SETS)) {
    it(`accepts every object: ${name}`, async () => {
      const objects = render(values).filter((o) => !String(o.apiVersion).startsWith('cert-manager.io/'));
      const r = await cp.kubectl(['apply', '--dry-run=server', '--validate=strict', '-f', '-'], {
        input: toYaml(objects),
      });
      expect(r.code, r.stderr).to.equal(0);
      expect(
        r.stdout
          .trim()
          .split('\n')
          .filter((l) => l.endsWith('(server dry run)')),
      ).to.have.length(objects.length);
    });
  }

  it('refuses an object the apiserver would refuse (the dry run judges strictly)', async () => {
    const objects = render(VALUE_SETS.host!);
    const deployment = find(objects, 'Deployment');
    deployment.spec.template.spec.containers[0].readOnlyRootFileSystem = true; // a misspelt securityContext field
    const r = await cp.kubectl(['apply', '--dry-run=server', '--validate=strict', '-f', '-'], {
      input: toYaml([deployment]),
    });
    expect(r.code).not.to.equal(0);
    expect(r.stderr).to.contain('unknown field "spec.template.spec.containers[0].readOnlyRootFileSystem"');
  });

  it('installs both Karmada halves with helm install --dry-run=server, whose notes give the next step', () => {
    const install = (values: string[]) =>
      helm([
        'install',
        'cluster-probe',
        chartDir,
        '--dry-run=server',
        '--kubeconfig',
        cp.kubeconfigPath,
        '--namespace',
        NAMESPACE,
        ...values,
      ]);
    const karmada = install(VALUE_SETS['karmada-apiserver, ClusterTaintPolicy']!);
    expect(karmada.code, karmada.stderr).to.equal(0);
    expect(karmada.stdout).to.contain('No CRD: Karmada serves Cluster from karmada-aggregated-apiserver.');
    expect(karmada.stdout).to.contain('install this chart again with --set target=host and the same values');
    const host = install([
      ...VALUE_SETS['host, webhook with a cluster-probe certs Secret']!,
      '--set-file',
      `karmadaKubeconfig.kubeconfig=${KUBECONFIG_FILE}`,
    ]);
    expect(host.code, host.stderr).to.equal(0);
    expect(host.stdout).to.contain('It reads karmada-apiserver through Secret karmada-kubeconfig, key karmada.config.');
    expect(host.stdout).to.contain('and the webhook (Service cluster-probe-webhook)');
  });

  it('installs target=crd-served here, and refuses it once cluster.karmada.io is served by an aggregated apiserver', async () => {
    const install = () =>
      helm([
        'install',
        'cluster-probe',
        chartDir,
        '--dry-run=server',
        '--kubeconfig',
        cp.kubeconfigPath,
        '--namespace',
        NAMESPACE,
        '--set',
        'target=crd-served',
      ]);
    const plain = install();
    expect(plain.code, plain.stderr).to.equal(0);
    expect(plain.stdout).to.contain('kind: Deployment');

    // What Karmada registers on karmada-apiserver (karmada-aggregated-apiserver need not run for the guard to see it).
    const apiService = {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1alpha1.cluster.karmada.io' },
      spec: {
        group: 'cluster.karmada.io',
        version: 'v1alpha1',
        service: { namespace: 'karmada-system', name: 'karmada-aggregated-apiserver', port: 443 },
        insecureSkipTLSVerify: true,
        groupPriorityMinimum: 2000,
        versionPriority: 10,
      },
    };
    const created = await cp.kubectl(['apply', '-f', '-'], { input: stringify(apiService) });
    expect(created.code, created.stderr).to.equal(0);
    try {
      const refused = install();
      expect(refused.code).not.to.equal(0);
      expect(refused.stderr).to.contain('target=crd-served on a Karmada control plane');
    } finally {
      await cp.kubectl(['delete', 'apiservice', 'v1alpha1.cluster.karmada.io', '--wait=false']);
    }
  });
});
