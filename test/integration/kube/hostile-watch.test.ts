// The client's watch against a hostile apiserver on 127.0.0.1: a line that never ends, an event of a type that does
// not exist, and an ERROR event on a stream left open. Each watch must reject with a message (never an exception
// outside it, which ended the process), and give its socket back at once.
import { expect } from 'chai';
import http from 'node:http';
import type { Socket } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient, MAX_RESPONSE_BYTES, MAX_WATCH_EVENT_BYTES } from '../../../src/kube/index.js';

describe('kube client watch against a hostile apiserver', function () {
  this.timeout(60_000);
  let server: http.Server;
  let client: KubeClient;
  const sockets = new Set<Socket>();
  let mode = '';

  before(async () => {
    server = http.createServer((req, res) => {
      if (mode === 'endless-answer' || mode === 'endless-error') {
        // A GET whose answer never ends (a hostile server, or a proxy gone wrong), as a result or as an error.
        res.writeHead(mode === 'endless-error' ? 500 : 200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1024 * 1024, 'a');
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
        return;
      }
      if (mode === 'huge-declared') {
        res.writeHead(200, { 'content-length': String(MAX_RESPONSE_BYTES + 1) });
        res.write('{');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      if (mode === 'ok') res.end('{}');
      else if (mode === 'endless-line') {
        const chunk = Buffer.alloc(1024 * 1024, 'a');
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      } else if (mode === 'unknown-type') res.write('{"type":"WAT","object":{"metadata":{"name":"ghost"}}}\n');
      else if (mode === 'error-open')
        res.write('{"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired","message":"too old"}}\n');
      // The stream stays open: a watch that has ended must close it itself. (mode 'hold': nothing at all.)
    });
    server.on('connection', (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const kc = new KubeConfig();
    kc.loadFromOptions({
      // client-node allows plain HTTP only with skipTLSVerify.
      clusters: [
        { name: 'c', server: `http://127.0.0.1:${(server.address() as { port: number }).port}`, skipTLSVerify: true },
      ],
      users: [{ name: 'u', token: 't' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    client = new KubeClient(kc);
  });
  after(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  const watchOnce = async (m: string): Promise<{ err: Error; events: unknown[] }> => {
    mode = m;
    const events: unknown[] = [];
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), 30_000);
    try {
      await client.watch('/api/v1/x', { timeoutSeconds: 60 }, (e) => events.push(e), ac.signal);
      throw new Error('the watch ended without an error');
    } catch (err) {
      return { err: err as Error, events };
    } finally {
      clearTimeout(timer);
    }
  };

  /** Waits for the server to see every socket closed; the deadline only catches one that stays open (a hang). */
  const socketsClosed = async (): Promise<void> => {
    const deadline = Date.now() + 10_000;
    while (sockets.size > 0) {
      if (Date.now() > deadline) throw new Error(`${sockets.size} sockets still open 10 s after the watch ended`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('rejects a watch event longer than MAX_WATCH_EVENT_BYTES, and closes its socket', async () => {
    const before = process.memoryUsage().rss;
    const { err } = await watchOnce('endless-line');
    expect(err.message).to.equal(
      `watch /api/v1/x: a watch event is larger than ${MAX_WATCH_EVENT_BYTES} bytes (MAX_WATCH_EVENT_BYTES)`,
    );
    expect(process.memoryUsage().rss - before).to.be.below(8 * MAX_WATCH_EVENT_BYTES);
    await socketsClosed();
  });

  it('refuses an answer larger than MAX_RESPONSE_BYTES (endless, or declared), and closes its socket', async () => {
    mode = 'endless-answer';
    const before = process.memoryUsage().rss;
    const err = await client.request('GET', '/apis/x/v1/clusters').then(
      () => new Error('no error'),
      (e: unknown) => e as Error,
    );
    expect(err.message).to.equal(
      `GET /apis/x/v1/clusters: the answer is larger than ${MAX_RESPONSE_BYTES} bytes (MAX_RESPONSE_BYTES)`,
    );
    expect(process.memoryUsage().rss - before).to.be.below(2 * MAX_RESPONSE_BYTES);
    await socketsClosed();
    mode = 'huge-declared';
    const declared = await client.request('GET', '/apis/x/v1/clusters').then(
      () => new Error('no error'),
      (e: unknown) => e as Error,
    );
    expect(declared.message).to.equal(
      `GET /apis/x/v1/clusters: the answer is ${MAX_RESPONSE_BYTES + 1} bytes, more than ${MAX_RESPONSE_BYTES} (MAX_RESPONSE_BYTES)`,
    );
    await socketsClosed();
  });

  it('reads only the head of an endless error answer, and reports its status', async () => {
    mode = 'endless-error';
    const err = await client.request('GET', '/apis/x/v1/clusters').then(
      () => new Error('no error'),
      (e: unknown) => e as Error,
    );
    expect(err.message).to.match(/^GET \/apis\/x\/v1\/clusters: 500: a{500}$/);
    await socketsClosed();
  });

  it('rejects an event of a type that does not exist, applying nothing', async () => {
    const { err, events } = await watchOnce('unknown-type');
    expect(err.message).to.equal('watch /api/v1/x: got invalid watch event type "WAT"');
    expect(events).to.deep.equal([]);
    await socketsClosed();
  });

  it('gives the socket back at once after an ERROR event on a stream the server keeps open', async () => {
    const { err } = await watchOnce('error-open');
    expect(err.message).to.equal('watch /api/v1/x: too old');
    await socketsClosed();
  });

  it("ends a request's wait for a socket at its timeout, with every agent socket held by a watch", async () => {
    mode = 'hold';
    const ac = new AbortController();
    const watches = Array.from({ length: 128 }, () =>
      client.watch('/api/v1/held', { timeoutSeconds: 60 }, () => undefined, ac.signal).catch(() => undefined),
    );
    const deadline = Date.now() + 10_000;
    while (sockets.size < 128 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(sockets.size).to.equal(128);
    const started = Date.now();
    const err = await client.request('GET', '/api/v1/leases', { timeoutMs: 500 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err, 'the request failed').to.be.instanceOf(Error);
    // Its 500 ms timeout ended the wait; the bound, 10x that, only catches a request that waits for a socket for ever.
    expect(Date.now() - started).to.be.below(5_000);
    ac.abort();
    await Promise.all(watches);
    // The sockets are the agent's again (Node 24 may keep one idle in its pool for the request that gave up).
    mode = 'ok';
    expect(await client.request('GET', '/api/v1/leases', { timeoutMs: 2_000 })).to.deep.equal({});
  });
});
