// A keyed work queue in the manner of client-go's workqueue: a key queued twice runs once, a key never runs twice at
// once (queued again while running, it runs again after), and a failed key is retried with per-key exponential backoff.
// Knows nothing of Kubernetes; the handler is a reconcile function.

export interface WorkQueueOptions {
  concurrency: number;
  handler: (key: string) => Promise<void>;
  /** Called when the handler throws; the key is retried after the backoff. */
  onError?: (key: string, err: unknown, attempt: number) => void;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export class WorkQueue {
  private readonly queue: string[] = [];
  private head = 0;
  private readonly queued = new Set<string>();
  private readonly running = new Set<string>();
  /** Keys queued again while they ran. */
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly retryTimers = new Map<string, NodeJS.Timeout>();
  private readonly idleWaiters: (() => void)[] = [];
  private stopped = false;
  private active = 0;

  constructor(private readonly options: WorkQueueOptions) {}

  get length(): number {
    return this.queue.length - this.head;
  }

  add(key: string): void {
    if (this.stopped) return;
    const timer = this.retryTimers.get(key);
    if (timer !== undefined) {
      clearTimeout(timer);
      this.retryTimers.delete(key);
    }
    if (this.running.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.queue.push(key);
    this.pump();
  }

  /** Forgets a key's failures and pending retry (its object is gone). */
  forget(key: string): void {
    this.failures.delete(key);
    const timer = this.retryTimers.get(key);
    if (timer !== undefined) clearTimeout(timer);
    this.retryTimers.delete(key);
  }

  /** Resolves when nothing is queued or running (pending retries aside). */
  idle(): Promise<void> {
    if (this.active === 0 && this.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.retryTimers.values()) clearTimeout(t);
    this.retryTimers.clear();
    this.queue.length = 0;
    this.head = 0;
    this.queued.clear();
    await this.idle();
  }

  private pump(): void {
    while (!this.stopped && this.active < this.options.concurrency && this.head < this.queue.length) {
      const key = this.queue[this.head++]!;
      this.queued.delete(key);
      this.active++;
      this.running.add(key);
      void this.runOne(key);
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    if (this.active === 0 && this.length === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  private async runOne(key: string): Promise<void> {
    try {
      await this.options.handler(key);
      this.failures.delete(key);
    } catch (err) {
      const attempt = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, attempt);
      this.options.onError?.(key, err, attempt);
      if (!this.stopped && !this.dirty.has(key)) {
        const base = this.options.baseDelayMs ?? 250;
        const max = this.options.maxDelayMs ?? 30_000;
        const delay = Math.min(max, base * 2 ** Math.min(attempt - 1, 16));
        const timer = setTimeout(() => {
          this.retryTimers.delete(key);
          this.add(key);
        }, delay);
        timer.unref();
        this.retryTimers.set(key, timer);
      }
    } finally {
      this.running.delete(key);
      this.active--;
      if (this.dirty.delete(key)) this.add(key);
      this.pump();
    }
  }
}
