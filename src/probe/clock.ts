// Injected time for the worker and scheduler: the real clock for production; tests inject a fake one they advance by
// hand (test/unit/probe/fake-clock.ts), so no test sleeps. Depends on nothing but Node's timers.

export interface TimerHandle {
  readonly id: number;
}

export interface Clock {
  /** Milliseconds on a monotonic scale (not wall time). */
  now(): number;
  /** Calls fn once, at or after `atMs` on this clock's scale. */
  setTimer(atMs: number, fn: () => void): TimerHandle;
  clearTimer(handle: TimerHandle): void;
}

/** The process's monotonic clock and Node's timers. */
export class RealClock implements Clock {
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private nextId = 1;

  now(): number {
    return performance.now();
  }

  setTimer(atMs: number, fn: () => void): TimerHandle {
    const id = this.nextId++;
    const t = setTimeout(
      () => {
        this.timers.delete(id);
        fn();
      },
      Math.max(0, atMs - this.now()),
    );
    this.timers.set(id, t);
    return { id };
  }

  clearTimer(handle: TimerHandle): void {
    const t = this.timers.get(handle.id);
    if (t !== undefined) {
      clearTimeout(t);
      this.timers.delete(handle.id);
    }
  }
}
