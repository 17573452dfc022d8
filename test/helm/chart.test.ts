// The Helm chart (charts/karmada-cluster-probe) under the helm built from its Go module: `helm lint --strict` and
// `helm template` for the value sets a user installs, each checked object by object against manifests/ (rendered by
// src/deploy/manifests.ts), so the chart and the kustomize install say the same thing. And what it must refuse:
// a CRD anywhere, a ClusterTaintPolicy beside a tainting reconciler, webhook configurations without a CA.
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  chartDir,
  container,
  find,
  helm,
  kinds,
  manifestObjects,
  NAMESPACE,
  removeHelmHome,
  render,
  renderError,
  renderText,
  repo,
  type Obj,
} from './helm.js';
import { CA_FILE, KUBECONFIG_FILE, VALUE_SETS } from './value-sets.js';

const withoutHelmLabels = (labels: Record<string, string>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(labels).filter(([k]) => !k.startsWith('helm.sh/') && k !== 'app.kubernetes.io/version'),
  );

const caPem = (): string => readFileSync(CA_FILE, 'utf8');

describe('the Helm chart', function () {
  this.timeout(120_000);
  after(removeHelmHome);

  it('is the package version, with the image the manifests deploy', () => {
    const chart = parse(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8')) as { version: string; appVersion: string };
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string };
    expect(chart.version).to.equal(pkg.version);
    expect(chart.appVersion).to.equal(pkg.version);
    const image = container(find(render(VALUE_SETS.host!), 'Deployment')).image;
    expect(image).to.equal(container(manifestObjects('host/reconciler-deployment.yaml')[0]!).image);
  });

  for (const [name, values] of Object.entries(VALUE_SETS)) {
    it(`passes helm lint --strict: ${name}`, () => {
      // lint has no --api-versions: cert-manager is then chosen explicitly.
      const lintValues = values
        .join('\0')
        .replace('--api-versions\0cert-manager.io/v1', '--set\0webhook.certManager.enabled=true');
      const r = helm(['lint', '--strict', chartDir, '--namespace', NAMESPACE, ...lintValues.split('\0')]);
      expect(r.code, `${r.stdout}${r.stderr}`).to.equal(0);
      expect(r.stdout).to.contain('1 chart(s) linted, 0 chart(s) failed');
    });
  }

  it('never renders a CustomResourceDefinition, and has no crds/ directory that helm would install unasked', () => {
    expect(existsSync(join(chartDir, 'crds'))).to.equal(false);
    for (const values of Object.values(VALUE_SETS)) {
      expect(renderText(values)).not.to.match(/^kind:\s*CustomResourceDefinition/m);
    }
    for (const file of readdirSync(join(chartDir, 'templates'), { recursive: true }) as string[]) {
      if (!file.endsWith('.yaml')) continue;
      expect(readFileSync(join(chartDir, 'templates', file), 'utf8'), file).not.to.contain('CustomResourceDefinition');
    }
  });

  describe('target=karmada-apiserver', () => {
    const objects = () => render(VALUE_SETS['karmada-apiserver']!);

    it('renders the identity, the token Secret and the RBAC of manifests/karmada-apiserver/, and no workload', () => {
      const rendered = objects();
      const expected = manifestObjects('karmada-apiserver/reconciler-serviceaccount.yaml').concat(
        manifestObjects('karmada-apiserver/reconciler-rbac.yaml'),
      );
      expect(kinds(rendered)).to.deep.equal(kinds(expected));
      for (const want of expected) {
        const got = find(rendered, want.kind, want.metadata.name);
        expect(got.metadata.namespace, `${want.kind} namespace`).to.equal(want.metadata.namespace);
        for (const field of ['rules', 'roleRef', 'subjects', 'type', 'automountServiceAccountToken']) {
          expect(got[field], `${want.kind}/${want.metadata.name} ${field}`).to.deep.equal(want[field]);
        }
        expect(got.metadata.annotations).to.deep.equal(want.metadata.annotations);
      }
    });

    it('renders the ClusterTaintPolicy of manifests/karmada-apiserver/taint-policy/ only when asked', () => {
      const policy = find(render(VALUE_SETS['karmada-apiserver, ClusterTaintPolicy']!), 'ClusterTaintPolicy');
      const want = manifestObjects('karmada-apiserver/taint-policy/clustertaintpolicy.yaml')[0]!;
      expect(policy.spec).to.deep.equal(want.spec);
      expect(policy.metadata.name).to.equal(want.metadata.name);
      expect(objects().filter((o) => o.kind === 'ClusterTaintPolicy')).to.deep.equal([]);
    });

    it('registers the webhook configurations of manifests/webhook/ by URL with the CA, when the webhook is on', () => {
      const rendered = render(VALUE_SETS['karmada-apiserver, webhook (admission-patched Karmada)']!);
      for (const [kind, file, path] of [
        ['MutatingWebhookConfiguration', 'webhook/mutatingwebhookconfiguration.yaml', '/mutate'],
        ['ValidatingWebhookConfiguration', 'webhook/validatingwebhookconfiguration.yaml', '/validate'],
      ] as const) {
        const [got] = find(rendered, kind).webhooks as Obj[];
        const [want] = manifestObjects(file)[0]!.webhooks as Obj[];
        expect({ ...got, clientConfig: undefined }).to.deep.equal({ ...want, clientConfig: undefined });
        expect(got!.clientConfig).to.deep.equal({
          url: `https://cluster-probe-webhook.${NAMESPACE}.svc:443${path}`,
          caBundle: Buffer.from(caPem()).toString('base64'),
        });
      }
      expect(rendered.filter((o) => o.kind === 'Deployment')).to.deep.equal([]);
    });

    it('refuses webhook configurations without a CA (failurePolicy Fail would refuse every Cluster write)', () => {
      expect(renderError(['--set', 'target=karmada-apiserver', '--set', 'webhook.enabled=true'])).to.contain(
        'needs webhook.caBundle',
      );
    });

    it('refuses a ClusterTaintPolicy beside a reconciler that writes the taint itself', () => {
      expect(renderError(['--set', 'target=karmada-apiserver', '--set', 'clusterTaintPolicy.enabled=true'])).to.contain(
        'set reconciler.taintEffect=None',
      );
    });
  });

  describe('target=host', () => {
    it('renders the reconciler of manifests/host/: same container, pod security and kubeconfig volume, no RBAC', () => {
      const rendered = render(VALUE_SETS.host!);
      expect(kinds(rendered)).to.deep.equal([
        'Deployment/cluster-probe-reconciler',
        'PodDisruptionBudget/cluster-probe-reconciler',
        'ServiceAccount/cluster-probe-reconciler',
      ]);
      const got = find(rendered, 'Deployment');
      const want = manifestObjects('host/reconciler-deployment.yaml')[0]!;
      // The chart names its Lease and log level explicitly; the values are the CLI's defaults the manifests rely on.
      const extras = ['--lease-name=cluster-probe-reconciler', '--log-level=info'];
      expect(container(got).args.filter((a: string) => !extras.includes(a))).to.deep.equal(container(want).args);
      expect({ ...container(got), args: undefined }).to.deep.equal({ ...container(want), args: undefined });
      const podSpec = (d: Obj) => ({
        ...d.spec.template.spec,
        topologySpreadConstraints: undefined,
        containers: undefined,
      });
      expect(podSpec(got)).to.deep.equal(podSpec(want));
      expect(got.spec.replicas).to.equal(want.spec.replicas);
      expect(find(rendered, 'ServiceAccount').automountServiceAccountToken).to.equal(false);
    });

    it('runs the reconciler condition-only with --taint-effect=None, as manifests/overlays/host-condition-only/', () => {
      const args: string[] = container(find(render(VALUE_SETS['host, condition-only']!), 'Deployment')).args;
      expect(args.filter((a) => a.startsWith('--taint-effect'))).to.deep.equal(['--taint-effect=None']);
    });

    it('leaves the disruption guard on with its own defaults, and passes what the values set, or turns it off', () => {
      const guardArgs = (values: string[]): string[] =>
        (container(find(render(['--set', 'target=host', ...values]), 'Deployment')).args as string[]).filter((a) =>
          /^--(disruption-guard|failure-domain|max-unhealthy|sentinel)/.test(a),
        );
      expect(guardArgs([])).to.deep.equal([]);
      expect(
        guardArgs([
          '--set',
          'reconciler.disruptionGuard.failureDomain=label=example.com/dc',
          '--set',
          'reconciler.disruptionGuard.maxUnhealthy=10',
          '--set',
          'reconciler.disruptionGuard.sentinels={https://status.example.com/healthz,tcp://10.0.0.1:443}',
        ]),
      ).to.deep.equal([
        '--failure-domain=label=example.com/dc',
        '--max-unhealthy=10',
        '--sentinel=https://status.example.com/healthz',
        '--sentinel=tcp://10.0.0.1:443',
      ]);
      // 0 holds every new verdict: a number the template must not take for "unset".
      expect(guardArgs(['--set', 'reconciler.disruptionGuard.maxUnhealthy=0'])).to.deep.equal(['--max-unhealthy=0']);
      expect(guardArgs(['--set', 'reconciler.disruptionGuard.maxUnhealthy=30%'])).to.deep.equal([
        '--max-unhealthy=30%',
      ]);
      expect(guardArgs(['--set', 'reconciler.disruptionGuard.enabled=false'])).to.deep.equal([
        '--disruption-guard=false',
      ]);
      expect(
        renderError(['--set', 'target=host', '--set', 'reconciler.disruptionGuard.maxUnhealthy=55.5%']),
      ).to.contain('maxUnhealthy');
    });

    it('creates the kubeconfig Secret from a file when given one, and rolls the pods when it changes', () => {
      const rendered = render(VALUE_SETS['host, webhook with cert-manager, kubeconfig Secret from a file']!);
      const secret = find(rendered, 'Secret', 'karmada-kubeconfig');
      const file = readFileSync(KUBECONFIG_FILE, 'utf8');
      expect(Buffer.from(secret.data['karmada.config'], 'base64').toString()).to.equal(file);
      const deployment = find(rendered, 'Deployment', 'cluster-probe-reconciler');
      expect(deployment.spec.template.metadata.annotations['checksum/karmada-kubeconfig']).to.match(/^[a-f0-9]{64}$/);
    });

    it('renders the webhook of manifests/webhook/ with the annotation probe location and a cert-manager certificate', () => {
      const rendered = render(VALUE_SETS['host, webhook with cert-manager, kubeconfig Secret from a file']!);
      const got = find(rendered, 'Deployment', 'cluster-probe-webhook');
      const want = manifestObjects('webhook/deployment.yaml')[0]!;
      expect(container(got).args).to.deep.equal(
        container(want)
          .args.map((a: string) => (a === '--probe-location=field' ? '--probe-location=annotation' : a))
          .concat('--log-level=info'),
      );
      expect({ ...container(got), args: undefined }).to.deep.equal({ ...container(want), args: undefined });
      expect(got.spec.strategy).to.deep.equal(want.spec.strategy);
      expect(find(rendered, 'Service', 'cluster-probe-webhook').spec.ports).to.deep.equal(
        manifestObjects('webhook/service.yaml')[0]!.spec.ports,
      );
      const pdb = find(rendered, 'PodDisruptionBudget', 'cluster-probe-webhook');
      expect(pdb.spec.minAvailable).to.equal(manifestObjects('webhook/poddisruptionbudget.yaml')[0]!.spec.minAvailable);
      const cert = find(rendered, 'Certificate', 'cluster-probe-webhook');
      expect(cert.spec.secretName).to.equal(got.spec.template.spec.volumes[0].secret.secretName);
      expect(cert.spec.dnsNames).to.include(`cluster-probe-webhook.${NAMESPACE}.svc`);
      expect(cert.spec.issuerRef).to.deep.equal({ kind: 'Issuer', name: 'cluster-probe-webhook-ca' });
      // The configurations live in karmada-apiserver, never in the host cluster.
      expect(rendered.filter((o) => /WebhookConfiguration$/.test(o.kind))).to.deep.equal([]);
    });

    it('uses the Secret `cluster-probe certs` makes when cert-manager is off or absent', () => {
      const rendered = render(VALUE_SETS['host, webhook with a cluster-probe certs Secret']!);
      expect(rendered.filter((o) => String(o.apiVersion).startsWith('cert-manager.io/'))).to.deep.equal([]);
      const deployment = find(rendered, 'Deployment', 'cluster-probe-webhook');
      expect(deployment.spec.template.spec.volumes[0].secret.secretName).to.equal('cluster-probe-webhook-tls');
      // auto without cert-manager.io/v1 in the cluster is the same as off
      const auto = render(['--set', 'target=host', '--set', 'webhook.enabled=true']);
      expect(auto.filter((o) => String(o.apiVersion).startsWith('cert-manager.io/'))).to.deep.equal([]);
    });

    it('passes the deny list and the probe location to both workloads', () => {
      const rendered = render([
        ...VALUE_SETS['host, webhook with a cluster-probe certs Secret']!,
        '--set',
        'denyCidrs={10.0.0.0/8,169.254.0.0/16}',
        '--set',
        'probeLocation=field',
      ]);
      for (const name of ['cluster-probe-reconciler', 'cluster-probe-webhook']) {
        const args: string[] = container(find(rendered, 'Deployment', name)).args;
        expect(args.filter((a) => a.startsWith('--deny-cidr='))).to.deep.equal([
          '--deny-cidr=10.0.0.0/8',
          '--deny-cidr=169.254.0.0/16',
        ]);
      }
      expect(container(find(rendered, 'Deployment', 'cluster-probe-webhook')).args).to.include(
        '--probe-location=field',
      );
    });

    it('scales: one replica without leader election and without a PDB; refuses two unsharded without election', () => {
      const single = render([
        '--set',
        'target=host',
        '--set',
        'reconciler.replicas=1',
        '--set',
        'reconciler.leaderElection.enabled=false',
      ]);
      expect(container(find(single, 'Deployment')).args).not.to.include('--leader-elect');
      expect(single.filter((o) => o.kind === 'PodDisruptionBudget')).to.deep.equal([]);
      expect(
        renderError([
          '--set',
          'target=host',
          '--set',
          'reconciler.sharding=none',
          '--set',
          'reconciler.leaderElection.enabled=false',
        ]),
      ).to.contain('needs reconciler.leaderElection.enabled=true');
    });

    it('sets image, digest, resources and scheduling from values', () => {
      const rendered = render([
        '--set',
        'target=host',
        '--set',
        `image.digest=sha256:${'a'.repeat(64)}`,
        '--set',
        'reconciler.resources.limits.memory=1Gi',
        '--set',
        'reconciler.nodeSelector.role=control',
      ]);
      const deployment = find(rendered, 'Deployment');
      expect(container(deployment).image).to.equal(
        `ghcr.io/karmada-cluster-probe/cluster-probe@sha256:${'a'.repeat(64)}`,
      );
      expect(container(deployment).resources.limits.memory).to.equal('1Gi');
      expect(deployment.spec.template.spec.nodeSelector).to.deep.equal({ role: 'control' });
    });
  });

  describe('target=crd-served (not Karmada)', () => {
    it('renders the reconciler with in-cluster credentials and its RBAC, the webhook by Service with the CA', () => {
      const rendered = render(VALUE_SETS['crd-served, webhook with a CA']!);
      expect(find(rendered, 'ServiceAccount', 'cluster-probe-reconciler').automountServiceAccountToken).to.equal(true);
      const reconciler = find(rendered, 'Deployment', 'cluster-probe-reconciler');
      const want = manifestObjects('reconciler/deployment.yaml')[0]!;
      const extras = ['--lease-name=cluster-probe-reconciler', '--log-level=info'];
      expect(container(reconciler).args.filter((a: string) => !extras.includes(a))).to.deep.equal(container(want).args);
      expect(reconciler.spec.template.spec.volumes).to.equal(undefined);
      expect(find(rendered, 'ClusterRole', 'cluster-probe-reconciler').rules).to.deep.equal(
        manifestObjects('reconciler/rbac.yaml')[0]!.rules,
      );
      const [validating] = find(rendered, 'ValidatingWebhookConfiguration').webhooks as Obj[];
      expect(validating!.clientConfig).to.deep.equal({
        ...(manifestObjects('webhook/validatingwebhookconfiguration.yaml')[0]!.webhooks[0].clientConfig as Obj),
        caBundle: Buffer.from(caPem()).toString('base64'),
      });
      expect(container(find(rendered, 'Deployment', 'cluster-probe-webhook')).args).to.include(
        '--probe-location=field',
      );
    });

    it('has cert-manager inject the CA into both configurations', () => {
      const rendered = render(VALUE_SETS['crd-served, webhook with cert-manager']!);
      for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
        const configuration = find(rendered, kind);
        expect(configuration.metadata.annotations).to.deep.equal({
          'cert-manager.io/inject-ca-from': `${NAMESPACE}/cluster-probe-webhook`,
        });
        expect(configuration.webhooks[0].clientConfig.caBundle).to.equal(undefined);
      }
    });

    it('refuses the webhook with neither cert-manager nor a CA, and a ClusterTaintPolicy', () => {
      expect(renderError(['--set', 'target=crd-served', '--set', 'webhook.enabled=true'])).to.contain(
        'needs cert-manager',
      );
      expect(
        renderError([
          '--set',
          'target=crd-served',
          '--set',
          'clusterTaintPolicy.enabled=true',
          '--set',
          'reconciler.taintEffect=None',
        ]),
      ).to.contain('has no Karmada');
    });
  });

  it('checks values against values.schema.json', () => {
    expect(renderError(['--set', 'target=karmada'])).to.match(/target.*(must be one of|value must be one of)/s);
    expect(renderError(['--set', 'reconciler.taintEffect=PreferNoSchedule'])).to.contain('taintEffect');
    expect(renderError(['--set', 'reconciler.tainteffect=None'])).to.contain('tainteffect');
    expect(renderError(['--set', 'webhook.caBundle=notapem'])).to.contain('caBundle');
  });

  it('labels every object as part of karmada-cluster-probe, with the component', () => {
    for (const values of Object.values(VALUE_SETS)) {
      for (const o of render(values)) {
        expect(withoutHelmLabels(o.metadata.labels), `${o.kind}/${o.metadata.name}`).to.include({
          'app.kubernetes.io/name': 'cluster-probe',
          'app.kubernetes.io/part-of': 'karmada-cluster-probe',
        });
        expect(o.metadata.labels['app.kubernetes.io/component']).to.be.oneOf(['reconciler', 'webhook']);
      }
    }
  });
});
