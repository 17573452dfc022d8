// The httpGet handler held to the kubelet's pkg/probe/http (k8s.io/kubernetes v1.35.4, Go's net/http client, driven
// with followNonLocalRedirects=false): redirect rules, what reaches the server, the HTTP/1.x Go's client accepts, and
// which faults are errored rather than failed. Raw sockets on 127.0.0.1 write what no HTTP library would; each
// expected message is what Go printed for the same exchange.
import type net from 'node:net';
import { expect } from 'chai';
import {
  MAX_RESPONSE_HEADER_BYTES,
  runProbe,
  USER_AGENT,
  type HttpGetAction,
  type ProbeResult,
} from '../../../packages/probe/src/index.js';
import { close, rawServer, type RawRequest } from './servers.js';

const HANG_MS = 10_000;

function reply(socket: net.Socket, text: string): void {
  socket.end(Buffer.from(text, 'latin1'));
}

const ok = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok';
const redirect = (location: string, status = 302): string =>
  `HTTP/1.1 ${status} Found\r\nLocation: ${location}\r\nContent-Length: 0\r\n\r\n`;

describe('httpGet as the kubelet does it (Go net/http, followNonLocalRedirects=false)', function () {
  this.timeout(3 * HANG_MS);
  let srv: Awaited<ReturnType<typeof rawServer>>;
  /** The answer to the next requests, by index; the last one repeats. */
  let script: ((socket: net.Socket, req: RawRequest) => void)[] = [];

  before(async () => {
    srv = await rawServer((socket, req, i) => {
      const f = script[Math.min(i, script.length - 1)];
      if (f === undefined) reply(socket, ok);
      else f(socket, req);
    });
  });
  after(() => close(srv.server));

  const run = (
    answers: (string | ((socket: net.Socket, req: RawRequest) => void))[],
    action: Partial<HttpGetAction> = {},
    timeoutSeconds = 1,
  ): Promise<ProbeResult> => {
    srv.requests.length = 0;
    script = answers.map((a) => (typeof a === 'string' ? (s: net.Socket) => reply(s, a) : a));
    return runProbe({ httpGet: { host: '127.0.0.1', port: srv.port, path: '/r', ...action }, timeoutSeconds });
  };

  describe('redirects', () => {
    for (const host of ['127.1', 'LOCALHOST', '127.0.0.1.']) {
      it(`does not follow ${host}, another spelling of the host: Go compares the names as written (Warning)`, async () => {
        const res = await run([redirect(`http://${host}:${srv.port}/x`)]);
        expect(res).to.include({ result: 'success', message: 'HTTP probe succeeded with statuscode: 302' });
        expect(res.warnings?.[0]).to.equal(
          `Probe terminated redirects: redirect to another host (${host}:${srv.port}) is not followed`,
        );
        expect(srv.requests).to.have.length(1);
      });
    }

    it("fails on a same-host Location with another scheme, as Go's transport refuses it, without fetching it", async () => {
      const res = await run([redirect(`ftp://127.0.0.1:${srv.port}/x`)]);
      expect(res).to.include({
        result: 'failure',
        message: `Get "ftp://127.0.0.1:${srv.port}/x": unsupported protocol scheme "ftp"`,
      });
      expect(srv.requests).to.have.length(1);
    });

    it('does not follow another scheme on another host (Warning)', async () => {
      const res = await run([redirect('ftp://other.example/x')]);
      expect(res.result).to.equal('success');
      expect(res.warnings?.[0]).to.contain('(other.example)');
    });

    it('fails on a Location Go cannot parse, with its message', async () => {
      const res = await run([redirect('/a%zz')]);
      expect(res).to.include({
        result: 'failure',
        message: `Get "http://127.0.0.1:${srv.port}/r": failed to parse Location header "/a%zz": parse "/a%zz": invalid URL escape "%zz"`,
      });
    });

    it('sends Referer (the previous URL) on the next request, and resolves dot segments in the Location', async () => {
      const res = await run([redirect('/a/../b/./c?q=1'), ok]);
      expect(res.result).to.equal('success');
      expect(srv.requests.map((r) => r.target)).to.deep.equal(['/r', '/b/c?q=1']);
      expect(srv.requests[1]!.headers).to.deep.include(['Referer', `http://127.0.0.1:${srv.port}/r`]);
    });

    it("sends a same-host Location's user:password as Basic authorization, and hides the password in messages", async () => {
      await run([redirect(`http://user:secret@127.0.0.1:${srv.port}/ok`), ok]);
      expect(srv.requests[1]!.headers).to.deep.include(['Authorization', 'Basic dXNlcjpzZWNyZXQ=']);
      expect(srv.requests[1]!.headers).to.deep.include(['Referer', `http://127.0.0.1:${srv.port}/r`]);
      const res = await run([redirect(`http://user:secret@127.0.0.1:${srv.port}/ok`), (s) => s.end()]);
      expect(res.message).to.equal(`Get "http://user:***@127.0.0.1:${srv.port}/ok": EOF`);
    });

    it('keeps a custom Host across a relative Location only', async () => {
      await run([redirect('/next'), redirect(`http://127.0.0.1:${srv.port}/abs`), ok], {
        httpHeaders: [{ name: 'Host', value: 'member.example' }],
      });
      expect(srv.requests.map((r) => r.headers.find(([n]) => n === 'Host')?.[1])).to.deep.equal([
        'member.example',
        'member.example',
        `127.0.0.1:${srv.port}`,
      ]);
    });
  });

  describe('the request as it reaches the server', () => {
    const cases: [string, string][] = [
      ['/a b', '/a%20b'],
      ['/%zz', '/%25zz'],
      ['/a/../b', '/a/../b'],
      ['/a\\b', '/a%5Cb'],
      ['/x?q=1&r=%zz', '/x?q=1&r=%zz'],
      ['/x?a b', '/x?a b'],
      ['/é', '/%C3%A9'],
      ['/p#frag', '/p'],
    ];
    for (const [path, target] of cases) {
      it(`sends path ${JSON.stringify(path)} as ${target}, as Go's url.Parse and RequestURI do`, async () => {
        await run([ok], { path });
        expect(srv.requests[0]!.line).to.equal(`GET ${target} HTTP/1.1`);
      });
    }

    it('sends the first of two Host values, the first of two User-Agents once, and no Accept when it is empty', async () => {
      await run([ok], {
        httpHeaders: [
          { name: 'host', value: 'first.example' },
          { name: 'Host', value: 'second.example' },
          { name: 'user-agent', value: 'one/1' },
          { name: 'User-Agent', value: 'two/2' },
          { name: 'Accept', value: '' },
          { name: 'x-two', value: 'a' },
          { name: 'X-Two', value: 'b' },
        ],
      });
      const h = srv.requests[0]!.headers;
      expect(h.filter(([n]) => n === 'Host')).to.deep.equal([['Host', 'first.example']]);
      expect(h.filter(([n]) => n.toLowerCase() === 'user-agent')).to.deep.equal([['User-Agent', 'one/1']]);
      expect(h.some(([n]) => n.toLowerCase() === 'accept')).to.equal(false);
      expect(h.filter(([n]) => n === 'X-Two')).to.deep.equal([
        ['X-Two', 'a'],
        ['X-Two', 'b'],
      ]);
    });

    it("adds Connection: close after a Connection header of the caller, as Go's transport without keep-alives", async () => {
      await run([ok], { httpHeaders: [{ name: 'Connection', value: 'keep-alive' }] });
      expect(srv.requests[0]!.headers.filter(([n]) => n === 'Connection')).to.deep.equal([
        ['Connection', 'keep-alive'],
        ['Connection', 'close'],
      ]);
      await run([ok]);
      expect(srv.requests[0]!.headers.filter(([n]) => n === 'Connection')).to.deep.equal([['Connection', 'close']]);
    });

    it('sends no User-Agent when it is given empty, ours when none is given', async () => {
      await run([ok], { httpHeaders: [{ name: 'User-Agent', value: '' }] });
      expect(srv.requests[0]!.headers.some(([n]) => n === 'User-Agent')).to.equal(false);
      await run([ok]);
      expect(srv.requests[0]!.headers).to.deep.include(['User-Agent', USER_AGENT]);
      expect(srv.requests[0]!.headers).to.deep.include(['Accept', '*/*']);
    });
  });

  describe("HTTP/1.x that Go's client accepts", () => {
    const lenient: [string, string][] = [
      ['an HTTP/1.2 status line', 'HTTP/1.2 200 OK\r\nContent-Length: 2\r\n\r\nok'],
      ['bare LF line endings', 'HTTP/1.1 200 OK\nContent-Length: 2\n\nok'],
      [
        'Content-Length with Transfer-Encoding',
        'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
      ],
      ['a 32 KiB header block', `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(32 * 1024)}\r\nContent-Length: 2\r\n\r\nok`],
      ['no reason phrase', 'HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok'],
      // llhttp refuses these two in every mode; their status is read as Go reads it.
      ['Content-Length twice with one value', 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok'],
      ['a space in a header name', 'HTTP/1.1 200 OK\r\nX A: b\r\nContent-Length: 2\r\n\r\nok'],
    ];
    for (const [what, text] of lenient) {
      it(`passes on ${what}`, async () => {
        expect(await run([text])).to.include({
          result: 'success',
          message: 'HTTP probe succeeded with statuscode: 200',
        });
      });
    }

    const refused: [string, string, string][] = [
      [
        'a NUL in a header value',
        'HTTP/1.1 200 OK\r\nX-A: a\x00b\r\nContent-Length: 2\r\n\r\nok',
        'malformed MIME header line: "X-A: a\\x00b"',
      ],
      [
        'Transfer-Encoding gzip, chunked',
        'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
        'unsupported transfer encoding: "gzip, chunked"',
      ],
    ];
    for (const [what, text, go] of refused) {
      it(`fails on ${what}, which llhttp's lenient mode reads and Go refuses, in Go's words`, async () => {
        expect(await run([text])).to.include({
          result: 'failure',
          message: `Get "http://127.0.0.1:${srv.port}/r": net/http: HTTP/1.x transport connection broken: ${go}`,
        });
      });
    }

    it('fails on a header block above MAX_RESPONSE_HEADER_BYTES (Go allows 10 MiB; our bound per probe, docs/probe.md)', async () => {
      const res = await run([
        `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(MAX_RESPONSE_HEADER_BYTES + 1024)}\r\nContent-Length: 2\r\n\r\nok`,
      ]);
      expect(res).to.include({
        result: 'failure',
        message: `Get "http://127.0.0.1:${srv.port}/r": net/http: server response headers exceeded ${MAX_RESPONSE_HEADER_BYTES} bytes; aborted`,
      });
    });
  });

  describe('errors against failures, worded as Go', () => {
    it('fails with EOF when the server closes before a response', async () => {
      const res = await run([(s) => s.end()]);
      expect(res).to.include({ result: 'failure', message: `Get "http://127.0.0.1:${srv.port}/r": EOF` });
    });

    it("words a response head Node's parser refuses as Go's client does", async () => {
      const res = await run(['HTTP/1.1 abc OK\r\nContent-Length: 2\r\n\r\nok']);
      expect(res).to.include({
        result: 'failure',
        message: `Get "http://127.0.0.1:${srv.port}/r": net/http: HTTP/1.x transport connection broken: malformed HTTP status code "abc"`,
      });
    });

    it('words a head cut short as Go does (a partial line is read as a line)', async () => {
      const res = await run(['HTTP/1.1 200 OK\r\nContent-Le']);
      expect(res).to.include({
        result: 'failure',
        message: `Get "http://127.0.0.1:${srv.port}/r": net/http: HTTP/1.x transport connection broken: malformed MIME header: missing colon: "Content-Le"`,
      });
    });

    it('fails on a 101 nobody asked for, on its status, as Go returns it', async () => {
      const res = await run(['HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n']);
      expect(res).to.include({ result: 'failure', message: 'HTTP probe failed with statuscode: 101' });
    });

    it('errors with unexpected EOF when the body is cut short', async () => {
      const res = await run(['HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\nok']);
      expect(res).to.include({ result: 'error', code: 'ProbeErrored', message: 'unexpected EOF' });
    });

    it('errors with the read error when the connection is reset in the body', async () => {
      const res = await run([
        (s) => {
          s.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nab');
          setTimeout(() => s.resetAndDestroy(), 50);
        },
      ]);
      expect(res.result).to.equal('error');
      expect(res.code).to.equal('ProbeErrored');
      expect(res.message).to.match(
        new RegExp(`^read tcp 127\\.0\\.0\\.1:\\d+->127\\.0\\.0\\.1:${srv.port}: read: connection reset by peer$`),
      );
    });

    it('follows a redirect whose head only Go reads (a space in a header name)', async () => {
      const res = await run(['HTTP/1.1 302 Found\r\nX A: b\r\nLocation: /next\r\nContent-Length: 0\r\n\r\n', ok]);
      expect(res).to.include({ result: 'success', message: 'HTTP probe succeeded with statuscode: 200' });
      expect(srv.requests.map((r) => r.target)).to.deep.equal(['/r', '/next']);
    });

    it('does not read the body of a redirect it follows (Go ignores errors there)', async () => {
      const res = await run([
        (s) => {
          s.write(`HTTP/1.1 302 Found\r\nLocation: /next\r\nContent-Length: 100\r\n\r\nab`);
          setTimeout(() => s.resetAndDestroy(), 50);
        },
        ok,
      ]);
      expect(res).to.include({ result: 'success', message: 'HTTP probe succeeded with statuscode: 200' });
    });
  });
});
