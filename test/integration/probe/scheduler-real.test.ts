// The scheduler on the real clock with real probes: 300 HTTP targets at a 1 s period against one local server, a
// transition when the server turns unhealthy, every run on a new connection, and a stop that leaves nothing running.
// It waits for events (results, transitions) and counts them; its deadlines only catch a hang (docs/testing.md): on a
// quiet machine every target turns within about 2 s of the flip, and a busy one may take many times that.
import { getEventListeners } from 'node:events';
import http from 'node:http';
import { expect } from 'chai';
import {
  ProbeScheduler,
  RealClock,
  runProbe,
  type LivenessProbe,
  type Transition,
} from '../../../packages/probe/src/index.js';
import { close, listen } from './servers.js';

const TARGETS = 300;
const PERIOD_S = 1;
const FAILURE_THRESHOLD = 2;
/** A hang, not a slow machine: 10x what each wait below takes on a quiet one (about 2-3 s). */
const HANG_MS = 30_000;

/** Resolves once `done()` holds, checking after each event; rejects naming `what` after HANG_MS. */
function waitForEvents(what: string, done: () => boolean, subscribe: (check: () => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hung: no ${what} after ${HANG_MS} ms`)), HANG_MS);
    subscribe(() => {
      if (done()) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

describe('probe scheduler with real probes', function () {
  this.timeout(3 * HANG_MS);
  let server: http.Server;
  let port: number;
  let healthy = true;
  let connections = 0;

  before(async () => {
    server = http.createServer((_req, res) => {
      res.writeHead(healthy ? 200 : 503);
      res.end();
    });
    server.on('connection', () => connections++);
    port = await listen(server);
  });
  after(() => close(server));

  it('probes every target each period, reports the unhealthy turn once per target, and stops cleanly', async () => {
    const clock = new RealClock();
    const transitions = new Map<string, Transition[]>();
    const late: number[] = [];
    const runs = new Map<string, number>();
    const failedAfterFlip = new Map<string, number>();
    let onEvent = (): void => {};
    const signals = new Map<string, Set<AbortSignal>>();
    let listenersLeft = 0;
    const s = new ProbeScheduler({
      clock,
      concurrency: 64,
      onStart: (_k, l) => late.push(l),
      onResult: (k, r) => {
        // The run is over: it left no listener on its target's signal (which every run of the target shares).
        for (const sig of signals.get(k) ?? []) listenersLeft += getEventListeners(sig, 'abort').length;
        runs.set(k, (runs.get(k) ?? 0) + 1);
        if (!healthy && r.result === 'failure') failedAfterFlip.set(k, (failedAfterFlip.get(k) ?? 0) + 1);
        onEvent();
      },
      onTransition: (k, t) => {
        transitions.set(k, [...(transitions.get(k) ?? []), t]);
        onEvent();
      },
    });
    const probe: LivenessProbe = {
      httpGet: { host: '127.0.0.1', port, path: '/healthz' },
      periodSeconds: PERIOD_S,
      failureThreshold: FAILURE_THRESHOLD,
    };
    const turnedTo = (to: string): number => [...transitions.values()].filter((ts) => ts.at(-1)?.to === to).length;
    const addedAt = clock.now();
    for (let i = 0; i < TARGETS; i++)
      s.add(`member-${i}`, probe, (signal) => {
        const seen = signals.get(`member-${i}`) ?? new Set();
        signals.set(`member-${i}`, seen.add(signal));
        return runProbe(probe, { signal });
      });

    // Healthy first: every target reports success once, and runs again (a second period) before the flip.
    await waitForEvents(
      'success for every target, run twice',
      () => turnedTo('success') === TARGETS && [...runs.values()].every((n) => n >= 2) && runs.size === TARGETS,
      (check) => (onEvent = check),
    );
    healthy = false;
    await waitForEvents(
      'failure for every target',
      () => turnedTo('failure') === TARGETS,
      (check) => (onEvent = check),
    );
    await s.stop();
    const elapsedMs = clock.now() - addedAt;
    expect(s.inFlight).to.equal(0);

    // Stopped means stopped: no result after stop(), over more than a period.
    const afterStop = [...runs.values()].reduce((a, b) => a + b, 0);
    await new Promise((r) => setTimeout(r, 1.5 * PERIOD_S * 1000));
    expect(
      [...runs.values()].reduce((a, b) => a + b, 0),
      'results after stop()',
    ).to.equal(afterStop);

    // At most one run per due time, due times a period apart from a first one within the first period: the count is
    // bounded by the time that passed on the scheduler's own clock, however slow the machine was.
    const most = Math.floor(elapsedMs / (PERIOD_S * 1000)) + 2;
    for (let i = 0; i < TARGETS; i++) {
      const key = `member-${i}`;
      const seen = (transitions.get(key) ?? []).map((t) => t.to);
      expect(seen, key).to.deep.equal(['success', 'failure']);
      expect(failedAfterFlip.get(key), `${key}: failures before its turn`).to.be.at.least(FAILURE_THRESHOLD);
      expect(runs.get(key), `${key}: runs in ${elapsedMs.toFixed(0)} ms`).to.be.within(3, most);
    }
    // One signal a target for all its runs, and every run removed its listener from it.
    expect([...signals.values()].map((set) => set.size)).to.deep.equal(new Array<number>(TARGETS).fill(1));
    expect(listenersLeft, 'abort listeners left on a target signal after its run').to.equal(0);
    const total = [...runs.values()].reduce((a, b) => a + b, 0);
    expect(connections, 'a new connection for every run').to.be.at.least(total);
    // Every run that ended was started (and reported its lateness, never negative: a timer never fires early).
    expect(late.length).to.be.at.least(total);
    expect(Math.min(...late)).to.be.at.least(0);
    // Start lateness is the bench's figure (bench/probe), not a bound here: a busy machine inflates it.
    late.sort((a, b) => a - b);
    const median = late[Math.floor(late.length * 0.5)]!;
    process.stderr.write(
      `      ${total} runs in ${(elapsedMs / 1000).toFixed(1)} s, median start lateness ${median.toFixed(0)} ms\n`,
    );
  });
});
