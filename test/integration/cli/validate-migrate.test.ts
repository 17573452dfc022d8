// The `validate` and `migrate` commands as a user runs them: real files, stdin, exit codes and output.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function cli(args: string[], input?: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args], {
    input,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('cluster-probe validate', () => {
  it('exits 0 and says each Cluster is valid', () => {
    const r = cli(['validate', 'test/fixtures/clusters/member-dev.yaml', 'test/fixtures/clusters/member-http.yaml']);
    expect(r.code).to.equal(0);
    expect(r.stdout).to.equal(
      'test/fixtures/clusters/member-dev.yaml: Cluster "member-dev" is valid\n' +
        'test/fixtures/clusters/member-http.yaml: Cluster "member-http" is valid\n',
    );
    expect(r.stderr).to.equal('2 Clusters checked: 2 valid, 0 invalid\n');
  });

  it('exits 1 with the field errors in JSON for an invalid Cluster read from a directory', () => {
    const r = cli(['validate', '-o', 'json', 'test/fixtures/clusters']);
    expect(r.code).to.equal(1);
    const out = JSON.parse(r.stdout) as {
      results: { file: string; name: string; valid: boolean; errors: { message: string }[] }[];
    };
    expect(out.results.map((x) => [x.name, x.valid])).to.deep.equal([
      ['member-bad', false],
      ['member-dev', true],
      ['member-http', true],
      ['member-legacy', true],
      ['member-unreachable', true],
    ]);
    expect(out.results[0]?.errors.map((e) => e.message)).to.deep.equal([
      'spec.livenessProbe.httpGet.port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type',
    ]);
  });

  it('refuses a field no Cluster has, as kubectl apply does, and only warns with --field-validation warn', () => {
    const typo = [
      'apiVersion: cluster.karmada.io/v1alpha1',
      'kind: Cluster',
      'metadata: {name: member-dev}',
      'spec:',
      '  syncMode: Push',
      '  apiEndpoint: https://10.20.0.5:6443',
      '  livenessprobe: {tcpSocket: {port: 6443}}',
    ].join('\n');
    const strict = cli(['validate', '-'], typo);
    expect(strict.code).to.equal(1);
    expect(strict.stdout).to.equal(
      '<stdin>: Cluster "member-dev" is invalid:\n' +
        '  - spec.livenessprobe: Forbidden: unknown field "spec.livenessprobe"\n',
    );
    const warn = cli(['validate', '--field-validation', 'warn', '-'], typo);
    expect(warn.code).to.equal(0);
    expect(warn.stdout).to.equal(
      '<stdin>: Cluster "member-dev" is valid\n  warning: unknown field "spec.livenessprobe"\n',
    );
    const ignore = cli(['validate', '--field-validation', 'Ignore', '-'], typo);
    expect([ignore.code, ignore.stdout]).to.deep.equal([0, '<stdin>: Cluster "member-dev" is valid\n']);
    const bad = cli(['validate', '--field-validation', 'loose', '-'], typo);
    expect(bad.code).to.not.equal(0);
    expect(bad.stderr).to.contain("argument 'loose' is invalid. Allowed choices are Strict, Warn, Ignore.");
  });

  it('reads multi-document YAML and Lists from stdin, skipping other kinds', () => {
    const yaml = [
      'apiVersion: v1\nkind: Namespace\nmetadata: {name: x}',
      'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: cluster.karmada.io/v1alpha1, kind: Cluster, metadata: {name: a}, spec: {syncMode: Pull}}\n- {apiVersion: cluster.karmada.io/v1alpha1, kind: Cluster, metadata: {name: b}, spec: {syncMode: Sideways}}',
    ].join('\n---\n');
    const r = cli(['validate', '-'], yaml);
    expect(r.code).to.equal(1);
    expect(r.stdout).to.equal(
      '<stdin>#1: Cluster "a" is valid\n' +
        '<stdin>#1: Cluster "b" is invalid:\n' +
        '  - spec.syncMode: Unsupported value: "Sideways": supported values: "Pull", "Push"\n',
    );
    expect(r.stderr).to.equal('2 Clusters checked: 1 valid, 1 invalid, 1 other document skipped\n');
  });

  it('exits 2 naming the file and line for unparsable YAML, and for a missing file', () => {
    const bad = cli(['validate', '-'], 'kind: Cluster\nspec: [\n');
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.match(/^cluster-probe validate: <stdin>: not valid YAML or JSON at line \d+, column \d+: /);
    const missing = cli(['validate', 'no/such/file.yaml']);
    expect(missing.code).to.equal(2);
    expect(missing.stderr).to.contain(
      'cluster-probe validate: no/such/file.yaml: cannot read: no such file or directory',
    );
  });

  it('explains itself in --help', () => {
    const r = cli(['validate', '--help']);
    expect(r.code).to.equal(0);
    expect(r.stdout).to.contain('Exit status: 0 all Clusters valid, 1 some invalid, 2 unreadable or unparsable input.');
  });
});

describe('cluster-probe migrate', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'cluster-probe-migrate-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("prints the migrated YAML with comments and key order kept, the annotation's comment moved to the probe", () => {
    const r = cli(['migrate', 'test/fixtures/clusters/member-legacy.yaml']);
    expect(r.code).to.equal(0);
    expect(r.stdout).to.equal(
      [
        '# A cluster still using the legacy annotation of karmada PR 3616.',
        'apiVersion: cluster.karmada.io/v1alpha1',
        'kind: Cluster',
        'metadata:',
        '  name: member-legacy',
        'spec:',
        '  syncMode: Push # pushed from the control plane',
        '  apiEndpoint: https://member-legacy.example.com:6443',
        '  secretRef:',
        '    namespace: karmada-cluster',
        '    name: member-legacy',
        '  # the external health service that knows whether nodes are Ready',
        '  livenessProbe:',
        '    httpGet:',
        '      scheme: HTTPS',
        '      host: member-dev-health.some-system.svc',
        '      port: 80',
        '      path: /healthz',
        '    timeoutSeconds: 10',
        '',
      ].join('\n'),
    );
    expect(r.stderr).to.contain(
      'migrated annotation cluster.karmada.io/health-checker into spec.livenessProbe.httpGet',
    );
    expect(r.stderr).to.contain(
      'member-legacy.yaml: Cluster "member-legacy": moved the comment on the removed ' +
        'metadata.annotations[cluster.karmada.io/health-checker] to spec.livenessProbe',
    );
  });

  it('rewrites in place with --write, and a second run changes nothing', () => {
    const file = join(dir, 'member.yaml');
    copyFileSync('test/fixtures/clusters/member-legacy.yaml', file);
    expect(cli(['migrate', '--write', file]).code).to.equal(0);
    const once = readFileSync(file, 'utf8');
    expect(once).to.contain('livenessProbe:').and.not.contain('health-checker');
    expect(cli(['migrate', '--write', file]).code).to.equal(0);
    expect(readFileSync(file, 'utf8')).to.equal(once);
  });

  it('leaves the file untouched and exits 1 when the annotation cannot be carried', () => {
    const file = join(dir, 'bad.yaml');
    const text =
      'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: bad\n  annotations:\n    cluster.karmada.io/health-checker: \'{"service": }\'\nspec:\n  syncMode: Push\n';
    writeFileSync(file, text);
    const r = cli(['migrate', '--write', file]);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.contain(`${file}: Cluster "bad" cannot be migrated:`);
    expect(r.stderr).to.contain(
      "metadata.annotations[cluster.karmada.io/health-checker]: Invalid value: invalid JSON: Unexpected token '}'",
    );
    expect(readFileSync(file, 'utf8')).to.equal(text);
  });

  it('writes the probe into the annotation with --probe-location annotation', () => {
    const r = cli(['migrate', '--probe-location', 'annotation', 'test/fixtures/clusters/member-legacy.yaml']);
    expect(r.code).to.equal(0);
    expect(r.stdout).to.contain(
      'cluster.karmada.io/liveness-probe: \'{"httpGet":{"scheme":"HTTPS","host":"member-dev-health.some-system.svc","port":80,"path":"/healthz"},"timeoutSeconds":10}\'',
    );
  });
});
