// The httpGet handler against a real HTTP server on 127.0.0.1: statuses, redirects, bodies, stalls, resets, closed
// ports and unresolvable names, with the kubelet's wording and never a body in a message.
import http from 'node:http';
import type { Socket } from 'node:net';
import { expect } from 'chai';
import {
  MAX_BODY_BYTES,
  runProbe,
  USER_AGENT,
  type HttpGetAction,
  type ProbeResult,
} from '../../../packages/probe/src/index.js';
import { close, closedPort, listen } from './servers.js';

/** Catches a probe that ignores its 1 s timeout, not a slow machine: 10x what the timeout tests take on a quiet one. */
const HANG_MS = 10_000;

describe('httpGet probe against a real server', function () {
  this.timeout(3 * HANG_MS);
  let server: http.Server;
  let port: number;
  let connections = 0;
  let lastHeaders: http.IncomingHttpHeaders = {};
  /** Bytes of /big's 1 MiB the server had sent when the probe closed the connection. */
  let bigBodySentAtClose: Promise<number> = Promise.resolve(0);
  const requests: string[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      requests.push(`${req.headers.host ?? ''}${url.pathname}`);
      lastHeaders = req.headers;
      const status = /^\/status\/(\d+)$/.exec(url.pathname);
      if (status?.[1] !== undefined) {
        res.writeHead(Number(status[1]), { 'content-type': 'text/plain' });
        res.end('SECRET-BODY-CONTENT');
        return;
      }
      const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
      if (chain?.[1] !== undefined) {
        const n = Number(chain[1]);
        res.writeHead(n === 0 ? 200 : 302, n === 0 ? {} : { location: `/chain/${n - 1}` });
        res.end();
        return;
      }
      switch (url.pathname) {
        case '/redirect-same':
          res.writeHead(302, { location: '/status/200' });
          res.end();
          return;
        case '/redirect-same-absolute':
          res.writeHead(301, { location: `http://127.0.0.1:${port}/status/204` });
          res.end();
          return;
        case '/redirect-to-failure':
          res.writeHead(307, { location: '/status/500' });
          res.end();
          return;
        case '/redirect-other':
          // Same server, other host name: the probe must not follow it.
          res.writeHead(302, { location: `http://localhost:${port}/status/500` });
          res.end();
          return;
        case '/loop':
          res.writeHead(302, { location: '/loop' });
          res.end();
          return;
        case '/big': {
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(1024 * 1024) });
          const chunk = Buffer.alloc(16 * 1024, 0x61);
          // Paced, so that loopback's large socket buffers cannot swallow the whole MiB before the probe hangs up.
          bigBodySentAtClose = new Promise((resolve) => {
            let sent = 0;
            let timer: NodeJS.Timeout | undefined;
            const pump = (): void => {
              if (res.destroyed) return;
              res.write(chunk);
              sent += chunk.length;
              if (sent < 1024 * 1024) timer = setTimeout(pump, 5);
              else res.end();
            };
            res.on('close', () => {
              clearTimeout(timer);
              resolve(sent);
            });
            pump();
          });
          return;
        }
        case '/no-headers':
          return; // never answers
        case '/stall-body':
          res.writeHead(200, { 'content-length': '1000' });
          res.write('only the first bytes');
          return; // the rest never comes
        case '/reset':
          req.socket.resetAndDestroy();
          return;
        case '/echo':
          res.writeHead(200);
          res.end();
          return;
        default:
          res.writeHead(404);
          res.end();
      }
    });
    server.on('connection', (_s: Socket) => connections++);
    port = await listen(server);
  });

  after(() => close(server));

  const probe = (action: Partial<HttpGetAction>, timeoutSeconds = 1): Promise<ProbeResult> =>
    runProbe({ httpGet: { host: '127.0.0.1', port, ...action }, timeoutSeconds });

  for (const code of [200, 204, 399]) {
    it(`passes on status ${code}`, async () => {
      const res = await probe({ path: `/status/${code}` });
      expect(res.result).to.equal('success');
      expect(res.message).to.equal(`HTTP probe succeeded with statuscode: ${code}`);
    });
  }

  for (const code of [400, 404, 500, 503]) {
    it(`fails on status ${code} with the kubelet's message and no body`, async () => {
      const res = await probe({ path: `/status/${code}` });
      expect(res.result).to.equal('failure');
      expect(res.message).to.equal(`HTTP probe failed with statuscode: ${code}`);
      expect(JSON.stringify(res)).not.to.contain('SECRET');
    });
  }

  it('follows a redirect to the same host', async () => {
    requests.length = 0;
    const res = await probe({ path: '/redirect-same' });
    expect(res).to.include({ result: 'success', message: 'HTTP probe succeeded with statuscode: 200' });
    expect(res.warnings).to.equal(undefined);
    expect(requests.map((r) => r.replace(/:\d+/, ''))).to.deep.equal([
      '127.0.0.1/redirect-same',
      '127.0.0.1/status/200',
    ]);
  });

  it('follows an absolute same-host redirect and judges the final status', async () => {
    expect((await probe({ path: '/redirect-same-absolute' })).message).to.equal(
      'HTTP probe succeeded with statuscode: 204',
    );
    const failing = await probe({ path: '/redirect-to-failure' });
    expect(failing).to.include({ result: 'failure', message: 'HTTP probe failed with statuscode: 500' });
  });

  it('does not follow a redirect to another host: success with a warning', async () => {
    requests.length = 0;
    const res = await probe({ path: '/redirect-other' });
    expect(res.result).to.equal('success');
    expect(res.message).to.equal('HTTP probe succeeded with statuscode: 302');
    expect(res.warnings?.[0]).to.match(/^Probe terminated redirects: redirect to another host \(localhost:\d+\)/);
    expect(requests).to.have.length(1);
  });

  it("makes at most 10 requests, as Go's len(via) >= 10: 9 redirects pass, a 10th fails naming its Location", async () => {
    requests.length = 0;
    expect((await probe({ path: '/chain/9' })).result).to.equal('success');
    expect(requests).to.have.length(10);
    requests.length = 0;
    const res = await probe({ path: '/chain/10' });
    expect(res).to.include({ result: 'failure', message: 'Get "/chain/0": stopped after 10 redirects' });
    expect(requests).to.have.length(10);
  });

  it('fails a redirect loop after 10 requests, with the raw Location as Go prints it', async () => {
    requests.length = 0;
    const res = await probe({ path: '/loop' });
    expect(res).to.include({ result: 'failure', message: 'Get "/loop": stopped after 10 redirects' });
    expect(requests).to.have.length(10);
  });

  it(`reads at most ${MAX_BODY_BYTES} bytes of a 1 MiB body and closes the connection`, async () => {
    const res = await probe({ path: '/big' });
    expect(res.result).to.equal('success');
    // Events, not a duration: the server paces 16 KiB chunks on timers and the probe hangs up on the first ones it
    // reads, so the server is cut off long before the whole MiB however slow the machine.
    const sent = await bigBodySentAtClose;
    expect(sent, 'bytes the server sent before the probe closed the connection').to.be.below(1024 * 1024);
    expect(sent).to.be.at.least(MAX_BODY_BYTES);
  });

  it('fails when the headers never come, within the timeout', async () => {
    const res = await probe({ path: '/no-headers' }, 1);
    expect(res.result).to.equal('failure');
    expect(res.message).to.equal(
      `Get "http://127.0.0.1:${port}/no-headers": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
    );
    // The timeout ended it (the message says so): never before it; later only by as much as the machine is busy.
    expect(res.durationMs).to.be.within(900, HANG_MS);
  });

  it("errors (the kubelet's errored probe, not a failure) when the body stalls past the timeout", async () => {
    const res = await probe({ path: '/stall-body' }, 1);
    expect(res).to.include({
      result: 'error',
      code: 'ProbeErrored',
      message: 'context deadline exceeded (Client.Timeout or context cancellation while reading body)',
    });
    expect(res.durationMs).to.be.within(900, HANG_MS);
  });

  it("fails on a connection reset before the response with Go's read error, local->remote", async () => {
    const res = await probe({ path: '/reset' });
    expect(res.result).to.equal('failure');
    expect(res.message).to.match(
      new RegExp(
        `^Get "http://127\\.0\\.0\\.1:${port}/reset": read tcp 127\\.0\\.0\\.1:\\d+->127\\.0\\.0\\.1:${port}: read: connection reset by peer$`,
      ),
    );
  });

  it('fails on a closed port with the dial error', async () => {
    const free = await closedPort();
    const res = await runProbe({ httpGet: { host: '127.0.0.1', port: free, path: '/healthz' } });
    expect(res).to.include({
      result: 'failure',
      message: `Get "http://127.0.0.1:${free}/healthz": dial tcp 127.0.0.1:${free}: connect: connection refused`,
    });
  });

  it('fails on a name that does not resolve', async () => {
    const res = await runProbe({ httpGet: { host: 'no-such-member.invalid', port: 80 } });
    expect(res.result).to.equal('failure');
    expect(res.message).to.equal(
      'Get "http://no-such-member.invalid:80/": dial tcp: lookup no-such-member.invalid: no such host',
    );
  });

  it('sends the kubelet-style User-Agent and Accept, and the configured headers', async () => {
    await probe({ path: '/echo', httpHeaders: [{ name: 'X-Probe', value: 'yes' }] });
    expect(lastHeaders['user-agent']).to.equal(USER_AGENT);
    expect(lastHeaders['accept']).to.equal('*/*');
    expect(lastHeaders['x-probe']).to.equal('yes');
  });

  it('lets configured headers replace the defaults, and a Host header set the request host', async () => {
    await probe({
      path: '/echo',
      httpHeaders: [
        { name: 'User-Agent', value: 'custom/1' },
        { name: 'Accept', value: 'application/json' },
        { name: 'Host', value: 'member.example' },
      ],
    });
    expect(lastHeaders['user-agent']).to.equal('custom/1');
    expect(lastHeaders['accept']).to.equal('application/json');
    expect(lastHeaders['host']).to.equal('member.example');
  });

  it('opens a new connection for every probe', async () => {
    const before = connections;
    await probe({ path: '/status/200' });
    await probe({ path: '/status/200' });
    await probe({ path: '/status/200' });
    expect(connections - before).to.equal(3);
  });

  it('takes the host from spec.apiEndpoint when none is given', async () => {
    const res = await runProbe({ httpGet: { port, path: '/status/200' } }, { apiEndpoint: 'https://127.0.0.1:6443' });
    expect(res.result).to.equal('success');
  });

  it('ends as a failure, at once, when stopped through its signal', async () => {
    const ac = new AbortController();
    const pending = runProbe(
      { httpGet: { host: '127.0.0.1', port, path: '/no-headers' }, timeoutSeconds: 5 },
      { signal: ac.signal },
    );
    setTimeout(() => ac.abort(), 50);
    const res = await pending;
    expect(res.result).to.equal('failure');
    expect(res.message).to.contain('probe stopped');
    // Ended by the signal (the message), so before its 5 s timeout: about 50 ms on a quiet machine.
    expect(res.durationMs).to.be.below(5_000);
  });
});
