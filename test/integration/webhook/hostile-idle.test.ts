// Connections that hold the webhook's sockets without a request: a TCP connection that never starts TLS, a TLS
// connection that sends nothing, one that sends half of its headers, one that stops in the middle of its body, and an
// idle keep-alive connection. Each must be closed by the server (timeouts shortened for the test), never before its
// bound where the test can say so, while an idle keep-alive connection must not be closed before its own, longer
// bound. Node's http server keeps these timers, so the clock cannot be injected: a close is awaited as an event, and
// its deadline only catches a connection the server never closes (docs/testing.md); the timers' own arithmetic is
// tested on an injected clock in test/unit/webhook/connections.test.ts.
import { expect } from 'chai';
import net from 'node:net';
import tls from 'node:tls';
import type { PemPair } from '../../../src/certs/index.js';
import type { ConnectionTimeouts, WebhookServer } from '../../../src/webhook/index.js';
import { clusterReview, startTestServer, type TestServer } from './helpers.js';

// Short, but far enough apart that a loaded 2-core machine cannot blur them.
const TIMEOUTS: ConnectionTimeouts = {
  handshakeMs: 600,
  headersMs: 800,
  requestMs: 1_200,
  keepAliveMs: 2_500,
};
/** A deadline for a close that should come after `ms` on a quiet machine: 10x, so it only catches a hang. */
const hang = (ms: number): number => 10 * ms;
/** Node adds 1 s to the keep-alive timeout it advertises. */
const KEEP_ALIVE_EXTRA_MS = 1_000;

/** Resolves with the milliseconds until the server closed the socket, or rejects when it stays open past `limitMs`. */
function closedWithin(socket: net.Socket, limitMs: number, started = Date.now()): Promise<number> {
  return new Promise((resolve, reject) => {
    if (socket.destroyed || socket.readyState === 'closed') {
      resolve(Date.now() - started);
      return;
    }
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for more than ${limitMs} ms`));
    }, limitMs);
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

function connectTls(port: number, ca: string): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, ca, servername: 'localhost' }, () => resolve(socket));
    socket.once('error', reject);
  });
}

function readResponse(socket: tls.TLSSocket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (d: Buffer) => {
      text += d.toString('utf8');
      const head = text.indexOf('\r\n\r\n');
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(text)?.[1] ?? NaN);
      if (head >= 0 && text.length >= head + 4 + length) {
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`closed before a whole response: ${text}`)));
  });
}

/** Sends one valid review on `socket` and resolves with its whole answer, checked to be a 200. */
async function reviewOnce(socket: tls.TLSSocket, uid: string): Promise<string> {
  const body = JSON.stringify(clusterReview(uid));
  const response = readResponse(socket);
  socket.write(
    `POST /validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  const text = await response;
  expect(text).to.match(/^HTTP\/1\.1 200 /);
  return text;
}

describe('webhook connections without a request (real TLS, shortened timeouts)', function () {
  this.timeout(2 * hang(TIMEOUTS.keepAliveMs + KEEP_ALIVE_EXTRA_MS + TIMEOUTS.headersMs));
  let ca: PemPair;
  let server: WebhookServer;
  let port: number;

  let test: TestServer;

  before(async () => {
    test = await startTestServer('cluster-probe-idle-', { timeouts: TIMEOUTS });
    ({ ca, server, port } = test);
  });

  after(() => test.stop());

  it('applies the timeouts it was given', () => {
    expect(server.timeouts).to.deep.equal(TIMEOUTS);
  });

  it('closes a TCP connection that never starts the TLS handshake', async () => {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    await closedWithin(socket, hang(TIMEOUTS.handshakeMs));
  });

  it('closes a TLS connection that sends nothing after the handshake', async () => {
    const socket = await connectTls(port, ca.cert);
    const ms = await closedWithin(socket, hang(TIMEOUTS.headersMs));
    expect(ms).to.be.at.least(TIMEOUTS.headersMs - 100);
  });

  it('closes a TLS connection that sends half of its headers and stops', async () => {
    const socket = await connectTls(port, ca.cert);
    socket.write('POST /validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl');
    await closedWithin(socket, hang(TIMEOUTS.headersMs));
  });

  it('closes a TLS connection that trickles its headers, a byte at a time, past the headers timeout', async () => {
    const socket = await connectTls(port, ca.cert);
    const started = Date.now();
    const text =
      'POST /validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Slow: ' + 'a'.repeat(200);
    let i = 0;
    const trickle = setInterval(() => {
      if (!socket.destroyed && i < text.length) socket.write(text[i++] ?? '');
    }, 100);
    try {
      // The trickle lasts 20 s, longer than the deadline: a server that refreshed its timer on each byte fails here.
      await closedWithin(socket, hang(TIMEOUTS.headersMs), started);
    } finally {
      clearInterval(trickle);
    }
  });

  it('closes a TLS connection whose body stops short of its Content-Length', async () => {
    const socket = await connectTls(port, ca.cert);
    socket.write(
      'POST /validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":',
    );
    await closedWithin(socket, hang(TIMEOUTS.requestMs));
  });

  // After the first answer the socket timer is node's keep-alive timeout, cleared when the next request starts:
  // a request on a reused connection is bounded by headersTimeout and requestTimeout alone.
  for (const [what, second, boundMs] of [
    [
      'sends half of its headers',
      'POST /validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl',
      TIMEOUTS.headersMs,
    ],
    [
      'stops its body short of its Content-Length',
      'POST /validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":',
      TIMEOUTS.requestMs,
    ],
  ] as const) {
    it(`closes a reused keep-alive connection whose second request ${what}`, async () => {
      const socket = await connectTls(port, ca.cert);
      await reviewOnce(socket, 'reused-1');
      const started = Date.now();
      socket.write(second);
      await closedWithin(socket, hang(boundMs), started);
    });
  }

  /** Resolves with the milliseconds until the server holds `count` connections, or rejects past `limitMs`. */
  async function serverHolds(count: number, limitMs: number, started = Date.now()): Promise<number> {
    for (;;) {
      if (server.connections === count) return Date.now() - started;
      if (Date.now() - started > limitMs)
        throw new Error(`the server held ${server.connections} connections after ${limitMs} ms (expected ${count})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('closes a keep-alive connection whose client sends requests but stops reading the answers', async () => {
    // The earlier tests' connections are gone (the server may see a close a little after the client does).
    const before = 0;
    await serverHolds(before, hang(TIMEOUTS.requestMs));
    const socket = await connectTls(port, ca.cert);
    socket.on('error', () => undefined);
    await reviewOnce(socket, 'no-read-1');
    // Complete requests whose answers are never read: the server's writes back up, it stops reading the socket, and
    // no request is in progress for headersTimeout or requestTimeout to bound.
    socket.pause();
    const requests = 'GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'.repeat(20);
    const writing = Date.now();
    while (Date.now() - writing < 3_000 && server.connections > before) {
      // Stops once the server has closed it (on the old code it never does; the client is still writing).
      socket.write(requests);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const quiet = Date.now();
    try {
      // The answer in the socket since the client went quiet may wait at most requestTimeout to be flushed.
      await serverHolds(before, hang(TIMEOUTS.requestMs), quiet);
    } finally {
      socket.destroy();
    }
  });

  it('closes a reused keep-alive connection that sends only blank lines between requests', async () => {
    const socket = await connectTls(port, ca.cert);
    await reviewOnce(socket, 'blank-lines-1');
    const idleSince = Date.now();
    // llhttp skips a CRLF before a request line: no request starts, and each read used to refresh the idle timer.
    const blank = setInterval(() => {
      if (!socket.destroyed) socket.write('\r\n');
    }, 300);
    try {
      // Blank lines go on past the deadline: a server that refreshed its idle timer on each read fails here.
      await closedWithin(socket, hang(TIMEOUTS.keepAliveMs + KEEP_ALIVE_EXTRA_MS + TIMEOUTS.headersMs), idleSince);
    } finally {
      clearInterval(blank);
    }
  });

  it('keeps an idle keep-alive connection open for the keep-alive timeout, then closes it', async () => {
    const socket = await connectTls(port, ca.cert);
    const text = await reviewOnce(socket, 'keep-alive-1');
    expect(text).to.contain('"uid":"keep-alive-1"');
    const idleSince = Date.now();
    // Longer than the headers timeout: between requests the keep-alive timeout governs, not the request timeouts.
    await new Promise((resolve) => setTimeout(resolve, TIMEOUTS.keepAliveMs - 500));
    expect(socket.destroyed, 'closed before the keep-alive timeout').to.equal(false);
    const ms = await closedWithin(socket, hang(TIMEOUTS.keepAliveMs + KEEP_ALIVE_EXTRA_MS), idleSince);
    expect(ms).to.be.at.least(TIMEOUTS.keepAliveMs);
  });
});
