// A child process in its own process group, logging to a file, that can be stopped (TERM, then KILL after a grace
// period) and killed synchronously from an exit handler. Knows nothing of Kubernetes.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

export class ProcessGroup {
  readonly name: string;
  readonly logPath: string;
  private readonly child: ChildProcess;
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exited: Promise<void>;
  private spawnError: Error | undefined;

  constructor(name: string, command: string, args: string[], logPath: string) {
    this.name = name;
    this.logPath = logPath;
    const fd = openSync(logPath, 'a');
    try {
      // detached: a new process group, so stop() reaches anything the binary forks and Ctrl-C on the terminal
      // does not race our own orderly shutdown.
      this.child = spawn(command, args, { detached: true, stdio: ['ignore', fd, fd] });
    } finally {
      closeSync(fd);
    }
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve();
      });
      this.child.once('error', (err) => {
        this.exitInfo = { code: null, signal: null };
        this.spawnError = err;
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Why the process is gone, or undefined while it runs. */
  get exitReason(): string | undefined {
    if (this.spawnError) return `could not start: ${this.spawnError.message}`;
    if (!this.exitInfo) return undefined;
    return this.exitInfo.signal ? `killed by ${this.exitInfo.signal}` : `exited with code ${this.exitInfo.code}`;
  }

  logTail(lines = 30): string {
    try {
      return readFileSync(this.logPath, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }

  private signalGroup(signal: NodeJS.Signals): void {
    if (this.child.pid === undefined || this.exitInfo) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  }

  /** SIGTERM the group, SIGKILL it if it is still there after graceMs; resolves once the process has exited. */
  async stop(graceMs = 10_000): Promise<void> {
    this.signalGroup('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      this.exited.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs))),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      this.signalGroup('SIGKILL');
      await this.exited;
    }
    // Whatever the leader left behind in its group goes too.
    if (this.child.pid !== undefined) {
      try {
        process.kill(-this.child.pid, 'SIGKILL');
      } catch {
        // ESRCH: nothing left.
      }
    }
  }

  /** Lets the test process exit while this one still runs (for a watchdog that must outlive it). */
  unref(): void {
    this.child.unref();
  }

  /** For exit and signal handlers, which cannot wait. */
  killNow(): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // ESRCH: the group is already gone.
    }
  }
}
