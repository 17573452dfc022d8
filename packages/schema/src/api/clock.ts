// Injected time: everything that waits or reads the time (the probe engine's worker and scheduler; the Kubernetes
// client's rate limiter, work queue, informers, leader election and member Leases; the Cluster writer's timestamps)
// runs on a Clock, the real one in production; tests inject a fake one they advance by hand
// (test/support/fake-clock.ts), so no test races the machine; docs/testing.md lists what still reads the real one. One home for both (neither package may import the other's); portable: performance.now(),
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
  /**
   * Milliseconds since the Unix epoch, for a timestamp another process reads (a Lease's renewTime, a condition's
   * lastTransitionTime, an Event's time). Never for a duration: that is `now()`, which does not jump with the wall.
   */
  wallNow(): number;
}

export interface RealClockOptions {
  /**
   * Timers that do not keep the process alive (Node's `unref`): for background work such as a rate limiter's refill
   * or a retry, whose owner is kept alive by something else (a server, a watch). Default false.
   */
  unref?: boolean;
}

/** The monotonic clock (`performance.now()`) and the platform's timers. */
export class RealClock implements Clock {
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();
  private nextId = 1;
  private readonly unref: boolean;

  constructor(options: RealClockOptions = {}) {
    this.unref = options.unref ?? false;
  }

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
    if (this.unref) (t as { unref?: () => void }).unref?.();
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

  wallNow(): number {
    return Date.now();
  }
}

/** The real clock with unref'd timers, shared by the background work that defaults to it (see RealClockOptions). */
export const backgroundClock: Clock = new RealClock({ unref: true });
