// A keyed work queue in the manner of client-go's workqueue: a key queued twice runs once, a key never runs twice at
// once (queued again while running, it runs again after), and a failed key is retried with per-key exponential backoff.
// Two lanes: a key queued `high` runs before every `normal` one (a key queued in both runs once, as high); in a lane,
// first in, first out. The handler says what it wants next, as controller-runtime's Reconcile returns a Result:
// `{ requeue: true }` queues the key again (normal lane, behind everything queued now), `{ requeue: true, after }` adds
// it after `after` ms (addAfter, client-go's AddAfter).
// Knows nothing of Kubernetes; the handler is a reconcile function. Its delays run on the injected Clock.
import { backgroundClock, type Clock, type TimerHandle } from '@karmada-cluster-probe/schema/api';

/** What a handler wants after a run: nothing more (undefined, `{}`), the key queued again, or queued again later. */
export interface QueueResult {
  requeue?: boolean;
  /** Milliseconds to wait before queueing the key again (with `requeue`); absent or 0: at once, behind the rest. */
  after?: number;
}

export interface WorkQueueOptions {
  concurrency: number;
  handler: (key: string) => Promise<QueueResult | void>;
  /** Called when the handler throws; the key is retried after the backoff. */
  onError?: (key: string, err: unknown, attempt: number) => void;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** The clock retries and delayed adds wait on (default the real one, unref'd); tests advance a fake one. */
  clock?: Clock;
}

export type QueuePriority = 'high' | 'normal';

interface Entry {
  key: string;
  seq: number;
}

const LANES: readonly QueuePriority[] = ['high', 'normal'];

export class WorkQueue {
  /**
   * Entries in arrival order per lane. An entry is live only while it is its key's latest (same `seq`): one whose key
   * was since moved to the high lane, ran, or was queued again is skipped, so a key queued anew goes to the back.
   */
  private readonly lanes: Record<QueuePriority, { keys: Entry[]; head: number }> = {
    high: { keys: [], head: 0 },
    normal: { keys: [], head: 0 },
  };
  /** Keys waiting: the lane that holds them and their live entry's number. */
  private readonly queued = new Map<string, Entry & { lane: QueuePriority }>();
  private seq = 0;
  private readonly running = new Set<string>();
  /** Keys queued again while they ran, with the lane they go to when done. */
  private readonly dirty = new Map<string, QueuePriority>();
  private readonly failures = new Map<string, number>();
  private readonly retryTimers = new Map<string, TimerHandle>();
  /** Delayed adds (addAfter) by key, with when they fire: one per key, the earliest kept. */
  private readonly delayTimers = new Map<string, { at: number; timer: TimerHandle }>();
  private readonly idleWaiters: (() => void)[] = [];
  private stopped = false;
  private active = 0;

  private readonly clock: Clock;

  constructor(private readonly options: WorkQueueOptions) {
    this.clock = options.clock ?? backgroundClock;
  }

  get length(): number {
    return this.queued.size;
  }

  add(key: string, priority: QueuePriority = 'normal'): void {
    if (this.stopped) return;
    const timer = this.retryTimers.get(key);
    if (timer !== undefined) {
      this.clock.clearTimer(timer);
      this.retryTimers.delete(key);
    }
    if (this.running.has(key)) {
      if (this.dirty.get(key) !== 'high') this.dirty.set(key, priority);
      return;
    }
    const lane = this.queued.get(key)?.lane;
    if (lane === 'high' || lane === priority) return;
    const seq = ++this.seq;
    this.queued.set(key, { key, seq, lane: priority });
    this.lanes[priority].keys.push({ key, seq });
    this.pump();
  }

  /** Adds `key` after `delayMs` (at once when it is 0 or less); a key with an earlier delayed add keeps that one. */
  addAfter(key: string, delayMs: number, priority: QueuePriority = 'normal'): void {
    if (this.stopped) return;
    if (delayMs <= 0) {
      this.add(key, priority);
      return;
    }
    const at = this.clock.now() + delayMs;
    const pending = this.delayTimers.get(key);
    if (pending !== undefined) {
      if (pending.at <= at) return;
      this.clock.clearTimer(pending.timer);
    }
    const timer = this.clock.setTimer(at, () => {
      this.delayTimers.delete(key);
      this.add(key, priority);
    });
    this.delayTimers.set(key, { at, timer });
  }

  /** The next key to run: the high lane first, each in order, skipping entries moved to the high lane. */
  private next(): string | undefined {
    for (const name of LANES) {
      const lane = this.lanes[name];
      while (lane.head < lane.keys.length) {
        const { key, seq } = lane.keys[lane.head++]!;
        const live = this.queued.get(key);
        if (live === undefined || live.lane !== name || live.seq !== seq) continue;
        this.queued.delete(key);
        if (lane.head > 1024 && lane.head * 2 > lane.keys.length) {
          lane.keys.splice(0, lane.head);
          lane.head = 0;
        }
        return key;
      }
      lane.keys.length = 0;
      lane.head = 0;
    }
    return undefined;
  }

  /** Forgets a key's failures, pending retry and delayed add (its object is gone). */
  forget(key: string): void {
    this.failures.delete(key);
    const timer = this.retryTimers.get(key);
    if (timer !== undefined) this.clock.clearTimer(timer);
    this.retryTimers.delete(key);
    const delayed = this.delayTimers.get(key);
    if (delayed !== undefined) this.clock.clearTimer(delayed.timer);
    this.delayTimers.delete(key);
  }

  /** Resolves when nothing is queued or running (pending retries aside). */
  idle(): Promise<void> {
    if (this.active === 0 && this.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.retryTimers.values()) this.clock.clearTimer(t);
    this.retryTimers.clear();
    for (const d of this.delayTimers.values()) this.clock.clearTimer(d.timer);
    this.delayTimers.clear();
    for (const name of LANES) this.lanes[name] = { keys: [], head: 0 };
    this.queued.clear();
    await this.idle();
  }

  private pump(): void {
    while (!this.stopped && this.active < this.options.concurrency && this.queued.size > 0) {
      const key = this.next();
      if (key === undefined) break;
      this.active++;
      this.running.add(key);
      void this.runOne(key);
    }
    if (this.active === 0 && this.length === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  private async runOne(key: string): Promise<void> {
    let next: QueueResult | void = undefined;
    try {
      next = await this.options.handler(key);
      this.failures.delete(key);
    } catch (err) {
      const attempt = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, attempt);
      this.options.onError?.(key, err, attempt);
      if (!this.stopped && !this.dirty.has(key)) {
        const base = this.options.baseDelayMs ?? 250;
        const max = this.options.maxDelayMs ?? 30_000;
        const delay = Math.min(max, base * 2 ** Math.min(attempt - 1, 16));
        const timer = this.clock.setTimer(this.clock.now() + delay, () => {
          this.retryTimers.delete(key);
          this.add(key);
        });
        this.retryTimers.set(key, timer);
      }
    } finally {
      this.running.delete(key);
      this.active--;
      const again = this.dirty.get(key);
      if (again !== undefined) {
        this.dirty.delete(key);
        this.add(key, again);
      }
      // What the handler asked for: again now (behind every key queued), or later.
      if (next?.requeue === true) this.addAfter(key, next.after ?? 0);
      this.pump();
    }
  }
}
