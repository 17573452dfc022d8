// A clock that tests advance by hand, for everything that takes the Clock of packages/schema/src/api/clock.ts: timers fire in
// time order with promise callbacks flushed between them, so no test sleeps. Test code, not part of the package.
import type { Clock, TimerHandle } from '../../packages/probe/src/index.js';

interface FakeTimer {
  id: number;
  at: number;
  fn: () => void;
}

/** Lets pending promise callbacks (a probe that resolved) run before time moves on. */
export function flushPromises(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A clock that moves only when a test says so; timers fire in time order, promise callbacks flushed between them. */
export class FakeClock implements Clock {
  private current: number;
  private timers: FakeTimer[] = [];
  private nextId = 1;

  /** `wallStartMs`: the epoch milliseconds at `startMs`; the wall moves with the clock, never by itself. */
  constructor(
    startMs = 0,
    private readonly wallStartMs = Date.UTC(2026, 0, 1),
  ) {
    this.current = startMs;
    this.start = startMs;
  }

  private readonly start: number;

  now(): number {
    return this.current;
  }

  wallNow(): number {
    return this.wallStartMs + (this.current - this.start);
  }

  setTimer(atMs: number, fn: () => void): TimerHandle {
    const id = this.nextId++;
    this.timers.push({ id, at: atMs, fn });
    return { id };
  }

  clearTimer(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t.id !== handle.id);
  }

  /** Number of timers armed: the scheduler must keep this at one, whatever the number of targets. */
  pendingTimers(): number {
    return this.timers.length;
  }

  /** Advances time by `ms`, firing each due timer at its own time and letting promises settle after each. */
  async advance(ms: number): Promise<void> {
    const end = this.current + ms;
    await flushPromises();
    for (;;) {
      let next: FakeTimer | undefined;
      for (const t of this.timers) if (t.at <= end && (next === undefined || t.at < next.at)) next = t;
      if (next === undefined) break;
      const due = next;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.fn();
      await flushPromises();
    }
    this.current = end;
    await flushPromises();
  }
}
