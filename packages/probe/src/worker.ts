// One target's threshold counting, as the kubelet's prober worker: consecutive results must reach successThreshold or
// failureThreshold before the state changes, and only changes are reported; an errored result is thrown away. Owns no
// timer (the scheduler does).
import { isErrored } from './handler.js';
import type { ProbeOutcome, ProbeResult, ResolvedTiming } from './types.js';

export type WorkerState = 'unknown' | ProbeOutcome;

export interface Transition {
  from: WorkerState;
  to: ProbeOutcome;
  /** The result that completed the run of results. */
  result: ProbeResult;
  /** How many results in a row led here (1 for an 'error'). */
  consecutive: number;
  /** Clock time of the transition, in ms. */
  at: number;
}

export class ProbeWorker {
  private current: WorkerState;
  private lastOutcome: ProbeOutcome | undefined;
  private run = 0;

  /** `initial`: the state last reported (e.g. from a status condition), so a restart does not report it again. */
  constructor(
    readonly timing: ResolvedTiming,
    initial: WorkerState = 'unknown',
  ) {
    this.current = initial;
  }

  get state(): WorkerState {
    return this.current;
  }

  /** Results in a row with the same outcome so far. */
  get consecutive(): number {
    return this.run;
  }

  /**
   * Counts one result; returns the transition it completes, if any. A configuration error is reported at once (it
   * needs no damping, and taints nothing), and it restarts both counts. An errored result (code 'ProbeErrored', after
   * its retries) is thrown away as the kubelet's worker does (worker.go: `if err != nil { return true }`, before
   * lastResult and resultRun): no count, no transition, the run of results neither broken nor extended.
   */
  observe(result: ProbeResult, at: number): Transition | undefined {
    if (isErrored(result)) return undefined;
    const outcome = result.result;
    if (this.lastOutcome === outcome) this.run++;
    else {
      this.lastOutcome = outcome;
      this.run = 1;
    }
    const threshold =
      outcome === 'success' ? this.timing.successThreshold : outcome === 'failure' ? this.timing.failureThreshold : 1;
    if (this.run < threshold || this.current === outcome) return undefined;
    const from = this.current;
    this.current = outcome;
    return { from, to: outcome, result, consecutive: this.run, at };
  }

  /**
   * When the first run is due: after the initial delay, plus a random share of one period so that thousands of
   * targets added together (a restart) spread over the period instead of firing at once. `random` is in [0, 1).
   */
  firstDueAt(addedAt: number, random: () => number): number {
    const periodMs = this.timing.periodSeconds * 1000;
    const r = Math.min(Math.max(random(), 0), 0.999999);
    return addedAt + this.timing.initialDelaySeconds * 1000 + Math.floor(r * periodMs);
  }

  /**
   * When the next run is due, one period after the last was due; if the last run outlived its period, at once when it
   * ended (as the kubelet's ticker hands over the one tick it held), never while it still runs.
   */
  nextDueAt(lastDue: number, finishedAt: number): number {
    const next = lastDue + this.timing.periodSeconds * 1000;
    return next >= finishedAt ? next : finishedAt;
  }
}
