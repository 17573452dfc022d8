// The client-side rate limit of the Kubernetes client, as client-go's token bucket (qps on average, burst at once), with
// one addition: waiters are served by priority, so that a write carrying a verdict is never queued behind reads or
// Events in a burst. Knows nothing of Kubernetes. Time is the injected Clock's: a test advances it by hand.
import { backgroundClock, type Clock, type TimerHandle } from '@karmada-cluster-probe/schema/api';

/**
 * How urgent a request is. The rate limiter serves a waiting `high` request before any waiting `normal` one, and a
 * `normal` one before any `low` one: a write that carries a verdict (the taint that stops the scheduler, the condition,
 * the Lease) is never queued behind reads or Events, and the reconciler's own work never behind a secondary
 * controller's on the same client (the ClusterProfile producer's, `low`). Within a priority, first come first served.
 */
export type RequestPriority = 'high' | 'normal' | 'low';

const PRIORITIES: readonly RequestPriority[] = ['high', 'normal', 'low'];

/** A token bucket: `qps` requests a second on average, `burst` at once; waiters served by priority, then in order. */
export class RateLimiter {
  private tokens: number;
  private last: number;
  private readonly waiting: Record<RequestPriority, (() => void)[]> = { high: [], normal: [], low: [] };
  private timer: TimerHandle | undefined;

  /** `clock`: what the refill is measured on and the waiters' timer runs on (default the real one, unref'd). */
  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly clock: Clock = backgroundClock,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  /** Requests waiting for a token. */
  get pending(): number {
    return this.waiting.high.length + this.waiting.normal.length + this.waiting.low.length;
  }

  take(priority: RequestPriority = 'normal'): Promise<void> {
    if (this.qps <= 0) return Promise.resolve();
    this.refill();
    // A token now only when nobody of this priority or a higher one waits.
    const ahead = PRIORITIES.slice(0, PRIORITIES.indexOf(priority) + 1).some((p) => this.waiting[p].length > 0);
    if (!ahead) {
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return Promise.resolve();
      }
    }
    return new Promise((resolve) => {
      this.waiting[priority].push(resolve);
      this.arm();
    });
  }

  private refill(): void {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
  }

  private next(): (() => void) | undefined {
    return this.waiting.high.shift() ?? this.waiting.normal.shift() ?? this.waiting.low.shift();
  }

  private arm(): void {
    if (this.timer !== undefined) return;
    this.timer = this.clock.setTimer(this.clock.now() + Math.max(1, Math.ceil(1000 / this.qps)), this.release);
  }

  /** The timer's callback: as many waiters as there are tokens, by priority; armed again while any wait. */
  private readonly release = (): void => {
    this.timer = undefined;
    this.refill();
    while (this.pending > 0 && this.tokens >= 1) {
      this.tokens -= 1;
      this.next()!();
    }
    if (this.pending > 0) this.arm();
  };
}
