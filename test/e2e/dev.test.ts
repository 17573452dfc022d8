// `cluster-probe dev up` as a person runs it: a child process that prints a kubeconfig and a sample apply that works,
// stops cleanly on Ctrl-C (SIGINT), and `dev down` that cleans up after a playground killed with SIGKILL.
// Runs in a temporary XDG_CACHE_HOME with the prebuilt binaries, so it never touches a real playground.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = [process.execPath, '--import', 'tsx', join(repoRoot, 'src', 'cli', 'bin.ts')] as const;

interface Up {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function startUp(env: NodeJS.ProcessEnv): Up {
  const [command, ...args] = CLI;
  const child = spawn(command, [...args, 'dev', 'up'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolvePromise) => child.on('exit', (code) => resolvePromise(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

async function until(what: string, timeoutMs: number, check: () => boolean, detail: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${detail()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function run(
  args: string[],
  env: NodeJS.ProcessEnv,
  input?: string,
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolvePromise, reject) => {
    const [command, ...rest] = args;
    const child = spawn(command ?? '', rest, { cwd: repoRoot, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? -1, out, err });
    });
    child.stdin.end(input ?? '');
  });
}

describe('cluster-probe dev up / dev down', function () {
  this.timeout(90_000);
  let cache: string;
  let env: NodeJS.ProcessEnv;
  const running: Up[] = [];

  before(function () {
    if (!process.env.CLUSTER_PROBE_CONTROLPLANE_BIN) {
      throw new Error('CLUSTER_PROBE_CONTROLPLANE_BIN is not set: run with `npm run test:e2e`');
    }
    cache = mkdtempSync(join(tmpdir(), 'cluster-probe-dev-test-'));
    env = { ...process.env, XDG_CACHE_HOME: cache };
  });

  after(async function () {
    for (const up of running) up.child.kill('SIGKILL');
    await run([...CLI, 'dev', 'down'], env);
    rmSync(cache, { recursive: true, force: true });
  });

  const stateFile = () => join(cache, 'karmada-cluster-probe', 'dev', 'state.json');
  const kubeconfig = () => join(cache, 'karmada-cluster-probe', 'dev', 'kubeconfig');

  it('prints a kubeconfig and a sample apply that the webhook migrates, and stops cleanly on Ctrl-C', async function () {
    const up = startUp(env);
    running.push(up);
    await until(
      'the playground',
      60_000,
      () => up.stdout().includes('Press Ctrl-C'),
      () => up.stderr(),
    );
    expect(up.stdout()).to.include(`  export KUBECONFIG=${kubeconfig()}\n`);
    expect(up.stdout()).to.include(
      `  kubectl --kubeconfig ${kubeconfig()} apply -f test/fixtures/clusters/member-legacy.yaml\n`,
    );
    const state = JSON.parse(readFileSync(stateFile(), 'utf8')) as { dir: string; processes: { name: string }[] };
    expect(state.processes.map((p) => p.name)).to.deep.equal(['etcd', 'kube-apiserver', 'webhook', 'reconciler']);

    const applied = await run(
      ['kubectl', '--kubeconfig', kubeconfig(), 'apply', '-f', 'test/fixtures/clusters/member-legacy.yaml'],
      env,
    );
    expect(applied).to.deep.equal({
      code: 0,
      out: 'cluster.cluster.karmada.io/member-legacy created\n',
      err: 'Warning: migrated annotation cluster.karmada.io/health-checker into spec.livenessProbe.httpGet\n',
    });

    // The legacy sample's probe fails too (its Service does not resolve here), three periods of 10 s after it was
    // applied: beside it, a second failing Cluster would make two of three, past the disruption guard's ceiling, and
    // whether the next verdict is written or held (TooManyUnhealthy) would race the machine. It has shown what it was
    // applied for (the migration); it goes.
    const deleted = await run(
      ['kubectl', '--kubeconfig', kubeconfig(), 'delete', '-f', 'test/fixtures/clusters/member-legacy.yaml'],
      env,
    );
    expect(deleted.code, deleted.err).to.equal(0);

    // The reconciler runs too: the sample whose probe cannot connect gets tainted and Healthy=False.
    const unreachable = 'test/fixtures/clusters/playground-unreachable.yaml';
    expect(up.stdout()).to.include(`  kubectl --kubeconfig ${kubeconfig()} apply -f ${unreachable}\n`);
    const created = await run(['kubectl', '--kubeconfig', kubeconfig(), 'apply', '-f', unreachable], env);
    expect(created.code, created.err).to.equal(0);
    const jsonpath =
      '{.spec.taints[*].key} {.status.conditions[?(@.type=="Healthy")].status} {.status.conditions[?(@.type=="Healthy")].reason}';
    let seen = '';
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const got = await run(
        ['kubectl', '--kubeconfig', kubeconfig(), 'get', 'cluster', 'member-unreachable', '-o', `jsonpath=${jsonpath}`],
        env,
      );
      seen = got.out;
      if (seen === 'cluster.karmada.io/unhealthy False LivenessProbeFailed') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(seen).to.equal('cluster.karmada.io/unhealthy False LivenessProbeFailed');
    // Beside it, the playground's own healthy member: the reason the failing one is judged, not withheld.
    const healthy = await run(
      ['kubectl', '--kubeconfig', kubeconfig(), 'get', 'cluster', 'playground-healthy', '-o', `jsonpath=${jsonpath}`],
      env,
    );
    expect(healthy.out).to.equal(' True LivenessProbeSucceeded');

    up.child.kill('SIGINT');
    expect(await up.exited).to.equal(0);
    expect(up.stderr()).to.include('cluster-probe dev: SIGINT: stopping\n');
    expect(existsSync(state.dir), state.dir).to.equal(false);
    expect(existsSync(stateFile())).to.equal(false);
  });

  it('dev down cleans up after a playground whose dev up was killed', async function () {
    const up = startUp(env);
    running.push(up);
    await until(
      'the playground',
      60_000,
      () => up.stdout().includes('Press Ctrl-C'),
      () => up.stderr(),
    );
    const state = JSON.parse(readFileSync(stateFile(), 'utf8')) as { dir: string };
    up.child.kill('SIGKILL');
    await up.exited;

    const down = await run([...CLI, 'dev', 'down'], env);
    expect(down.code, down.err).to.equal(0);
    expect(down.err).to.include(`cluster-probe dev: removed ${stateFile()}\n`);
    await until(
      'the playground directory to go',
      15_000,
      () => !existsSync(state.dir),
      () => state.dir,
    );
    const again = await run([...CLI, 'dev', 'down'], env);
    expect(again).to.deep.equal({
      code: 0,
      out: '',
      err: `cluster-probe dev: no playground recorded in ${stateFile()}\n`,
    });
  });
});
