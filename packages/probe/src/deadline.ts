// One timer bounding a whole probe (connect, headers, body, every redirect and page), merged with the caller's stop
// signal, so handlers can tell "ran out of time" from "was stopped". Depends on nothing.

export class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private timedOutFlag = false;

  constructor(
    readonly timeoutMs: number,
    private readonly outer?: AbortSignal,
  ) {
    this.timer = setTimeout(() => {
      this.timedOutFlag = true;
      this.controller.abort(new Error('probe timeout'));
    }, timeoutMs);
    if (outer !== undefined) {
      if (outer.aborted) this.controller.abort(new Error('probe stopped'));
      else outer.addEventListener('abort', this.onOuterAbort, { once: true });
    }
  }

  private readonly onOuterAbort = (): void => {
    this.controller.abort(new Error('probe stopped'));
  };

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get timedOut(): boolean {
    return this.timedOutFlag;
  }

  /** Milliseconds left, at least 1. */
  remainingMs(startedAt: number): number {
    return Math.max(1, this.timeoutMs - (performance.now() - startedAt));
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }
}

/** Go's duration formatting for whole and fractional seconds (`1s`, `1.5s`), as the kubelet prints timeouts. */
export function goDuration(ms: number): string {
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  if (ms >= 1000) return `${ms / 1000}s`;
  return `${ms}ms`;
}
