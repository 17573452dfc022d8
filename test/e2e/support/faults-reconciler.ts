// The compiled reconciler (dist/src/cli/reconcile.js, what `npm ci` builds and the image runs) as a child process for
// the control-plane faults e2e: its JSON log lines kept with their own timestamps, its /metrics read directly (never
// through the control plane under test), killed at the end. CLUSTER_PROBE_FAULTS_DIST names another compiled tree.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMetric, waitFor, type LogLine } from './reconciler-env.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
export const FAULTS_DIST = process.env.CLUSTER_PROBE_FAULTS_DIST ?? join(REPO, 'dist');

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of running) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

export interface FaultsLogLine extends LogLine {
  /** When the reconciler wrote it (its pino `time`), epoch ms. */
  at: number;
}

export interface CompiledReconciler {
  name: string;
  child: ChildProcess;
  logs: FaultsLogLine[];
  metricsPort: number;
  /** Undefined while it runs. */
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  stderr(): string;
  metrics(): Promise<string>;
  metric(name: string, labels?: Record<string, string>): Promise<number>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startCompiledReconciler(
  name: string,
  kubeconfig: string,
  args: string[],
): Promise<CompiledReconciler> {
  const entry = join(FAULTS_DIST, 'src/cli/reconcile.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` (npm ci does it)`);
  const script =
    `import { Command } from 'commander'; import { register } from ${JSON.stringify(entry)};\n` +
    `const p = new Command('cluster-probe'); register(p); await p.parseAsync(process.argv.slice(1), { from: 'user' });`;
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      script,
      '--',
      'reconcile',
      '--kubeconfig',
      kubeconfig,
      '--metrics-port',
      '0',
      '--identity',
      name,
      ...args,
    ],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  const logs: FaultsLogLine[] = [];
  let stderr = '';
  let buf = '';
  let exit: CompiledReconciler['exit'];
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      running.delete(child);
      resolve();
    }),
  );
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buf += chunk;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      try {
        const parsed = JSON.parse(line) as LogLine & { time?: string };
        logs.push({ ...parsed, at: Date.parse(parsed.time ?? '') || Date.now() });
      } catch {
        logs.push({ level: 0, msg: line, at: Date.now() });
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-20_000);
  });
  const serving = await waitFor(`${name}: serving /metrics`, 30_000, () => {
    if (exit !== undefined) throw new Error(`${name} exited (${JSON.stringify(exit)}): ${stderr.slice(-2000)}`);
    return logs.find((l) => l.msg === 'serving /healthz, /readyz, /metrics');
  }).catch((err: unknown) => {
    child.kill('SIGKILL');
    throw err;
  });
  const metricsPort = Number(new URL(String(serving.address)).port);
  const metrics = async (): Promise<string> =>
    (await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
  return {
    name,
    child,
    logs,
    metricsPort,
    get exit() {
      return exit;
    },
    stderr: () => stderr,
    metrics,
    metric: async (metricName, labels) => parseMetric(await metrics(), metricName, labels),
    kill: async (signal = 'SIGTERM') => {
      if (exit === undefined) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
