// The address policy as a user meets it on the command line: `cluster-probe validate` refuses a probe host that spells
// the metadata address in another form, an unspecified address, and a legacy url aimed at the metadata service, and
// `cluster-probe probe -f` refuses to connect there. Real files, real exit codes.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const CLUSTERS = `# Each Cluster aims its probe at an address the policy denies, spelt so that only normalisation sees it.
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member-hex
spec:
  syncMode: Pull
  livenessProbe:
    httpGet: { host: "0xa9fea9fe", port: 80, path: /latest/meta-data/ }
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member-octal
spec:
  syncMode: Pull
  livenessProbe:
    tcpSocket: { host: 0251.0376.0251.0376, port: 80 }
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member-zero
spec:
  syncMode: Pull
  livenessProbe:
    grpc: { host: "0", port: 9000 }
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member-nat64
spec:
  syncMode: Push
  apiEndpoint: https://[64:ff9b::a9fe:a9fe]:6443
  secretRef: { namespace: karmada-cluster, name: member-nat64 }
  livenessProbe:
    apiServer: {}
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member-legacy
  annotations:
    cluster.karmada.io/health-checker: '{"url":"http://169.254.43518/latest/meta-data"}'
spec:
  syncMode: Pull
`;

describe('cluster-probe and the address policy', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'address-cli-'));
    writeFileSync(join(dir, 'clusters.yaml'), CLUSTERS);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('validate refuses every spelling of a denied address, with the address it spells', () => {
    const r = cli(['validate', '-o', 'json', join(dir, 'clusters.yaml')]);
    expect(r.code, r.stderr).to.equal(1);
    const out = JSON.parse(r.stdout) as { results: { name: string; valid: boolean; errors: { message: string }[] }[] };
    expect(out.results.map((x) => [x.name, x.errors.map((e) => e.message)])).to.deep.equal([
      [
        'member-hex',
        [
          'spec.livenessProbe.httpGet.host: Forbidden: 0xa9fea9fe (169.254.169.254) is in the denied address range 169.254.0.0/16; probes may not target it',
        ],
      ],
      [
        'member-octal',
        [
          'spec.livenessProbe.tcpSocket.host: Forbidden: 0251.0376.0251.0376 (169.254.169.254) is in the denied address range 169.254.0.0/16; probes may not target it',
        ],
      ],
      [
        'member-zero',
        [
          "spec.livenessProbe.grpc.host: Forbidden: 0 (0.0.0.0) is the unspecified address, which connects to the prober's own host; probes may not target it",
        ],
      ],
      [
        'member-nat64',
        [
          'spec.apiEndpoint: Forbidden: 64:ff9b::a9fe:a9fe (NAT64 address of 169.254.169.254) is in the denied address range 169.254.0.0/16; probes may not target it',
        ],
      ],
      [
        'member-legacy',
        [
          'metadata.annotations[cluster.karmada.io/health-checker].url: Forbidden: 169.254.169.254 (the host of the url) is in the denied address range 169.254.0.0/16; probes may not target it',
        ],
      ],
    ]);
  });

  it('validate --deny-cidr replaces the list but never allows the unspecified address', () => {
    const r = cli(['validate', '--deny-cidr', '10.0.0.0/8', join(dir, 'clusters.yaml')]);
    expect(r.code).to.equal(1);
    expect(r.stdout).to.contain('Cluster "member-hex" is valid');
    expect(r.stdout).to.contain('0 (0.0.0.0) is the unspecified address');
  });

  it('probe -f refuses to connect to a spelled metadata address (exit 2, a configuration error)', () => {
    const file = join(dir, 'probe.yaml');
    writeFileSync(
      file,
      'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: m}\nspec:\n  syncMode: Pull\n  livenessProbe:\n    tcpSocket: {host: "2852039166", port: 80}\n',
    );
    const r = cli(['probe', '-f', file]);
    expect(r.code, r.stdout + r.stderr).to.equal(2);
    expect(r.stdout + r.stderr).to.contain('169.254.169.254');
  });
});
