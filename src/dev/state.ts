// The playground's state file (`${XDG_CACHE_HOME:-~/.cache}/karmada-cluster-probe/dev/state.json`): which processes
// and which directory `dev up` made, so that `dev down` can clean up after a playground whose terminal is gone.
// Only processes whose command line still matches what was recorded are ever signalled (pids get reused).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isRecord } from '@karmada-cluster-probe/schema/api';

export interface RecordedProcess {
  /** Process id, and the id of its process group (each was started as a group leader). */
  pid: number;
  name: string;
  /** A string its command line contains, checked before it is signalled. */
  match: string;
}

export interface PlaygroundState {
  /** The `dev up` process itself, and a string its command line contains. */
  pid: number;
  match: string;
  dir: string;
  kubeconfigPath: string;
  apiserverUrl?: string;
  webhookUrl?: string;
  startedAt: string;
  processes: RecordedProcess[];
  /** Karmada playgrounds: the member clusters, for `dev nodes`. */
  members?: { name: string; kubeconfigPath: string; dir: string }[];
}

export function devStateDir(): string {
  const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cacheHome, 'karmada-cluster-probe', 'dev');
}

export function statePath(): string {
  return join(devStateDir(), 'state.json');
}

/** A stable path to the running playground's kubeconfig (a copy), for `export KUBECONFIG=...`. */
export function stableKubeconfigPath(): string {
  return join(devStateDir(), 'kubeconfig');
}

export function writeState(state: PlaygroundState): void {
  mkdirSync(devStateDir(), { recursive: true });
  writeFileSync(statePath(), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

/** The recorded state, undefined when there is none; throws naming the file when it cannot be read. */
export function readState(): PlaygroundState | undefined {
  const path = statePath();
  if (!existsSync(path)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`${path}: not JSON (${(err as Error).message}); delete it and remove leftovers by hand`);
  }
  if (
    !isRecord(parsed) ||
    typeof parsed.pid !== 'number' ||
    typeof parsed.match !== 'string' ||
    typeof parsed.dir !== 'string'
  ) {
    throw new Error(`${path}: not a playground state file; delete it and remove leftovers by hand`);
  }
  return parsed as unknown as PlaygroundState;
}

export function removeState(): void {
  rmSync(statePath(), { force: true });
  rmSync(stableKubeconfigPath(), { force: true });
}

/** The command line of a running process, or undefined when there is no such process. */
export function commandLine(pid: number): string | undefined {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  const proc = `/proc/${pid}/cmdline`;
  if (existsSync(proc)) return readFileSync(proc, 'utf8').split('\0').join(' ').trim();
  const ps = spawnSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' });
  return ps.status === 0 ? ps.stdout.trim() : undefined;
}

export function isRunning(recorded: { pid: number; match: string }): boolean {
  return commandLine(recorded.pid)?.includes(recorded.match) ?? false;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (at most timeoutMs) until the process no longer runs; true when it is gone. */
export async function waitGone(recorded: { pid: number; match: string }, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(recorded)) {
    if (Date.now() > deadline) return false;
    await sleep(200);
  }
  return true;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // ESRCH: already gone.
    }
  }
}

/** SIGTERM a recorded process group, SIGKILL it after graceMs; only if its command line still matches. */
export async function stopRecorded(
  recorded: RecordedProcess,
  graceMs = 10_000,
): Promise<'stopped' | 'killed' | 'gone'> {
  if (!isRunning(recorded)) return 'gone';
  signalGroup(recorded.pid, 'SIGTERM');
  if (await waitGone(recorded, graceMs)) return 'stopped';
  signalGroup(recorded.pid, 'SIGKILL');
  await waitGone(recorded, 5_000);
  return 'killed';
}

/** Playground directories (`cluster-probe-*`: the control plane, Karmada members, staging) under the state directory. */
export function playgroundDirs(): string[] {
  const dir = devStateDir();
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.startsWith('cluster-probe-'))
    .map((name) => join(dir, name));
}
