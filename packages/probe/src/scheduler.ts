// Runs thousands of probe workers from one timer: a min-heap of due times, a bounded number of probes in flight, never
// two runs of one target at once, and a stop that aborts and awaits what runs. Time comes from an injected Clock.
import { resolveTiming } from './prober.js';
import { ProbeWorker, type Transition, type WorkerState } from './worker.js';
import type { LivenessProbe, ProbeResult, ResolvedTiming } from './types.js';
import { messageOf, RealClock, type Clock, type TimerHandle } from '@karmada-cluster-probe/schema/api';

/**
 * Runs one probe of a target; must honour the signal (the scheduler's stop, or the target's removal). The signal is
 * the target's, the same for all its runs (one AbortController a target, not one a run): a runner that listens to it
 * removes its listener when the run ends, as runProbe's handlers do.
 */
export type ProbeRunner = (signal: AbortSignal) => Promise<ProbeResult>;

export interface SchedulerOptions {
  clock?: Clock;
  /** Most probes in flight at once; due probes beyond it wait in order. */
  concurrency?: number;
  /** In [0, 1): the jitter of each target's first run. */
  random?: () => number;
  /** Called on each state change of a target (thresholds reached), never for a repeated state. */
  onTransition?: (key: string, transition: Transition) => void;
  /**
   * Called after every run, whatever its outcome: an errored run too (code 'ProbeErrored'), which the worker throws
   * away (no count, no transition), so that it can still be counted in metrics and logged.
   */
  onResult?: (key: string, result: ProbeResult, state: WorkerState) => void;
  /** Called as a run starts, with how late it starts against its due time (ms). */
  onStart?: (key: string, lateMs: number) => void;
  /**
   * How late a run may start so that it starts with others (ms; 0: each at its due time). Default TIMER_SLACK_MS.
   */
  timerSlackMs?: number;
}

/**
 * The timer wakes at the end of each TIMER_SLACK_MS window that holds a due run and starts all of them: 1,000
 * probes a second over 10,000 targets wake the process 50 times a second rather than 1,000. A wake-up (the loop's
 * turn, the timer list, the kernel's switch to the thread) cost a third of the CPU of a probe on loopback: bench/probe
 * at 0.226 CPU-s per 1,000 probes without it, 0.148 with it (docs/probe.md, issue 50). 20 ms is 0.2% of a 10 s
 * period and 2% of the shortest (1 s), and far inside every bound computed from the probe (failureThreshold periods).
 */
export const TIMER_SLACK_MS = 20;

export interface AddOptions {
  /** The state already reported for this target (e.g. from its status condition). */
  initial?: WorkerState;
  /** The probe's timing, already resolved by the caller (resolveTiming(probe)); resolved here when absent. */
  timing?: ResolvedTiming;
}

interface Target {
  key: string;
  worker: ProbeWorker;
  run: ProbeRunner;
  due: number;
  /** Due, but an older generation of the same key still runs. */
  blocked: boolean;
  /**
   * Stops this target's runs: one for its life, not one a run (aborted only when the target is removed, replaced or
   * the scheduler stops, after which it never runs again).
   */
  controller: AbortController;
  /** The run in flight, while there is one. */
  done: Promise<void> | undefined;
}

interface HeapEntry {
  due: number;
  seq: number;
  target: Target;
}

function before(a: HeapEntry, b: HeapEntry): boolean {
  return a.due < b.due || (a.due === b.due && a.seq < b.seq);
}

/** A binary min-heap on (due, insertion order). */
class DueHeap {
  private readonly items: HeapEntry[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): HeapEntry | undefined {
    return this.items[0];
  }

  push(e: HeapEntry): void {
    const a = this.items;
    a.push(e);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(a[i]!, a[p]!)) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }

  pop(): HeapEntry | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && before(a[l]!, a[m]!)) m = l;
        if (r < a.length && before(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}

export class ProbeScheduler {
  private readonly clock: Clock;
  private readonly concurrency: number;
  private readonly random: () => number;
  private readonly targets = new Map<string, Target>();
  private readonly heap = new DueHeap();
  private ready: Target[] = [];
  private readyHead = 0;
  /** Runs in flight by key: the target whose run it is. */
  private readonly running = new Map<string, Target>();
  private timer: TimerHandle | undefined;
  private timerAt = Infinity;
  private seq = 0;
  private stopped = false;
  private readonly slack: number;

  constructor(private readonly options: SchedulerOptions = {}) {
    this.clock = options.clock ?? new RealClock();
    this.concurrency = Math.max(1, options.concurrency ?? 512);
    this.random = options.random ?? Math.random;
    this.slack = Math.max(0, options.timerSlackMs ?? TIMER_SLACK_MS);
  }

  get size(): number {
    return this.targets.size;
  }

  get inFlight(): number {
    return this.running.size;
  }

  has(key: string): boolean {
    return this.targets.has(key);
  }

  stateOf(key: string): WorkerState | undefined {
    return this.targets.get(key)?.worker.state;
  }

  /** Adds a target, or replaces the one with this key (its run in flight, if any, is aborted first). */
  add(key: string, probe: LivenessProbe, run: ProbeRunner, options: AddOptions = {}): void {
    if (this.stopped) throw new Error('probe scheduler: add after stop');
    this.remove(key);
    const worker = new ProbeWorker(options.timing ?? resolveTiming(probe), options.initial ?? 'unknown');
    const t: Target = {
      key,
      worker,
      run,
      due: worker.firstDueAt(this.clock.now(), this.random),
      blocked: false,
      controller: new AbortController(),
      done: undefined,
    };
    this.targets.set(key, t);
    this.schedule(t);
    this.arm();
  }

  /** Removes a target and aborts its run in flight; returns whether it was there. */
  remove(key: string): boolean {
    const t = this.targets.get(key);
    if (t === undefined) return false;
    this.targets.delete(key);
    t.controller.abort(new Error('probe target removed'));
    return true;
  }

  /** Stops all timers, aborts every run in flight and resolves once they have all ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
    const pending = [...this.running.values()];
    for (const t of pending) t.controller.abort(new Error('probe scheduler stopped'));
    await Promise.allSettled(pending.map((t) => t.done));
    this.targets.clear();
  }

  private schedule(t: Target): void {
    this.heap.push({ due: t.due, seq: this.seq++, target: t });
  }

  /** A target is live while it is the one its key maps to: removing or replacing it ends that. */
  private live(t: Target): boolean {
    return this.targets.get(t.key) === t;
  }

  /** Keeps exactly one timer, armed for the earliest due time. */
  private arm(): void {
    if (this.stopped) return;
    let head = this.heap.peek();
    while (head !== undefined && !this.live(head.target)) {
      this.heap.pop();
      head = this.heap.peek();
    }
    if (head === undefined) {
      if (this.timer !== undefined) this.clock.clearTimer(this.timer);
      this.timer = undefined;
      this.timerAt = Infinity;
      return;
    }
    // The end of the slack window that holds the earliest due run: what falls due in it starts with it.
    const at = this.slack > 0 ? Math.ceil(head.due / this.slack) * this.slack : head.due;
    if (this.timer !== undefined && this.timerAt <= at) return;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timerAt = at;
    this.timer = this.clock.setTimer(at, this.onTimer);
  }

  private readonly onTimer = (): void => {
    this.timer = undefined;
    this.timerAt = Infinity;
    if (this.stopped) return;
    const now = this.clock.now();
    for (let head = this.heap.peek(); head !== undefined && head.due <= now; head = this.heap.peek()) {
      this.heap.pop();
      if (this.live(head.target)) this.ready.push(head.target);
    }
    this.drain();
    this.arm();
  };

  private drain(): void {
    while (this.running.size < this.concurrency && this.readyHead < this.ready.length) {
      const t = this.ready[this.readyHead++]!;
      if (!this.live(t)) continue;
      if (this.running.has(t.key)) {
        t.blocked = true;
        continue;
      }
      this.start(t);
    }
    if (this.readyHead > 1024 && this.readyHead * 2 > this.ready.length) {
      this.ready = this.ready.slice(this.readyHead);
      this.readyHead = 0;
    }
  }

  private start(t: Target): void {
    const startedAt = this.clock.now();
    this.options.onStart?.(t.key, startedAt - t.due);
    this.running.set(t.key, t);
    t.done = this.runOnce(t);
  }

  private async runOnce(t: Target): Promise<void> {
    let result: ProbeResult;
    try {
      result = await t.run(t.controller.signal);
    } catch (e) {
      result = {
        result: 'error',
        message: `probe runner threw: ${messageOf(e)}`,
        durationMs: 0,
      };
    }
    t.done = undefined;
    this.finish(t, result);
  }

  private finish(t: Target, result: ProbeResult): void {
    this.running.delete(t.key);
    if (this.stopped) return;
    if (this.live(t)) {
      const now = this.clock.now();
      const transition = t.worker.observe(result, now);
      // The result first: whoever a transition wakes sees the result that made it.
      this.options.onResult?.(t.key, result, t.worker.state);
      if (transition !== undefined) this.options.onTransition?.(t.key, transition);
      t.due = t.worker.nextDueAt(t.due, now);
      this.schedule(t);
    } else {
      // A newer target for this key waited for this run to end.
      const successor = this.targets.get(t.key);
      if (successor !== undefined && successor.blocked) {
        successor.blocked = false;
        this.ready.push(successor);
      }
    }
    this.drain();
    this.arm();
  }
}
