// `cluster-probe dev up --karmada` as a Karmada user runs it: a child process that prints the walkthrough, whose steps
// work as printed (`dev nodes` taints the member, a workload skips it, the nodes come back and the taint goes), and
// `dev down` that stops every process of Karmada and its members and removes their directories. Runs in a temporary
// XDG_CACHE_HOME with the prebuilt binaries, so it never touches a real playground.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readState } from '../../src/dev/state.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = [process.execPath, '--import', 'tsx', join(repoRoot, 'src', 'cli', 'bin.ts')] as const;

function run(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolvePromise, reject) => {
    const [command, ...rest] = args;
    const child = spawn(command ?? '', rest, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? -1, out, err });
    });
  });
}

async function until<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined> | T | undefined) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The shell lines of the printed walkthrough that start with `kubectl` or `cluster-probe`, in order. */
function commands(walkthrough: string): string[] {
  return walkthrough
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('kubectl ') || line.startsWith('cluster-probe '));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('cluster-probe dev up --karmada / dev nodes / dev down', function () {
  this.timeout(300_000);
  let cache: string;
  let env: NodeJS.ProcessEnv;
  let up: ChildProcess | undefined;

  before(function () {
    for (const v of ['CLUSTER_PROBE_CONTROLPLANE_BIN', 'CLUSTER_PROBE_KARMADA_BIN']) {
      if (!process.env[v]) throw new Error(`${v} is not set: run with \`npm run test:e2e\``);
    }
    cache = mkdtempSync(join(tmpdir(), 'cluster-probe-dev-karmada-test-'));
    env = { ...process.env, XDG_CACHE_HOME: cache };
  });

  after(async function () {
    up?.kill('SIGKILL');
    await run([...CLI, 'dev', 'down'], env);
    rmSync(cache, { recursive: true, force: true });
  });

  it('prints a walkthrough whose steps work as printed, and dev down removes everything', async function () {
    const [command, ...args] = CLI;
    up = spawn(command, [...args, 'dev', 'up', '--karmada', '--members', '2'], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    up.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    up.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await until('the walkthrough', 180_000, () => {
      if (up?.exitCode !== null) throw new Error(`dev up exited (${up?.exitCode}):\n${stderr.slice(-3000)}`);
      return stdout.includes('Press Ctrl-C') ? true : undefined;
    });
    const steps = commands(stdout);
    const kubeconfig = join(cache, 'karmada-cluster-probe', 'dev', 'kubeconfig');
    expect(steps.every((s) => !s.startsWith('kubectl') || s.includes(kubeconfig))).to.equal(true);
    const kubectl = (line: string) => run(['sh', '-c', line], env);
    const cli = (line: string) => run([...CLI, ...line.replace(/^cluster-probe /, '').split(' ')], env);

    // 2. dev nodes member1 --ready=false, as printed.
    const flip = steps.find((s) => s.includes('--ready=false'));
    expect(flip).to.equal('cluster-probe dev nodes member1 --ready=false');
    const flipped = await cli(flip!);
    expect(flipped.code, flipped.err).to.equal(0);
    expect(flipped.err).to.include('member1: node member1-node-1 Ready=False');

    // 3. the taint, read with the printed kubectl line.
    const taintLine = steps.find((s) => s.includes('{.spec.taints}'))!;
    await until('member1 tainted', 60_000, async () => {
      const out = await kubectl(taintLine);
      return out.out.includes('cluster.karmada.io/unhealthy') ? true : undefined;
    });

    // 4. a workload skips it.
    const apply = steps.find((s) => s.includes(' apply -f '))!;
    expect((await kubectl(apply)).code).to.equal(0);
    const bindingLine = steps.find((s) => s.includes('resourcebinding'))!.replace(/\s+#.*$/, '');
    const placed = await until('the ResourceBinding scheduled', 90_000, async () => {
      const out = await kubectl(bindingLine);
      return out.code === 0 && out.out.includes('member') ? out.out : undefined;
    });
    expect(placed).to.include('member2');
    expect(placed).to.not.include('member1');

    // 5. nodes back, taint gone.
    const back = steps.find((s) => s.includes('--ready=true'))!;
    expect((await cli(back)).code).to.equal(0);
    await until('member1 untainted', 60_000, async () => {
      const out = await kubectl(taintLine);
      return out.code === 0 && !out.out.includes('cluster.karmada.io/unhealthy') ? true : undefined;
    });

    // dev down: every recorded process (Karmada's and the members') stops, every directory goes.
    const state = readStateIn(env);
    expect(state.members?.map((m) => m.name)).to.deep.equal(['member1', 'member2']);
    const pids = state.processes.map((p) => p.pid);
    expect(pids.length).to.be.greaterThan(8);
    const down = await run([...CLI, 'dev', 'down'], env);
    expect(down.code, down.err).to.equal(0);
    await until('dev up to exit', 60_000, () => (up?.exitCode !== null || up?.signalCode !== null ? true : undefined));
    await until('every process gone', 30_000, () => (pids.every((p) => !alive(p)) ? true : undefined));
    const devDir = join(cache, 'karmada-cluster-probe', 'dev');
    const left = existsSync(devDir) ? readdirSync(devDir).filter((n) => n.startsWith('cluster-probe-')) : [];
    expect(left).to.deep.equal([]);
  });
});

/** readState() reads XDG_CACHE_HOME from this process's environment: point it at the test's cache for the call. */
function readStateIn(env: NodeJS.ProcessEnv) {
  const saved = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = env.XDG_CACHE_HOME;
  try {
    const state = readState();
    if (!state) throw new Error('no playground state recorded');
    return state;
  } finally {
    if (saved === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved;
  }
}
