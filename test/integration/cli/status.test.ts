// `cluster-probe status` as a user runs it (a child process, a kubeconfig) against an in-memory apiserver serving
// Clusters over plain HTTP on 127.0.0.1: a list, and a watch the test feeds. Exit 1 with a failing Cluster, 0 without,
// 2 for an unknown context or an apiserver that cannot be reached; --context picks the context; --watch on a pipe
// appends each new state (JSON one document a line) and exits, on SIGINT, with the status of the last one drawn.
// The Karmada playground run (and --watch under a pseudo-terminal) is in test/e2e/monitoring.test.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Cluster } from '../../../packages/schema/src/api/index.js';

const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';

function cluster(name: string, healthy: 'True' | 'False', rv: number): Cluster {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: {
      name,
      resourceVersion: String(rv),
      annotations: { 'cluster.karmada.io/liveness-probe': '{"tcpSocket":{"host":"10.0.0.9","port":6443}}' },
    },
    spec: healthy === 'False' ? { taints: [{ key: 'cluster.karmada.io/unhealthy', effect: 'NoSchedule' }] } : {},
    status: {
      conditions: [
        {
          type: 'Healthy',
          status: healthy,
          reason: healthy === 'True' ? 'LivenessProbeSucceeded' : 'LivenessProbeFailed',
          message: healthy === 'True' ? '' : 'dial tcp 10.0.0.9:6443: connect: connection refused',
          lastTransitionTime: new Date().toISOString(),
        },
      ],
    },
  } as unknown as Cluster;
}

/** Clusters by name, a list, and watches that receive what `send` is given. */
class MemoryApiserver {
  readonly clusters = new Map<string, Cluster>();
  private rv = 10;
  private readonly watchers = new Set<ServerResponse>();
  private server: Server | undefined;
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname !== CLUSTERS) return void res.writeHead(404).end();
      if (url.searchParams.get('watch') === 'true') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.flushHeaders();
        this.watchers.add(res);
        res.on('close', () => this.watchers.delete(res));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          apiVersion: 'cluster.karmada.io/v1alpha1',
          kind: 'ClusterList',
          metadata: { resourceVersion: String(this.rv) },
          items: [...this.clusters.values()],
        }),
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  put(name: string, healthy: 'True' | 'False'): void {
    const type = this.clusters.has(name) ? 'MODIFIED' : 'ADDED';
    const c = cluster(name, healthy, ++this.rv);
    this.clusters.set(name, c);
    for (const w of this.watchers) w.write(`${JSON.stringify({ type, object: c })}\n`);
  }

  get watching(): number {
    return this.watchers.size;
  }

  async stop(): Promise<void> {
    for (const w of this.watchers) w.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

function kubeconfig(port: number): string {
  return `apiVersion: v1
kind: Config
clusters:
  - name: memory
    cluster: {server: "http://127.0.0.1:${port}", insecure-skip-tls-verify: true}
  - name: nowhere
    cluster: {server: "http://127.0.0.1:1", insecure-skip-tls-verify: true}
users:
  - name: user
    user: {token: not-a-secret}
contexts:
  - name: memory
    context: {cluster: memory, user: user}
  - name: nowhere
    context: {cluster: nowhere, user: user}
current-context: nowhere
`;
}

const cli = (args: string[]): string[] => ['--import', 'tsx', 'src/cli/bin.ts', 'status', ...args];

describe('cluster-probe status against an in-memory apiserver', function () {
  this.timeout(60_000);
  const apiserver = new MemoryApiserver();
  let dir: string;
  let config: string;
  const children: ChildProcess[] = [];

  before(async () => {
    await apiserver.start();
    dir = mkdtempSync(join(tmpdir(), 'cluster-probe-status-'));
    config = join(dir, 'kubeconfig');
    writeFileSync(config, kubeconfig(apiserver.port));
  });
  after(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await apiserver.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The CLI run to its end; asynchronously, since the apiserver it asks lives in this process. */
  const run = (args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, cli(['--kubeconfig', config, ...args]), {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let stdout = '';
      let stderr = '';
      child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
      child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.once('close', (status) => {
        clearTimeout(timer);
        resolve({ status, stdout, stderr });
      });
    });

  it('prints the table and exits 1 while a Cluster is failing, 0 when none is', async () => {
    apiserver.put('member1', 'False');
    apiserver.put('member2', 'True');
    const failing = await run(['--context', 'memory']);
    expect(failing.stderr).to.equal('');
    expect(failing.stdout.split('\n')[0]).to.match(/^CLUSTER\s+PROBE\s+HEALTHY\s+REASON\s+SINCE\s+TAINT\s+MESSAGE$/);
    expect(failing.stdout).to.match(
      /member1\s+tcpSocket 10\.0\.0\.9:6443\s+False\s+LivenessProbeFailed\s+\d+s\s+NoSchedule\s+dial tcp/,
    );
    expect(failing.stdout).not.to.include('\x1b[');
    expect(failing.status).to.equal(1);
    apiserver.put('member1', 'True');
    // --cluster replaces the current context's cluster (nowhere), as kubectl's does.
    const healthy = await run(['--cluster', 'memory', '-o', 'json']);
    expect(JSON.parse(healthy.stdout)).to.have.nested.property('summary.healthy', 2);
    expect(healthy.status).to.equal(0);
  });

  it('exits 2 naming the apiserver it cannot reach, and the context it cannot find', async () => {
    const unreachable = await run([]);
    expect(unreachable.status).to.equal(2);
    expect(unreachable.stderr).to.include('cannot list Clusters at http://127.0.0.1:1/');
    const nocontext = await run(['--context', 'karmada']);
    expect(nocontext.status).to.equal(2);
    expect(nocontext.stderr).to.include('no context "karmada" in the kubeconfig');
    const nocluster = await run(['--cluster', 'karmada']);
    expect(nocluster.status).to.equal(2);
    expect(nocluster.stderr).to.include('no cluster "karmada" in the kubeconfig');
    const badOutput = await run(['-o', 'xml']);
    expect(badOutput.status).to.equal(2);
    expect(badOutput.stderr).to.include('must be one of table, wide, json, yaml');
  });

  it('--watch appends each new state on a pipe and exits on SIGINT with the last one’s status', async () => {
    apiserver.put('member1', 'True');
    const child = spawn(process.execPath, cli(['--kubeconfig', config, '--context', 'memory', '-o', 'json', '-w']), {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const lines: { summary: { failing: number } }[] = [];
    let buf = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buf += chunk;
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(buf.slice(0, i)) as { summary: { failing: number } });
        buf = buf.slice(i + 1);
      }
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    // The deadline only catches a hang (docs/testing.md): a CLI starting and drawing takes 1-2 s on a quiet machine.
    const until = async (what: string, ok: () => boolean): Promise<void> => {
      const deadline = Date.now() + 25_000;
      while (!ok()) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no ${what}; stderr: ${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await until('first state and a watch', () => lines.length === 1 && apiserver.watching > 0);
    expect(lines[0]!.summary.failing).to.equal(0);
    apiserver.put('member2', 'False');
    await until('the failing state drawn', () => lines.length === 2);
    expect(lines[1]!.summary.failing).to.equal(1);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exited).to.equal(1);
    expect(lines).to.have.length(2);
  });
});
