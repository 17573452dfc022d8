// The admission webhook judged by the real kube-apiserver v1.35 and the real kubectl (and @kubernetes/client-node):
// defaults, denials, migration warnings, dry-run, server-side apply, updates, failurePolicy Fail with the webhook
// down, and the CRD's own rules with the webhook unregistered, checked against the schema library row by row.
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitForWebhookAnswering } from '../../src/dev/admission-ready.js';
import { WebhookProcess, type CliInvocation } from '../../src/dev/webhook-process.js';
import { validateCluster } from '../../packages/schema/src/schema/index.js';
import { startControlPlane, type ControlPlane, type KubectlResult } from './harness/controlplane.js';
import {
  agreementCases,
  agreementCluster,
  cluster,
  clusterYaml,
  firstApiError,
  kubectlInvalid,
  webhookInvalid,
  type Obj,
} from './support/clusters.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixture = (name: string) => join(repoRoot, 'test', 'fixtures', 'clusters', name);
const CRD = join(repoRoot, 'manifests', 'crd', 'cluster.karmada.io_clusters.yaml');
const CASES = agreementCases(join(repoRoot, 'test', 'fixtures', 'agreement', 'cases.yaml'));
// The CLI from source, as `npx tsx src/cli/bin.ts` runs it.
const CLI: CliInvocation = {
  command: process.execPath,
  args: ['--import', 'tsx', join(repoRoot, 'src', 'cli', 'bin.ts')],
};
const GROUP = { group: 'cluster.karmada.io', version: 'v1alpha1', plural: 'clusters' };
const ENDPOINT = 'https://10.20.0.9:6443';
const KUBELET_DEFAULTS = {
  timeoutSeconds: 1,
  periodSeconds: 10,
  successThreshold: 1,
  failureThreshold: 3,
};
const MIGRATED_WARNING =
  'Warning: migrated annotation cluster.karmada.io/health-checker into spec.livenessProbe.httpGet\n';

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A readable assertion message: what kubectl printed. */
function printed(result: KubectlResult): string {
  return `exit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;
}

describe('webhook e2e: kubectl against kube-apiserver v1.35 with the webhook registered', function () {
  this.timeout(60_000);
  let cp: ControlPlane | undefined;
  let webhook: WebhookProcess | undefined;
  let api: CustomObjectsApi | undefined;

  before(async function () {
    this.timeout(120_000);
    cp = await startControlPlane();
    // The generated CRD exactly as committed: the apiserver is the judge of its schema.
    await cp.applyCrd(CRD);
    const plane = cp;
    webhook = await WebhookProcess.create({ cli: CLI, dir: cp.dir, onStart: (group) => plane.adopt(group) });
    await webhook.start();
    await cp.registerWebhooks(await webhook.manifests());
    await waitForWebhookAnswering(cp);
    const config = new KubeConfig();
    config.loadFromFile(cp.kubeconfigPath);
    api = config.makeApiClient(CustomObjectsApi);
  });

  after(async function () {
    this.timeout(60_000);
    await cp?.stop();
  });

  const plane = (): ControlPlane => {
    if (!cp) throw new Error('control plane did not start');
    return cp;
  };
  const hook = (): WebhookProcess => {
    if (!webhook) throw new Error('webhook did not start');
    return webhook;
  };
  const client = (): CustomObjectsApi => {
    if (!api) throw new Error('no client');
    return api;
  };
  const apply = (yaml: string, ...flags: string[]) => plane().kubectl(['apply', ...flags, '-f', '-'], { input: yaml });
  const applyFile = (path: string, ...flags: string[]) => plane().kubectl(['apply', ...flags, '-f', path]);
  async function getCluster(name: string, ...flags: string[]): Promise<Obj> {
    const result = await plane().kubectl(['get', 'cluster', name, '-o', 'json', ...flags]);
    expect(result.code, printed(result)).to.equal(0);
    return JSON.parse(result.stdout) as Obj;
  }
  async function expectNotStored(name: string): Promise<void> {
    const result = await plane().kubectl(['get', 'cluster', name, '-o', 'name']);
    expect(result.code).to.equal(1);
    expect(result.stderr).to.equal(`Error from server (NotFound): clusters.cluster.karmada.io "${name}" not found\n`);
  }
  const specOf = (object: Obj): Obj => (isObj(object.spec) ? object.spec : {});
  const annotationsOf = (object: Obj): Obj =>
    isObj(object.metadata) && isObj(object.metadata.annotations) ? object.metadata.annotations : {};

  describe('with the webhook running', function () {
    it('stores a valid Cluster with the probe defaults filled in', async function () {
      const result = await applyFile(fixture('member-http.yaml'));
      expect(result, printed(result)).to.deep.equal({
        code: 0,
        stdout: 'cluster.cluster.karmada.io/member-http created\n',
        stderr: '',
      });
      expect(specOf(await getCluster('member-http')).livenessProbe).to.deep.equal({
        ...KUBELET_DEFAULTS,
        httpGet: {
          scheme: 'HTTPS',
          host: 'health.member-http.example.com',
          port: 'https',
          path: '/healthz',
          httpHeaders: [{ name: 'X-Probe', value: 'karmada' }],
        },
        timeoutSeconds: 2,
      });
    });

    it('fills the apiServer handler default path and keeps what the user set', async function () {
      const result = await applyFile(fixture('member-dev.yaml'));
      expect(result, printed(result)).to.deep.equal({
        code: 0,
        stdout: 'cluster.cluster.karmada.io/member-dev created\n',
        stderr: '',
      });
      expect(specOf(await getCluster('member-dev')).livenessProbe).to.deep.equal({
        ...KUBELET_DEFAULTS,
        apiServer: { path: '/readyz', minReadyNodes: 2, minReadyPods: 5 },
        periodSeconds: 15,
      });
    });

    it('denies a port above 65535 with the apiserver wording and stores nothing', async function () {
      const result = await apply(
        clusterYaml('member-port', {
          syncMode: 'Push',
          apiEndpoint: ENDPOINT,
          livenessProbe: { httpGet: { port: 70000 } },
        }),
      );
      expect(result.code, printed(result)).to.equal(1);
      expect(result.stdout).to.equal('');
      expect(result.stderr).to.equal(
        kubectlInvalid('member-port', [
          'spec.livenessProbe.httpGet.port: Invalid value: 70000: must be between 1 and 65535, inclusive',
        ]),
      );
      await expectNotStored('member-port');
    });

    it('lists every error of the invalid fixture at once', async function () {
      const result = await applyFile(fixture('invalid-probe.yaml'));
      expect(result.code, printed(result)).to.equal(1);
      expect(result.stdout).to.equal('');
      expect(result.stderr).to.equal(
        kubectlInvalid('member-bad', [
          'spec.livenessProbe: Invalid value: may not specify more than 1 handler type',
          'spec.livenessProbe.httpGet.port: Invalid value: 70000: must be between 1 and 65535, inclusive',
        ]),
      );
      await expectNotStored('member-bad');
    });

    it('denies, through the validating webhook, what only the webhook checks (a probe host in a denied range)', async function () {
      const result = await apply(
        clusterYaml('member-metadata', {
          syncMode: 'Push',
          apiEndpoint: ENDPOINT,
          livenessProbe: { httpGet: { host: '169.254.169.254', port: 80, path: '/latest/meta-data' } },
        }),
      );
      expect(result.code, printed(result)).to.equal(1);
      expect(result.stdout).to.equal('');
      expect(
        webhookInvalid('member-metadata', [
          'spec.livenessProbe.httpGet.host: Forbidden: 169.254.169.254 is in the denied address range 169.254.0.0/16; probes may not target it',
        ]),
      ).to.include(result.stderr);
      await expectNotStored('member-metadata');
    });

    it('denies each webhook-only row of the agreement table with the library first error', async function () {
      for (const row of CASES.filter((c) => c.webhookOnly !== undefined)) {
        const object = agreementCluster(row);
        const result = await apply(JSON.stringify(object), '--dry-run=server');
        expect(result.code, `${row.name}: ${printed(result)}`).to.equal(1);
        const name = String((object.metadata as Obj).name);
        expect(webhookInvalid(name, [row.webhookOnly ?? '']), row.name).to.include(result.stderr);
      }
    });

    it('migrates the legacy annotation into spec.livenessProbe, drops the annotation and prints our warning', async function () {
      const result = await applyFile(fixture('member-legacy.yaml'));
      expect(result, printed(result)).to.deep.equal({
        code: 0,
        stdout: 'cluster.cluster.karmada.io/member-legacy created\n',
        stderr: MIGRATED_WARNING,
      });
      const stored = await getCluster('member-legacy');
      expect(annotationsOf(stored)).to.not.have.property('cluster.karmada.io/health-checker');
      expect(specOf(stored).livenessProbe).to.deep.equal({
        ...KUBELET_DEFAULTS,
        httpGet: { scheme: 'HTTPS', host: 'member-dev-health.some-system.svc', port: 80, path: '/healthz' },
        timeoutSeconds: 10,
      });
    });

    it('keeps the migrated object when the legacy file is applied again (kubectl re-adds, the webhook removes)', async function () {
      const result = await applyFile(fixture('member-legacy.yaml'));
      expect(result, printed(result)).to.deep.equal({
        code: 0,
        stdout: 'cluster.cluster.karmada.io/member-legacy configured\n',
        stderr:
          'Warning: removed annotation cluster.karmada.io/health-checker: spec.livenessProbe already carries it\n',
      });
      const stored = await getCluster('member-legacy');
      expect(annotationsOf(stored)).to.not.have.property('cluster.karmada.io/health-checker');
      expect(specOf(stored).livenessProbe).to.have.nested.property('httpGet.host', 'member-dev-health.some-system.svc');
    });

    it('answers --dry-run=server with the mutated object and stores nothing', async function () {
      const yaml = clusterYaml('member-dry', {
        syncMode: 'Push',
        apiEndpoint: ENDPOINT,
        livenessProbe: { tcpSocket: { port: 6443 } },
      });
      const result = await apply(yaml, '--dry-run=server');
      expect(result, printed(result)).to.deep.equal({
        code: 0,
        stdout: 'cluster.cluster.karmada.io/member-dry created (server dry run)\n',
        stderr: '',
      });
      const shown = await apply(yaml, '--dry-run=server', '-o', 'json');
      expect(shown.code, printed(shown)).to.equal(0);
      expect(specOf(JSON.parse(shown.stdout) as Obj).livenessProbe).to.deep.equal({
        ...KUBELET_DEFAULTS,
        tcpSocket: { port: 6443 },
      });
      await expectNotStored('member-dry');
    });

    it('server-side applies a legacy Cluster: migrated, defaulted, warned; the field manager owns only what was sent', async function () {
      const yaml = clusterYaml(
        'member-ssa',
        { syncMode: 'Push', apiEndpoint: ENDPOINT },
        { annotations: { 'cluster.karmada.io/health-checker': '{"url":"https://health.example.com:8443/healthz"}' } },
      );
      const result = await apply(yaml, '--server-side');
      expect(result, printed(result)).to.deep.equal({
        code: 0,
        stdout: 'cluster.cluster.karmada.io/member-ssa serverside-applied\n',
        stderr: MIGRATED_WARNING,
      });
      const stored = await getCluster('member-ssa', '--show-managed-fields');
      expect(annotationsOf(stored)).to.not.have.property('cluster.karmada.io/health-checker');
      expect(specOf(stored).livenessProbe).to.deep.equal({
        ...KUBELET_DEFAULTS,
        httpGet: { scheme: 'HTTPS', host: 'health.example.com', port: 8443, path: '/healthz' },
        timeoutSeconds: 10,
      });
      const managed = (stored.metadata as { managedFields?: { manager?: string; operation?: string }[] }).managedFields;
      expect(managed?.map((m) => `${m.manager}/${m.operation}`)).to.deep.equal(['kubectl/Apply']);
    });

    it('merges a server-side apply: a grpc handler next to the migrated httpGet is two handlers', async function () {
      // The webhook, not kubectl, wrote httpGet, so applying a grpc handler adds to it instead of replacing it.
      const result = await apply(
        clusterYaml('member-ssa', { syncMode: 'Push', apiEndpoint: ENDPOINT, livenessProbe: { grpc: { port: 0 } } }),
        '--server-side',
      );
      expect(result.code, printed(result)).to.equal(1);
      expect(result.stdout).to.equal('');
      expect(result.stderr).to.equal(
        kubectlInvalid('member-ssa', [
          'spec.livenessProbe: Invalid value: may not specify more than 1 handler type',
          'spec.livenessProbe.grpc.port: Invalid value: 0: must be between 1 and 65535, inclusive',
        ]),
      );
    });

    it('refuses a server-side apply that breaks the probe and keeps the stored object', async function () {
      const good = { syncMode: 'Push', apiEndpoint: ENDPOINT, livenessProbe: { grpc: { port: 9090 } } };
      const created = await apply(clusterYaml('member-ssa-grpc', good), '--server-side');
      expect(created, printed(created)).to.deep.equal({
        code: 0,
        stdout: 'cluster.cluster.karmada.io/member-ssa-grpc serverside-applied\n',
        stderr: '',
      });
      const broken = await apply(
        clusterYaml('member-ssa-grpc', { ...good, livenessProbe: { grpc: { port: 70000 } } }),
        '--server-side',
      );
      expect(broken.code, printed(broken)).to.equal(1);
      expect(broken.stdout).to.equal('');
      expect(broken.stderr).to.equal(
        kubectlInvalid('member-ssa-grpc', [
          'spec.livenessProbe.grpc.port: Invalid value: 70000: must be between 1 and 65535, inclusive',
        ]),
      );
      expect(specOf(await getCluster('member-ssa-grpc')).livenessProbe).to.deep.equal({
        ...KUBELET_DEFAULTS,
        grpc: { port: 9090, service: '' },
      });
    });

    it('refuses an UPDATE that breaks the probe and keeps the stored object', async function () {
      const good = { syncMode: 'Push', apiEndpoint: ENDPOINT, livenessProbe: { tcpSocket: { port: 6443 } } };
      const created = await apply(clusterYaml('member-update', good));
      expect(created.code, printed(created)).to.equal(0);

      const broken = await apply(clusterYaml('member-update', { ...good, livenessProbe: { tcpSocket: { port: 0 } } }));
      expect(broken.code, printed(broken)).to.equal(1);
      expect(broken.stdout).to.equal('');
      expect(broken.stderr).to.equal(
        kubectlInvalid('member-update', [
          'spec.livenessProbe.tcpSocket.port: Invalid value: 0: must be between 1 and 65535, inclusive',
        ]),
      );

      // A merge patch the CRD cannot judge reaches the validating webhook as an UPDATE.
      const patched = await plane().kubectl([
        'patch',
        'cluster',
        'member-update',
        '--type=merge',
        '-p',
        '{"spec":{"livenessProbe":{"tcpSocket":{"host":"169.254.169.254"}}}}',
      ]);
      expect(patched.code, printed(patched)).to.equal(1);
      expect(patched.stdout).to.equal('');
      expect(
        webhookInvalid('member-update', [
          'spec.livenessProbe.tcpSocket.host: Forbidden: 169.254.169.254 is in the denied address range 169.254.0.0/16; probes may not target it',
        ]),
      ).to.include(patched.stderr);

      expect(specOf(await getCluster('member-update')).livenessProbe).to.deep.equal({
        ...KUBELET_DEFAULTS,
        tcpSocket: { port: 6443 },
      });
    });

    it('creates through @kubernetes/client-node with the defaults in the answer, and gets the 422 causes of a denial', async function () {
      const created = (await client().createClusterCustomObject({
        ...GROUP,
        body: cluster('member-client', {
          syncMode: 'Pull',
          apiEndpoint: ENDPOINT,
          livenessProbe: { grpc: { port: 9090 } },
        }),
      })) as Obj;
      expect(specOf(created).livenessProbe).to.deep.equal({ ...KUBELET_DEFAULTS, grpc: { port: 9090, service: '' } });

      let denial: unknown;
      try {
        await client().createClusterCustomObject({
          ...GROUP,
          body: cluster('member-client-bad', {
            syncMode: 'Push',
            apiEndpoint: ENDPOINT,
            livenessProbe: { httpGet: { port: 80, path: 'healthz' } },
          }),
        });
      } catch (err) {
        denial = err;
      }
      expect(denial, 'the create was not refused').to.not.equal(undefined);
      expect(firstApiError(denial)).to.deep.equal({
        status: 422,
        field: 'spec.livenessProbe.httpGet.path',
        message: `spec.livenessProbe.httpGet.path: Invalid value: "healthz": must start with '/'`,
      });
      await expectNotStored('member-client-bad');
    });
  });

  describe('with the webhook process stopped (failurePolicy: Fail)', function () {
    const yaml = clusterYaml('member-outage', {
      syncMode: 'Push',
      apiEndpoint: ENDPOINT,
      livenessProbe: { tcpSocket: { port: 6443 } },
    });

    it('refuses writes with a message naming the webhook and the refused connection', async function () {
      await hook().stop();
      const { port } = hook();
      const result = await apply(yaml);
      expect(result.code, printed(result)).to.equal(1);
      expect(result.stdout).to.equal('');
      expect(result.stderr).to.equal(
        'Error from server (InternalError): error when creating "STDIN": Internal error occurred: failed calling webhook ' +
          `"mutate.cluster-probe.cluster.karmada.io": failed to call webhook: Post "https://127.0.0.1:${port}/mutate?timeout=5s": ` +
          `dial tcp 127.0.0.1:${port}: connect: connection refused\n`,
      );
      await expectNotStored('member-outage');
    });

    it('accepts writes again once the webhook is back', async function () {
      await hook().start();
      await waitForWebhookAnswering(plane());
      const result = await apply(yaml);
      expect(result, printed(result)).to.deep.equal({
        code: 0,
        stdout: 'cluster.cluster.karmada.io/member-outage created\n',
        stderr: '',
      });
    });
  });

  describe('with the webhook configurations deleted: the CRD alone', function () {
    before(async function () {
      const deleted = await plane().kubectl([
        'delete',
        'mutatingwebhookconfiguration/cluster-probe-webhook',
        'validatingwebhookconfiguration/cluster-probe-webhook',
      ]);
      expect(deleted.code, printed(deleted)).to.equal(0);
      // The apiserver drops the configurations asynchronously: wait (bounded) until a legacy Cluster is no longer
      // migrated on a dry-run.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const dry = await apply(
          clusterYaml(
            'member-unhooked',
            { syncMode: 'Push' },
            {
              annotations: { 'cluster.karmada.io/health-checker': '{"url":"https://health.example.com/"}' },
            },
          ),
          '--dry-run=server',
          '-o',
          'json',
        );
        if (dry.code === 0 && specOf(JSON.parse(dry.stdout) as Obj).livenessProbe === undefined) break;
        if (Date.now() > deadline) throw new Error(`the webhook is still called 30 s after deletion: ${printed(dry)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    });

    it('rejects a port above 65535 with the CRD CEL rule, in the same words', async function () {
      const result = await apply(
        clusterYaml('member-cel', {
          syncMode: 'Push',
          apiEndpoint: ENDPOINT,
          livenessProbe: { httpGet: { port: 70000 } },
        }),
      );
      expect(result.code, printed(result)).to.equal(1);
      expect(result.stderr).to.equal(
        kubectlInvalid('member-cel', [
          'spec.livenessProbe.httpGet.port: Invalid value: 70000: must be between 1 and 65535, inclusive',
        ]),
      );
    });

    it('rejects two handlers and a missing handler with the CRD CEL rules', async function () {
      const two = await apply(
        clusterYaml('member-cel', { syncMode: 'Push', livenessProbe: { httpGet: { port: 80 }, grpc: { port: 9090 } } }),
      );
      expect(two.code, printed(two)).to.equal(1);
      expect(two.stderr).to.equal(
        kubectlInvalid('member-cel', ['spec.livenessProbe: Invalid value: may not specify more than 1 handler type']),
      );
      const none = await apply(clusterYaml('member-cel', { syncMode: 'Push', livenessProbe: { periodSeconds: 5 } }));
      expect(none.code, printed(none)).to.equal(1);
      expect(none.stderr).to.equal(
        kubectlInvalid('member-cel', ['spec.livenessProbe: Invalid value: must specify a handler type']),
      );
    });

    it('stores a legacy Cluster as written: migration is the webhook job', async function () {
      const yaml = readFileSync(fixture('member-legacy.yaml'), 'utf8').replace(
        'name: member-legacy\n',
        'name: member-raw\n',
      );
      const result = await apply(yaml);
      expect(result, printed(result)).to.deep.equal({
        code: 0,
        stdout: 'cluster.cluster.karmada.io/member-raw created\n',
        stderr: '',
      });
      const stored = await getCluster('member-raw');
      expect(annotationsOf(stored)).to.have.property('cluster.karmada.io/health-checker');
      expect(specOf(stored)).to.not.have.property('livenessProbe');
    });

    describe('the library and the apiserver agree on the shared table (test/fixtures/agreement/cases.yaml)', function () {
      for (const row of CASES) {
        it(`${row.name}: ${row.expect}${row.field !== undefined ? ` at ${row.field}` : ''}`, async function () {
          const object = agreementCluster(row);
          let apiError: ReturnType<typeof firstApiError> | undefined;
          try {
            await client().createClusterCustomObject({
              ...GROUP,
              body: object,
              dryRun: 'All',
              fieldValidation: 'Strict',
            });
          } catch (err) {
            apiError = firstApiError(err);
          }
          // The oracle first: the table must say what the apiserver says.
          if (row.expect === 'accept') {
            expect(apiError, 'the apiserver rejected a row the table accepts').to.equal(undefined);
          } else {
            expect(apiError, 'the apiserver accepted a row the table rejects').to.not.equal(undefined);
            expect(apiError?.field).to.equal(row.field);
            expect(apiError?.message).to.equal(row.message);
          }

          const library = validateCluster(object);
          const first = library.errors[0];
          if (row.webhookOnly !== undefined) {
            expect(first?.message, 'the library first error on a webhook-only row').to.equal(row.webhookOnly);
            return;
          }
          expect(library.valid, `library errors: ${library.errors.map((e) => e.message).join(' | ')}`).to.equal(
            row.expect === 'accept',
          );
          if (row.expect === 'accept') return;
          const known = row.knownDisagreement;
          expect(first?.field, 'first error field').to.equal(known?.field ?? row.field);
          expect(first?.message, 'first error message').to.equal(known?.library ?? row.message);
        });
      }
    });
  });
});
