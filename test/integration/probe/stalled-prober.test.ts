// A prober that was busy past a probe's deadline (a long task, a starved machine) must not call its own stall the
// member's timeout: the member answered in time, the answer waits unread in the socket, and the probe reads it before
// it looks at the clock (afterPendingIo in packages/probe/src/deadline.ts). The member runs in a worker thread, so it
// answers while this thread is blocked; shared flags order the steps, so no step races the wall clock.
import { Worker } from 'node:worker_threads';
import { expect } from 'chai';
import { runProbe } from '../../../packages/probe/src/index.js';

/** Flags shared with the member: [0] its port, [1] it got the connection or request, [2] go ahead, [3] answered. */
const PORT = 0;
const GOT = 1;
const GO = 2;
const ANSWERED = 3;

/** The member: accepts (tcp) or reads a request (http), says so, waits for GO, answers, says so. */
const MEMBER = `
const { workerData } = require('node:worker_threads');
const http = require('node:http');
const net = require('node:net');
const flags = new Int32Array(workerData.shared);
const set = (i) => { Atomics.store(flags, i, 1); Atomics.notify(flags, i); };
const whenGo = (f) => { const t = setInterval(() => { if (Atomics.load(flags, ${GO}) === 1) { clearInterval(t); f(); } }, 1); };
const server = workerData.kind === 'http'
  ? http.createServer((req, res) => { set(${GOT}); whenGo(() => res.end('ok', () => set(${ANSWERED}))); })
  : net.createServer((socket) => { set(${GOT}); socket.on('error', () => {}); set(${ANSWERED}); });
server.listen(0, '127.0.0.1', () => { Atomics.store(flags, ${PORT}, server.address().port); Atomics.notify(flags, ${PORT}); });
`;

/** Blocks this thread (timers, sockets, everything) until the member answered and the probe's deadline has passed. */
function blockPast(flags: Int32Array, deadlineAt: number): void {
  Atomics.store(flags, GO, 1);
  expect(Atomics.wait(flags, ANSWERED, 0, 10_000), 'the member never answered').to.not.equal('timed-out');
  while (performance.now() < deadlineAt + 100) {
    /* the loop stays blocked past the deadline */
  }
}

/**
 * Resolves once the flag is set without letting the loop read a socket: it polls between ticks and microtasks only
 * (the probe's own ticks and promises run, its connect is made), so a connection the member accepted is not yet seen
 * by this thread. Gives up after 5 s.
 */
function whenSetUnread(flags: Int32Array, i: number): Promise<void> {
  const until = performance.now() + 5000;
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (Atomics.load(flags, i) !== 0) resolve();
      else if (performance.now() > until) reject(new Error('the member never saw the probe'));
      else queueMicrotask(() => process.nextTick(check));
    };
    process.nextTick(check);
  });
}

/** Resolves on the next turn of the loop where the flag is set (polling by setImmediate: the loop stays free). */
function whenSet(flags: Int32Array, i: number): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => void (Atomics.load(flags, i) !== 0 ? resolve() : setImmediate(check));
    check();
  });
}

describe('a prober busy past the deadline (the answer arrived in time, unread)', function () {
  this.timeout(20_000);
  const workers: Worker[] = [];
  after(() => Promise.all(workers.map((w) => w.terminate())));

  async function member(kind: 'http' | 'tcp'): Promise<Int32Array> {
    const shared = new SharedArrayBuffer(16);
    const flags = new Int32Array(shared);
    workers.push(new Worker(MEMBER, { eval: true, workerData: { shared, kind } }));
    await whenSet(flags, PORT);
    return flags;
  }

  for (const kind of ['http', 'tcp'] as const)
    it(`${kind}: the answer that waited in the socket is read before the timeout is called`, async () => {
      const flags = await member(kind);
      const port = Atomics.load(flags, PORT);
      const started = performance.now();
      const timeoutSeconds = 1;
      const result = runProbe(
        kind === 'http'
          ? { httpGet: { host: '127.0.0.1', port, path: '/healthz' }, timeoutSeconds }
          : { tcpSocket: { host: '127.0.0.1', port }, timeoutSeconds },
      );
      // The http member holds its answer until GO, so the request may be read; a tcp connection is answered by the
      // kernel at once, so it must not be.
      await (kind === 'http' ? whenSet(flags, GOT) : whenSetUnread(flags, GOT));
      blockPast(flags, started + timeoutSeconds * 1000);
      const r = await result;
      expect(performance.now() - started, 'this thread was blocked past the deadline').to.be.above(1000);
      expect(r.result, r.message).to.equal('success');
    });

  it('a member that does not answer still times out with the kubelet message', async () => {
    const flags = await member('http');
    const port = Atomics.load(flags, PORT);
    // GO is never set: the member holds the request.
    const r = await runProbe({ httpGet: { host: '127.0.0.1', port, path: '/healthz' }, timeoutSeconds: 1 });
    expect(r).to.include({
      result: 'failure',
      message: `Get "http://127.0.0.1:${port}/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
    });
  });
});
