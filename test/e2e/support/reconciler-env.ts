// Helpers for the reconciler's e2e tests: loopback health servers whose answer a test flips, the real reconcile CLI as
// a child process (logs captured, metrics scraped, always killed), bounded polling, and a kube-apiserver restart on the
// same port (its command line read from /proc, so the harness needs no change).
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, openSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ControlPlane } from '../harness/controlplane.js';
import { alive, cmdline } from '../../../src/dev/member-faults.js';

export interface HealthServer {
  port: number;
  requests: number;
  healthy: boolean;
  close(): Promise<void>;
}

export async function startHealthServer(): Promise<HealthServer> {
  const state = { requests: 0, healthy: true };
  const server: Server = createServer((_req, res) => {
    state.requests++;
    res.writeHead(state.healthy ? 200 : 500, { 'content-type': 'text/plain' }).end(state.healthy ? 'ok' : 'bad');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    get requests() {
      return state.requests;
    },
    get healthy() {
      return state.healthy;
    },
    set healthy(v: boolean) {
      state.healthy = v;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` every `everyMs` until it returns a value other than undefined/false; throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  timeoutMs: number,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      lastError = err instanceof Error ? err.message : String(err);
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${lastError})` : ''}`,
      );
    await sleep(everyMs);
  }
}

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

const CLI = fileURLToPath(new URL('./reconciler-cli.ts', import.meta.url));
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of running) if (c.exitCode === null) c.kill('SIGKILL');
});

export interface ReconcilerProcess {
  name: string;
  child: ChildProcess;
  logs: LogLine[];
  metricsPort: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  metrics(): Promise<string>;
  /** The sum of a metric's samples whose labels include all of `labels`. */
  metric(name: string, labels?: Record<string, string>): Promise<number>;
  waitForLog(what: string, predicate: (l: LogLine) => boolean, timeoutMs: number): Promise<LogLine>;
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function parseMetric(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (m === null || m[1] !== name) continue;
    const have = m[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => have.includes(`${k}="${v}"`))) sum += Number(m[3]);
  }
  return sum;
}

/** Starts `cluster-probe reconcile` from source; resolves once it serves /healthz. */
export async function startReconciler(name: string, kubeconfig: string, args: string[]): Promise<ReconcilerProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      CLI,
      'reconcile',
      '--kubeconfig',
      kubeconfig,
      '--metrics-port',
      '0',
      '--identity',
      name,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } },
  );
  running.add(child);
  const logs: LogLine[] = [];
  let stderr = '';
  let buf = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buf += chunk;
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      try {
        logs.push(JSON.parse(line) as LogLine);
      } catch {
        logs.push({ level: 0, msg: line });
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  const waitForLog = async (what: string, predicate: (l: LogLine) => boolean, timeoutMs: number): Promise<LogLine> =>
    waitFor(`${name}: ${what}`, timeoutMs, () => {
      if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}): ${stderr.slice(-2000)}`);
      return logs.find(predicate);
    });
  let serving: LogLine;
  try {
    serving = await waitForLog('serving', (l) => l.msg === 'serving /healthz, /readyz, /metrics', 30_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  const metricsPort = Number(new URL(String(serving.address)).port);
  const metrics = async (): Promise<string> =>
    (await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
  return {
    name,
    child,
    logs,
    metricsPort,
    exited,
    metrics,
    metric: async (metricName, labels) => parseMetric(await metrics(), metricName, labels),
    waitForLog,
    kill: async (signal = 'SIGKILL') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
      const out = await exited;
      clearTimeout(timer);
      return out;
    },
  };
}

export interface RestartedApiServer {
  pid: number;
  stop(): Promise<void>;
}

/**
 * Stops the control plane's kube-apiserver (SIGTERM to its process group) and starts the same command line again on the
 * same port, with the same etcd, certificates and flags. The new process is listed in the control plane's pids file,
 * so the harness's reaper kills it should the test process die; stop() kills it otherwise.
 */
export async function restartApiServer(cp: ControlPlane, downMs: number): Promise<RestartedApiServer> {
  const pidsFile = join(cp.dir, 'pids');
  const pids = readFileSync(pidsFile, 'utf8')
    .split('\n')
    .filter((s) => s !== '')
    .map(Number);
  const pid = pids.find((p) => cmdline(p)?.[0]?.endsWith('kube-apiserver') === true);
  if (pid === undefined) throw new Error(`no kube-apiserver among the processes in ${pidsFile}`);
  const argv = cmdline(pid)!;
  process.kill(-pid, 'SIGTERM');
  await waitFor('kube-apiserver to exit', 20_000, () => !alive(pid)).catch(() => process.kill(-pid, 'SIGKILL'));
  await sleep(downMs);
  const log = openSync(join(cp.dir, 'kube-apiserver.restarted.log'), 'a');
  const child = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: ['ignore', log, log] });
  if (child.pid === undefined) throw new Error('could not start kube-apiserver again');
  appendFileSync(pidsFile, `${child.pid}\n`);
  const newPid = child.pid;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor(
    'the restarted kube-apiserver /readyz',
    60_000,
    async () => (await cp.kubectl(['get', '--raw', '/readyz'], { timeoutMs: 5_000 })).code === 0,
    250,
  );
  return {
    pid: newPid,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-newPid, 'SIGTERM');
      } catch {
        return;
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-newPid, 'SIGKILL');
        } catch {
          // gone
        }
      }, 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
