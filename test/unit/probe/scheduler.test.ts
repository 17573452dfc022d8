// The scheduler on a fake clock: one timer for any number of targets, jittered first runs, periods, no overlapping runs
// of a target, bounded concurrency, transitions and a clean stop. No sleeps: time moves only when the test says.
import { expect } from 'chai';
import { FakeClock } from '../../support/fake-clock.js';
import {
  ProbeScheduler,
  TIMER_SLACK_MS,
  type ProbeOutcome,
  type ProbeResult,
  type ProbeRunner,
  type Transition,
} from '../../../packages/probe/src/index.js';

/** A deterministic random in [0, 1) (an LCG), so jitter tests are repeatable. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ok = (result: ProbeOutcome = 'success'): ProbeResult => ({ result, message: result, durationMs: 0 });

/** A runner that takes `ms` of fake time (or until aborted) and records its runs. */
function timedRunner(
  clock: FakeClock,
  ms: number,
  log: { starts: number[]; active: number; maxActive: number },
): ProbeRunner {
  return (signal) =>
    new Promise<ProbeResult>((resolve) => {
      log.starts.push(clock.now());
      log.active++;
      log.maxActive = Math.max(log.maxActive, log.active);
      // The signal is the target's for its whole life, not this run's: a runner removes what it added when it ends.
      const onAbort = (): void => {
        clock.clearTimer(h);
        end();
      };
      const end = (): void => {
        signal.removeEventListener('abort', onAbort);
        log.active--;
        resolve(ok());
      };
      const h = clock.setTimer(clock.now() + ms, end);
      signal.addEventListener('abort', onAbort);
    });
}

describe('probe scheduler', () => {
  it('runs thousands of targets from a single timer, each first run within one period (and the slack)', async () => {
    const clock = new FakeClock();
    const firstStart = new Map<string, number>();
    const s = new ProbeScheduler({ clock, random: seeded(1), concurrency: 10_000 });
    for (let i = 0; i < 2000; i++) {
      const key = `c${i}`;
      s.add(key, { httpGet: { port: 80 }, periodSeconds: 10 }, () => {
        if (!firstStart.has(key)) firstStart.set(key, clock.now());
        return Promise.resolve(ok());
      });
    }
    expect(clock.pendingTimers()).to.equal(1);
    await clock.advance(10_000);
    expect(clock.pendingTimers()).to.equal(1);
    expect(firstStart.size).to.equal(2000);
    for (const t of firstStart.values()) expect(t).to.be.within(0, 9_999 + TIMER_SLACK_MS);
    await s.stop();
    expect(clock.pendingTimers()).to.equal(0);
  });

  it(`starts what falls due in one ${TIMER_SLACK_MS} ms window together, never early, at most the slack late`, async () => {
    const wakes = async (timerSlackMs: number | undefined): Promise<{ late: number[]; starts: Set<number> }> => {
      const clock = new FakeClock();
      const late: number[] = [];
      const starts = new Set<number>();
      const s = new ProbeScheduler({
        clock,
        random: seeded(3),
        concurrency: 10_000,
        onStart: (_k, l) => late.push(l),
        ...(timerSlackMs === undefined ? {} : { timerSlackMs }),
      });
      for (let i = 0; i < 2000; i++)
        s.add(`c${i}`, { httpGet: { port: 80 }, periodSeconds: 10 }, () => {
          starts.add(clock.now());
          return Promise.resolve(ok());
        });
      await clock.advance(30_000);
      await s.stop();
      return { late, starts };
    };
    const slack = await wakes(undefined);
    expect(slack.late.length).to.be.at.least(6000);
    for (const l of slack.late) expect(l).to.be.within(0, TIMER_SLACK_MS);
    for (const t of slack.starts) expect(t % TIMER_SLACK_MS).to.equal(0);
    // 2,000 runs a period in at most period / slack wake-ups (three periods here).
    expect(slack.starts.size).to.be.at.most((3 * 10_000) / TIMER_SLACK_MS + 1);
    const exact = await wakes(0);
    for (const l of exact.late) expect(l).to.equal(0);
    expect(exact.starts.size).to.be.above(5000);
  });

  it('spreads first runs over the period (jitter), not all at once', async () => {
    const clock = new FakeClock();
    const buckets = new Array<number>(10).fill(0);
    const s = new ProbeScheduler({ clock, random: seeded(7), concurrency: 10_000 });
    for (let i = 0; i < 1000; i++)
      s.add(`c${i}`, { tcpSocket: { port: 1 }, periodSeconds: 10 }, () => {
        if (clock.now() < 10_000) buckets[Math.floor(clock.now() / 1000)]!++;
        return Promise.resolve(ok());
      });
    await clock.advance(9_999);
    for (const b of buckets) expect(b).to.be.within(60, 140);
    await s.stop();
  });

  it('waits for the initial delay before the jittered first run', async () => {
    const clock = new FakeClock();
    const starts: number[] = [];
    const s = new ProbeScheduler({ clock, random: () => 0.5 });
    s.add('a', { httpGet: { port: 80 }, initialDelaySeconds: 30, periodSeconds: 10 }, () => {
      starts.push(clock.now());
      return Promise.resolve(ok());
    });
    await clock.advance(34_999);
    expect(starts).to.deep.equal([]);
    await clock.advance(25_001);
    expect(starts).to.deep.equal([35_000, 45_000, 55_000]);
    await s.stop();
  });

  it('never runs a target twice at once when a probe outlives its period', async () => {
    const clock = new FakeClock();
    const log = { starts: [] as number[], active: 0, maxActive: 0 };
    const s = new ProbeScheduler({ clock, random: () => 0 });
    s.add('slow', { httpGet: { port: 80 }, periodSeconds: 10 }, timedRunner(clock, 25_000, log));
    await clock.advance(100_000);
    expect(log.maxActive).to.equal(1);
    // Each next run starts as the previous ends (the one held tick), never inside it.
    expect(log.starts).to.deep.equal([0, 25_000, 50_000, 75_000, 100_000]);
    await s.stop();
    expect(log.active).to.equal(0);
  });

  it('keeps the period when runs are shorter than it', async () => {
    const clock = new FakeClock();
    const log = { starts: [] as number[], active: 0, maxActive: 0 };
    const s = new ProbeScheduler({ clock, random: () => 0 });
    s.add('fast', { httpGet: { port: 80 }, periodSeconds: 10 }, timedRunner(clock, 3_000, log));
    await clock.advance(30_000);
    expect(log.starts).to.deep.equal([0, 10_000, 20_000, 30_000]);
    await s.stop();
  });

  it('bounds probes in flight and starts waiting ones as slots free, reporting their lateness', async () => {
    const clock = new FakeClock();
    const log = { starts: [] as number[], active: 0, maxActive: 0 };
    const late: number[] = [];
    const s = new ProbeScheduler({ clock, random: () => 0, concurrency: 3, onStart: (_k, l) => late.push(l) });
    for (let i = 0; i < 7; i++)
      s.add(`c${i}`, { httpGet: { port: 80 }, periodSeconds: 60 }, timedRunner(clock, 1_000, log));
    await clock.advance(5_000);
    expect(log.maxActive).to.equal(3);
    expect(log.starts).to.deep.equal([0, 0, 0, 1_000, 1_000, 1_000, 2_000]);
    expect(late).to.deep.equal([0, 0, 0, 1_000, 1_000, 1_000, 2_000]);
    await s.stop();
  });

  it('reports transitions only, after the thresholds', async () => {
    const clock = new FakeClock();
    const outcomes: ProbeOutcome[] = ['success', 'failure', 'failure', 'failure', 'failure', 'success', 'success'];
    let i = 0;
    const seen: Transition[] = [];
    const s = new ProbeScheduler({ clock, random: () => 0, onTransition: (_k, t) => seen.push(t) });
    s.add('a', { httpGet: { port: 80 }, periodSeconds: 10, failureThreshold: 3 }, () =>
      Promise.resolve(ok(outcomes[i++] ?? 'success')),
    );
    await clock.advance(70_000);
    expect(seen.map((t) => `${t.from}->${t.to}@${t.at}`)).to.deep.equal([
      'unknown->success@0',
      'success->failure@30000',
      'failure->success@50000',
    ]);
    expect(s.stateOf('a')).to.equal('success');
    await s.stop();
  });

  it('hands an errored run to onResult but counts it nowhere: a run of failures goes on across it', async () => {
    const clock = new FakeClock();
    const erroredRun: ProbeResult = {
      result: 'error',
      code: 'ProbeErrored',
      message: 'Get "http://127.0.0.1:8080/healthz": unexpected EOF',
      attempts: 3,
      durationMs: 0,
    };
    const runs: (ProbeResult | 'failure')[] = ['failure', 'failure', erroredRun, erroredRun, 'failure', erroredRun];
    let i = 0;
    const seen: Transition[] = [];
    const results: string[] = [];
    const s = new ProbeScheduler({
      clock,
      random: () => 0,
      onTransition: (_k, t) => seen.push(t),
      onResult: (_k, r, state) => results.push(`${r.code ?? r.result}:${state}`),
    });
    s.add('a', { httpGet: { port: 80 }, periodSeconds: 10, failureThreshold: 3 }, () => {
      const next = runs[i++] ?? erroredRun;
      return Promise.resolve(next === 'failure' ? ok('failure') : next);
    });
    await clock.advance(60_000);
    // Two failures, two errored runs (neither a third failure nor a break), then the third failure turns the state.
    expect(seen.map((t) => `${t.from}->${t.to}@${t.at}:${t.consecutive}`)).to.deep.equal(['unknown->failure@40000:3']);
    expect(results).to.deep.equal([
      'failure:unknown',
      'failure:unknown',
      'ProbeErrored:unknown',
      'ProbeErrored:unknown',
      'failure:failure',
      'ProbeErrored:failure',
      'ProbeErrored:failure',
    ]);
    await s.stop();
  });

  it('keeps its period when every run errors, and never transitions', async () => {
    const clock = new FakeClock();
    const starts: number[] = [];
    const seen: Transition[] = [];
    const s = new ProbeScheduler({ clock, random: () => 0, onTransition: (_k, t) => seen.push(t) });
    s.add('a', { httpGet: { port: 80 }, periodSeconds: 10, failureThreshold: 1, successThreshold: 1 }, () => {
      starts.push(clock.now());
      return Promise.resolve({ result: 'error', code: 'ProbeErrored', message: 'x', attempts: 3, durationMs: 0 });
    });
    await clock.advance(30_000);
    expect(starts).to.deep.equal([0, 10_000, 20_000, 30_000]);
    expect(seen).to.deep.equal([]);
    expect(s.stateOf('a')).to.equal('unknown');
    await s.stop();
  });

  it('still reports a configuration error at once', async () => {
    const clock = new FakeClock();
    const seen: string[] = [];
    const s = new ProbeScheduler({ clock, random: () => 0, onTransition: (_k, t) => seen.push(`${t.to}@${t.at}`) });
    s.add('a', { httpGet: { port: 80 }, periodSeconds: 10, failureThreshold: 3 }, () =>
      Promise.resolve({ result: 'error', message: 'livenessProbe.httpGet.port: no such port "web"', durationMs: 0 }),
    );
    await clock.advance(10_000);
    expect(seen).to.deep.equal(['error@0']);
    await s.stop();
  });

  it('turns a runner that throws into an error result instead of crashing', async () => {
    const clock = new FakeClock();
    const seen: string[] = [];
    const s = new ProbeScheduler({ clock, random: () => 0, onTransition: (_k, t) => seen.push(t.result.message) });
    s.add('a', { httpGet: { port: 80 } }, () => Promise.reject(new Error('boom')));
    await clock.advance(1);
    expect(seen).to.deep.equal(['probe runner threw: boom']);
    await s.stop();
  });

  it('aborts the run of a removed target and never runs it again', async () => {
    const clock = new FakeClock();
    const log = { starts: [] as number[], active: 0, maxActive: 0 };
    const s = new ProbeScheduler({ clock, random: () => 0 });
    s.add('a', { httpGet: { port: 80 }, periodSeconds: 10 }, timedRunner(clock, 5_000, log));
    await clock.advance(1_000);
    expect(log.active).to.equal(1);
    expect(s.remove('a')).to.equal(true);
    await clock.advance(1);
    expect(log.active).to.equal(0);
    await clock.advance(60_000);
    expect(log.starts).to.deep.equal([0]);
    expect(clock.pendingTimers()).to.equal(0);
    await s.stop();
  });

  it('lets a replaced target start only after the old run has ended', async () => {
    const clock = new FakeClock();
    let active = 0;
    let maxActive = 0;
    let release: (() => void) | undefined;
    const s = new ProbeScheduler({ clock, random: () => 0 });
    const stubborn: ProbeRunner = () =>
      new Promise((resolve) => {
        active++;
        maxActive = Math.max(maxActive, active);
        // Ignores its abort signal for a while, like a socket that takes time to close.
        release = () => {
          active--;
          resolve(ok());
        };
      });
    s.add('a', { httpGet: { port: 80 } }, stubborn);
    await clock.advance(1);
    const firstRelease = release;
    let replacementRuns = 0;
    s.add('a', { httpGet: { port: 80 } }, () => {
      replacementRuns++;
      return Promise.resolve(ok());
    });
    await clock.advance(5_000);
    expect(replacementRuns).to.equal(0);
    firstRelease?.();
    await clock.advance(1);
    expect(replacementRuns).to.equal(1);
    expect(maxActive).to.equal(1);
    await s.stop();
  });

  it('stops cleanly: aborts runs in flight, awaits them, arms no timer, refuses new targets', async () => {
    const clock = new FakeClock();
    const log = { starts: [] as number[], active: 0, maxActive: 0 };
    const s = new ProbeScheduler({ clock, random: () => 0, concurrency: 100 });
    for (let i = 0; i < 50; i++) s.add(`c${i}`, { httpGet: { port: 80 } }, timedRunner(clock, 9_000, log));
    await clock.advance(10);
    expect(s.inFlight).to.equal(50);
    await s.stop();
    expect(log.active).to.equal(0);
    expect(s.inFlight).to.equal(0);
    expect(clock.pendingTimers()).to.equal(0);
    expect(() => s.add('x', { httpGet: { port: 80 } }, () => Promise.resolve(ok()))).to.throw(/after stop/);
  });
});
