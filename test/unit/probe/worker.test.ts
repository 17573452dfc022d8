// Threshold counting and run timing of one worker, as the kubelet's prober worker: pure logic, no clock, no sockets.
import { expect } from 'chai';
import { TIMING_DEFAULTS } from '../../../packages/schema/src/api/index.js';
import { ProbeWorker, resolveTiming, type ProbeOutcome, type ProbeResult } from '../../../packages/probe/src/index.js';

/** An outcome, or 'errored': the kubelet's errored probe (result 'error' with code ProbeErrored, as errored() makes). */
type Fed = ProbeOutcome | 'errored';

const r = (result: Fed): ProbeResult =>
  result === 'errored'
    ? { result: 'error', code: 'ProbeErrored', message: 'unexpected EOF', attempts: 3, durationMs: 1 }
    : { result, message: result, durationMs: 1 };

function feed(worker: ProbeWorker, outcomes: Fed[]): (string | undefined)[] {
  return outcomes.map((o, i) => worker.observe(r(o), i)?.to);
}

describe('probe worker thresholds', () => {
  it("applies the one table's defaults (the kubelet's: timeout 1, period 10, success 1, failure 3), no initial delay", () => {
    expect(resolveTiming({})).to.deep.equal({
      initialDelaySeconds: 0,
      timeoutSeconds: TIMING_DEFAULTS.timeoutSeconds,
      periodSeconds: TIMING_DEFAULTS.periodSeconds,
      successThreshold: TIMING_DEFAULTS.successThreshold,
      failureThreshold: TIMING_DEFAULTS.failureThreshold,
    });
  });

  it('reports failure only after failureThreshold failures in a row', () => {
    const w = new ProbeWorker(resolveTiming({ failureThreshold: 3 }), 'success');
    expect(feed(w, ['failure', 'failure'])).to.deep.equal([undefined, undefined]);
    expect(w.state).to.equal('success');
    expect(feed(w, ['failure'])).to.deep.equal(['failure']);
    expect(w.state).to.equal('failure');
  });

  it('restarts the failure count when a success comes between', () => {
    const w = new ProbeWorker(resolveTiming({ failureThreshold: 2 }), 'success');
    expect(feed(w, ['failure', 'success', 'failure', 'success', 'failure', 'failure'])).to.deep.equal([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      'failure',
    ]);
  });

  it('damps recovery with a successThreshold above 1', () => {
    const w = new ProbeWorker(resolveTiming({ successThreshold: 3 }), 'failure');
    expect(feed(w, ['success', 'success', 'failure', 'success', 'success', 'success'])).to.deep.equal([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      'success',
    ]);
  });

  it('reports a transition once, not on every result in the same state', () => {
    const w = new ProbeWorker(resolveTiming({ failureThreshold: 1 }));
    const seen = feed(w, ['failure', 'failure', 'failure', 'success', 'success']);
    expect(seen).to.deep.equal(['failure', undefined, undefined, 'success', undefined]);
  });

  it('leaves unknown only when a threshold is reached', () => {
    const w = new ProbeWorker(resolveTiming({}));
    expect(w.state).to.equal('unknown');
    const t = w.observe(r('failure'), 5);
    expect(t).to.equal(undefined);
    w.observe(r('failure'), 6);
    const third = w.observe(r('failure'), 7);
    expect(third).to.include({ from: 'unknown', to: 'failure', consecutive: 3, at: 7 });
  });

  it('reports a configuration error at once and restarts the counts', () => {
    const w = new ProbeWorker(resolveTiming({ failureThreshold: 2 }), 'success');
    expect(feed(w, ['failure', 'error'])).to.deep.equal([undefined, 'error']);
    expect(feed(w, ['error', 'failure', 'failure'])).to.deep.equal([undefined, undefined, 'failure']);
  });

  it('discards an errored result in a run of failures: it neither breaks the run nor extends it (worker.go)', () => {
    const w = new ProbeWorker(resolveTiming({ failureThreshold: 3 }), 'success');
    expect(feed(w, ['failure', 'failure', 'errored'])).to.deep.equal([undefined, undefined, undefined]);
    // Not broken: the next failure is the third in the run. Not extended: the errored one was not a third failure.
    expect(w.consecutive).to.equal(2);
    expect(w.state).to.equal('success');
    expect(feed(w, ['errored', 'errored', 'failure'])).to.deep.equal([undefined, undefined, 'failure']);
    expect(w.consecutive).to.equal(3);
  });

  it('discards an errored result in a run of successes too, so recovery damping counts only real answers', () => {
    const w = new ProbeWorker(resolveTiming({ successThreshold: 2 }), 'failure');
    expect(feed(w, ['success', 'errored', 'success'])).to.deep.equal([undefined, undefined, 'success']);
    const x = new ProbeWorker(resolveTiming({ successThreshold: 2 }), 'failure');
    expect(feed(x, ['success', 'errored', 'errored', 'errored'])).to.deep.equal([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(x.state).to.equal('failure');
  });

  it('never leaves unknown, nor reports anything, on errored results alone', () => {
    const w = new ProbeWorker(resolveTiming({ failureThreshold: 1, successThreshold: 1 }));
    expect(feed(w, ['errored', 'errored', 'errored', 'errored'])).to.deep.equal([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(w.state).to.equal('unknown');
    expect(w.consecutive).to.equal(0);
  });

  it('still reports a configuration error at once after errored results, and counts afresh after it', () => {
    const w = new ProbeWorker(resolveTiming({ failureThreshold: 2 }), 'success');
    expect(feed(w, ['failure', 'errored', 'error'])).to.deep.equal([undefined, undefined, 'error']);
    expect(feed(w, ['failure', 'errored', 'failure'])).to.deep.equal([undefined, undefined, 'failure']);
  });

  it('puts the first run after the initial delay, jittered within one period', () => {
    const w = new ProbeWorker(resolveTiming({ initialDelaySeconds: 5, periodSeconds: 10 }));
    expect(w.firstDueAt(1000, () => 0)).to.equal(6000);
    const latest = w.firstDueAt(1000, () => 0.9999999);
    expect(latest).to.be.within(15_000, 15_999);
  });

  it('keeps the period from the last due time, and never schedules inside a run that outlived it', () => {
    const w = new ProbeWorker(resolveTiming({ periodSeconds: 10 }));
    expect(w.nextDueAt(0, 300)).to.equal(10_000);
    expect(w.nextDueAt(0, 14_000)).to.equal(14_000);
  });
});
