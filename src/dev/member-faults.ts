// Faults of a member's kube-apiserver for the detection bench and e2e: paused (SIGSTOP: the kernel still accepts
// connections, nothing answers, as a hung or partitioned host) or killed (connection refused, as a crashed apiserver),
// and brought back. Works on any ControlPlane of src/dev/controlplane.ts; finds the process by its command line in
// /proc. A paused process is always continued when this process exits, so no test leaves a stopped apiserver behind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ControlPlane } from './controlplane.js';
import { waitFor } from './loopback.js';
import { ProcessGroup } from './process-group.js';

/** The argv of a live process, from /proc. */
export function cmdline(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((s) => s !== '');
  } catch {
    return undefined;
  }
}

/** Whether a process exists and is not a zombie. */
export function alive(pid: number): boolean {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: already gone.
  }
}

/** The process group id of the control plane's kube-apiserver (its group leader is the binary itself). */
export function apiServerPid(cp: ControlPlane): number {
  const pid = cp.pids().find((p) => alive(p) && cmdline(p)?.[0]?.endsWith('kube-apiserver') === true);
  if (pid === undefined) throw new Error(`no live kube-apiserver among the processes of ${cp.dir}`);
  return pid;
}

const paused = new Set<number>();
let exitHookInstalled = false;

/** SIGSTOPs the kube-apiserver: connections are accepted by the kernel and then hang. Resolves to `resume`. */
export function pauseApiServer(cp: ControlPlane): { pid: number; resume(): void } {
  const pid = apiServerPid(cp);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const p of paused) signalGroup(p, 'SIGCONT');
    });
  }
  paused.add(pid);
  signalGroup(pid, 'SIGSTOP');
  return {
    pid,
    resume: () => {
      signalGroup(pid, 'SIGCONT');
      paused.delete(pid);
    },
  };
}

/**
 * SIGKILLs the kube-apiserver (connections refused from then on) and returns `restart`, which starts the same command
 * line again on the same port (same etcd, certificates, flags) as a process the control plane adopts, so its stop()
 * and the reaper end it; restart resolves once /readyz answers.
 */
export async function killApiServer(cp: ControlPlane): Promise<{ pid: number; restart(): Promise<void> }> {
  const pid = apiServerPid(cp);
  const argv = cmdline(pid);
  if (argv === undefined) throw new Error(`cannot read the command line of kube-apiserver ${pid}`);
  signalGroup(pid, 'SIGKILL');
  await waitFor('kube-apiserver to exit', Date.now() + 20_000, [], () => Promise.resolve(!alive(pid)));
  return {
    pid,
    restart: async () => {
      const group = cp.adopt(
        new ProcessGroup('kube-apiserver', argv[0]!, argv.slice(1), join(cp.dir, 'kube-apiserver.restarted.log')),
      );
      await waitFor('the restarted kube-apiserver /readyz', Date.now() + 60_000, [group], async () => {
        const out = await cp.kubectl(['get', '--raw', '/readyz'], { timeoutMs: 5_000 });
        return out.code === 0;
      });
    },
  };
}
