// The kubelet's errored probe, end to end on 127.0.0.1: a server that answers 200 and resets the connection in the
// middle of the body. The kubelet's pkg/probe/http returns an error there (the body could not be read), its prober
// tries twice more at once (prober.go, maxProbeRetries = 3) and its worker throws the result away (worker.go): so the
// probe makes 3 requests a run, and the worker never transitions, whatever the thresholds. A body that stalls past the
// timeout errors the same way, each attempt with a whole timeout of its own (runProbe computes it per attempt).
// Deadlines catch hangs only.
import net from 'node:net';
import { expect } from 'chai';
import {
  ProbeScheduler,
  RealClock,
  runProbe,
  type LivenessProbe,
  type ProbeResult,
  type Transition,
} from '../../../packages/probe/src/index.js';
import { BODY_SENT, close, listen, resettingServer } from './servers.js';

/** A hang, not a slow machine: each wait below takes well under a second per run on a quiet one. */
const HANG_MS = 30_000;

/** Answers 200 with part of the body and then sends nothing more, holding the connection open. */
function stallingServer(): { server: net.Server; requests: () => number } {
  let requests = 0;
  const server = net.createServer((socket) => {
    socket.once('data', () => {
      requests++;
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n${BODY_SENT}`);
    });
    socket.on('error', () => undefined);
  });
  return { server, requests: () => requests };
}

describe('errored probe (a body reset or stalled mid-way), as the kubelet has it', function () {
  this.timeout(3 * HANG_MS);
  let server: net.Server;
  let requests: () => number;
  let probe: LivenessProbe;

  beforeEach(async () => {
    ({ server, requests } = resettingServer());
    const port = await listen(server);
    probe = { httpGet: { host: '127.0.0.1', port, path: '/healthz' }, timeoutSeconds: 5 };
  });
  afterEach(() => close(server));

  it('is an errored result, not a failure, after 3 requests made at once', async () => {
    const res = await runProbe(probe, { denyList: [] });
    expect(res).to.include({ result: 'error', code: 'ProbeErrored', attempts: 3 });
    expect(requests()).to.equal(3);
    // The message says what went wrong, never what the body held.
    expect(res.message).not.to.include(BODY_SENT);
  });

  it('never moves the worker, even at failureThreshold 1: every run errored, 3 requests each', async () => {
    const transitions: Transition[] = [];
    const results: ProbeResult[] = [];
    let onResult = (): void => {};
    const s = new ProbeScheduler({
      clock: new RealClock(),
      random: () => 0,
      onTransition: (_k, t) => transitions.push(t),
      onResult: (_k, r) => {
        results.push(r);
        onResult();
      },
    });
    s.add(
      'errored',
      { ...probe, periodSeconds: 1, failureThreshold: 1, successThreshold: 1 },
      (signal) => runProbe(probe, { denyList: [], signal }),
      { initial: 'success' },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`hung: ${results.length} of 3 runs after ${HANG_MS} ms`)),
          HANG_MS,
        );
        onResult = () => {
          if (results.length < 3) return;
          clearTimeout(timer);
          resolve();
        };
      });
    } finally {
      await s.stop();
    }
    expect(results.map((r) => `${r.result}/${r.code}/${r.attempts}`)).to.deep.equal(
      Array(3).fill('error/ProbeErrored/3'),
    );
    expect(transitions).to.deep.equal([]);
    expect(requests()).to.equal(9);
  });

  it('gives each attempt the whole timeout, as the kubelet does: a stalled body errors after 3 timeouts', async () => {
    const stalled = stallingServer();
    const port = await listen(stalled.server);
    try {
      const res = await runProbe(
        { httpGet: { host: '127.0.0.1', port, path: '/healthz' }, timeoutSeconds: 1 },
        { denyList: [] },
      );
      expect(res).to.include({ result: 'error', code: 'ProbeErrored', attempts: 3 });
      expect(stalled.requests()).to.equal(3);
      // A lower bound only: three attempts of 1 s each, not one second shared by the three.
      expect(res.durationMs).to.be.at.least(2_900);
    } finally {
      await close(stalled.server);
    }
  });
});
