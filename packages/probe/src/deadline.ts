// One timer bounding a whole probe (connect, headers, body, every redirect and page), merged with the caller's stop
// signal, so handlers can tell "ran out of time" from "was stopped". Depends on nothing.

/** What a probe's GET listens to for its end: an AbortSignal satisfies it, and so does a Deadline (no EventTarget). */
export interface StopSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * The deadline is its own stop signal: one timer and a short list of listeners (a probe's GETs run one after the
 * other, so there is one at a time), where an AbortController would add an EventTarget, an AbortSignal and their
 * listener records to every probe run. It listens to the caller's signal (the scheduler's, one per target) as an
 * object with handleEvent, so no closure is made either.
 */
export class Deadline implements StopSignal {
  aborted = false;
  reason: unknown = undefined;
  private readonly timer: NodeJS.Timeout;
  private timedOutFlag = false;
  private listeners: (() => void)[] | undefined;
  private disposed = false;

  constructor(
    readonly timeoutMs: number,
    private readonly outer?: AbortSignal,
  ) {
    this.timer = setTimeout(expire, timeoutMs, this);
    if (outer !== undefined) {
      if (outer.aborted) this.abort(new Error('probe stopped'));
      else outer.addEventListener('abort', this, { once: true });
    }
  }

  /** The caller's signal aborted. */
  handleEvent(): void {
    this.abort(new Error('probe stopped'));
  }

  /** Ran out of time (called once the timer fired and what had arrived by then was read). */
  expire(): void {
    if (this.disposed) return;
    this.timedOutFlag = true;
    this.abort(new Error('probe timeout'));
  }

  get signal(): StopSignal {
    return this;
  }

  get timedOut(): boolean {
    return this.timedOutFlag;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const l = this.listeners;
    const i = l === undefined ? -1 : l.indexOf(listener);
    if (i >= 0) l!.splice(i, 1);
  }

  /** Milliseconds left, at least 1. */
  remainingMs(startedAt: number): number {
    return Math.max(1, this.timeoutMs - (performance.now() - startedAt));
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this);
    this.listeners = undefined;
  }

  private abort(reason: Error): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const l = this.listeners;
    this.listeners = undefined;
    if (l !== undefined) for (const f of l) f();
  }
}

function expire(d: Deadline): void {
  afterPendingIo(expireNow, d);
}

function expireNow(d: Deadline): void {
  d.expire();
}

/**
 * Calls `f(arg)` once the I/O that is ready now has been handled. A probe's timer fires in the event loop's timers
 * phase, which comes before the poll phase that reads sockets: when this process was busy past a deadline (a long
 * task, a starved machine), the member's answer may be waiting, unread, in a socket, and reading the timer first would
 * call our own stall the member's timeout: a false failure from the prober. setImmediate runs after the poll phase of
 * the same loop turn, so what had arrived is read first; with no stall it costs one turn of the loop.
 */
export function afterPendingIo<T>(f: (arg: T) => void, arg: T): void {
  setImmediate(f, arg);
}

/** Go's duration formatting for whole and fractional seconds (`1s`, `1.5s`), as the kubelet prints timeouts. */
export function goDuration(ms: number): string {
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  if (ms >= 1000) return `${ms / 1000}s`;
  return `${ms}ms`;
}
