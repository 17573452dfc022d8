// Injected time: the probe engine's worker and scheduler and the Kubernetes client's leader election run on a Clock,
// the real one in production; tests inject a fake one they advance by hand (test/unit/probe/fake-clock.ts), so no
// test races the machine. One home for both (neither package may import the other's); portable: performance.now(),
// setTimeout exist in Node and in browsers alike; its types need neither Node's nor the DOM's.

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

/** The monotonic clock (`performance.now()`) and the platform's timers. */
export class RealClock implements Clock {
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();
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
