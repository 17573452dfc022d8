// `cluster-probe probe`: Cluster YAML (field and annotation), --url, apiServer credentials, text and JSON output, and
// the exit codes 0/1/2; in-process for most cases, and through the real CLI entry (tsx src/cli/main.ts) for a few.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { expect } from 'chai';
import { probeCommand, type Io, type ProbeCommandOptions } from '../../../src/cli/probe.js';
import { testPki, type TestPki } from './certs.js';
import { startMemberApiserver, type StandIn } from './member-apiserver.js';
import { close, listen } from './servers.js';

const FIXTURES = new URL('../../fixtures/probe/', import.meta.url);
const ROOT = new URL('../../../', import.meta.url);
// The CLI entry as bin/cluster-probe.js runs it, but from the TypeScript sources: run(argv) from src/cli/main.ts.
const ENTRY =
  "const { run } = await import('./src/cli/main.ts'); process.exitCode = await run(['node', 'cluster-probe', ...process.argv.slice(1)]);";

describe('cluster-probe probe', function () {
  this.timeout(30_000);
  let server: http.Server;
  let port: number;
  let pki: TestPki;
  let api: StandIn;

  before(async () => {
    server = http.createServer((req, res) => {
      res.writeHead(req.url === '/status/503' ? 503 : 200);
      res.end();
    });
    port = await listen(server);
    pki = await testPki();
    api = await startMemberApiserver({ key: pki.server.key, cert: pki.server.cert, token: 'tkn' });
    api.nodes = [
      { name: 'a', ready: true },
      { name: 'b', ready: true },
    ];
  });
  after(async () => {
    await close(server);
    await api.close();
  });

  /** Runs the command in-process; fixture ports 8080 and 6443 become the test servers'. */
  async function cli(opts: ProbeCommandOptions, files: Record<string, string> = {}) {
    let stdout = '';
    let stderr = '';
    const io: Io = {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      readFile: (p) => {
        if (files[p] !== undefined) return files[p];
        return readFileSync(new URL(p, FIXTURES), 'utf8')
          .replaceAll('8080', String(port))
          .replaceAll('6443', String(api.port));
      },
    };
    const code = await probeCommand(opts, io);
    return { code, stdout, stderr };
  }

  it('probes the spec.livenessProbe of a Cluster file, host from apiEndpoint, exit 0', async () => {
    const r = await cli({ file: 'member-httpget.yaml' });
    expect(r.code).to.equal(0);
    expect(r.stdout).to.contain('Cluster:  member-dev (spec.livenessProbe)');
    expect(r.stdout).to.contain('Result:   success');
    expect(r.stdout).to.contain('Message:  HTTP probe succeeded with statuscode: 200');
  });

  it('reads the probe from the annotation, and exits 1 on failure, with JSON output', async () => {
    const r = await cli({ file: 'member-annotation.yaml', output: 'json' });
    expect(r.code).to.equal(1);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).to.include({
      cluster: 'member-annotated',
      source: 'annotation cluster.karmada.io/liveness-probe',
      result: 'failure',
      message: 'HTTP probe failed with statuscode: 503',
    });
    expect(out.durationMs).to.be.a('number');
  });

  it('probes a Cluster that still uses the legacy health-checker annotation, as the reconciler does', async () => {
    const r = await cli({ file: 'member-legacy-url.yaml' });
    expect(r.code).to.equal(0);
    expect(r.stdout).to.contain('Cluster:  member-legacy (annotation cluster.karmada.io/health-checker (legacy))');
    expect(r.stdout).to.contain('Message:  HTTP probe succeeded with statuscode: 200');
  });

  it('refuses a file with more than one Cluster, and an invalid probe, naming the field', async () => {
    const two = await cli(
      { file: 'two.yaml' },
      { 'two.yaml': 'kind: Cluster\nmetadata: {name: a}\n---\nkind: Cluster\nmetadata: {name: b}\n' },
    );
    expect(two.code).to.equal(2);
    expect(two.stderr).to.contain('two.yaml: holds 2 Clusters; probe one at a time (one document per file)');
    const bad = await cli(
      { file: 'bad.yaml' },
      {
        'bad.yaml':
          'kind: Cluster\nmetadata: {name: a}\nspec:\n  livenessProbe: {tcpSocket: {host: 127.0.0.1, port: 70000}}\n',
      },
    );
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.contain(
      'bad.yaml: Cluster "a": spec.livenessProbe.tcpSocket.port: Invalid value: 70000: must be between 1 and 65535, inclusive',
    );
  });

  it('runs an apiServer probe with --token-file and --ca-file', async () => {
    const files = { token: 'tkn\n', 'ca.crt': pki.caPem };
    expect((await cli({ file: 'member-apiserver.yaml', tokenFile: 'token', caFile: 'ca.crt' }, files)).code).to.equal(
      0,
    );
    // Refused credentials are a fault of the configuration (exit 2), not a verdict on the member.
    const denied = await cli({ file: 'member-apiserver.yaml', caFile: 'ca.crt' }, files);
    expect(denied.code).to.equal(2);
    expect(denied.stdout).to.contain("statuscode: 401: the member refused the probe's credentials");
    const insecure = await cli(
      { file: 'member-apiserver.yaml', tokenFile: 'token', insecureSkipTlsVerify: true },
      files,
    );
    expect(insecure.code).to.equal(0);
  });

  it('exits 2 for a probe that cannot be built (unresolvable named port)', async () => {
    const r = await cli({ file: 'member-bad-port.yaml' });
    expect(r.code).to.equal(2);
    expect(r.stdout).to.contain('Result:   error');
    expect(r.stdout).to.contain('named port "my-health" cannot be resolved');
  });

  it('probes a --url, with --timeout', async () => {
    const r = await cli({ url: `http://127.0.0.1:${port}/healthz`, timeout: '3' });
    expect(r.code).to.equal(0);
    expect(r.stdout).to.contain(`Target:   http://127.0.0.1:${port}/healthz`);
  });

  it('exits 2 with a helpful message for usage errors', async () => {
    const cases: [ProbeCommandOptions, Record<string, string>, RegExp][] = [
      [{}, {}, /exactly one of -f\/--file/],
      [{ url: 'x', file: 'y' }, {}, /exactly one of/],
      [{ url: 'ftp://h/' }, {}, /scheme "ftp" is not supported/],
      [{ url: 'http://h/', output: 'yaml' }, {}, /"yaml" is not supported; use text or json/],
      [{ url: 'http://h/', timeout: '0' }, {}, /--timeout/],
      [{ file: 'nope.yaml' }, {}, /nope\.yaml: cannot read/],
      [
        { file: 'c.yaml' },
        { 'c.yaml': 'kind: Cluster\nmetadata: {name: x}\nspec: {}\n' },
        /has no spec\.livenessProbe/,
      ],
      [
        { file: 'c.yaml' },
        {
          'c.yaml':
            "kind: Cluster\nmetadata:\n  name: x\n  annotations:\n    cluster.karmada.io/liveness-probe: '{oops'\n",
        },
        /metadata\.annotations\[cluster\.karmada\.io\/liveness-probe\]: Invalid value: invalid JSON/,
      ],
    ];
    for (const [opts, files, pattern] of cases) {
      const r = await cli(opts, files);
      expect(r.code, JSON.stringify(opts)).to.equal(2);
      expect(r.stderr).to.match(pattern);
    }
  });

  function main(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', ENTRY, 'probe', ...args],
        { cwd: ROOT, timeout: 20_000 },
        (err, stdout, stderr) => {
          const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
          resolve({ code, stdout, stderr });
        },
      );
    });
  }

  it('works through the real CLI entry: exit codes 0 and 1, and --help with examples', async () => {
    const [ok, bad, help] = await Promise.all([
      main(['--url', `http://127.0.0.1:${port}/`]),
      main(['--url', `http://127.0.0.1:${port}/status/503`, '-o', 'json']),
      main(['--help']),
    ]);
    expect(ok.code, ok.stderr).to.equal(0);
    expect(bad.code, bad.stderr).to.equal(1);
    expect(JSON.parse(bad.stdout)).to.include({ result: 'failure' });
    expect(help.stdout).to.contain('cluster-probe probe -f member-dev.yaml');
    expect(help.stdout).to.contain('Exit status');
  });
});
