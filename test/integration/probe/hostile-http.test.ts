// The httpGet transport against hostile servers and hostile probe configurations on 127.0.0.1: raw TCP and TLS sockets
// that write what no HTTP library would, and an h2 server written frame by frame. Each test is an attack that once
// got through: an exception thrown out of a socket event (which ends the reconciler's process), a bound in bytes that
// held only in time, or work that held the event loop all probes share. The deadlines only catch hangs.
import http2 from 'node:http2';
import tls from 'node:tls';
import { expect } from 'chai';
import { runProbe, type HttpHeader } from '../../../packages/probe/src/index.js';
import { b64, testPki, type TestPki } from './certs.js';
import { close, listen, rawServer } from './servers.js';

/** A probe's timeout where the attack used to run to it: the attacks below must end long before. */
const LONG_TIMEOUT_S = 20;

/** A TLS server on raw sockets offering `alpn`: records each connection's bytes, answers with `respond`. */
async function rawTlsServer(
  pki: TestPki,
  alpn: string[],
  respond: (socket: tls.TLSSocket) => void,
): Promise<{ server: tls.Server; port: number; received: Buffer[] }> {
  const received: Buffer[] = [];
  const server = tls.createServer({ key: pki.server.key, cert: pki.server.cert, ALPNProtocols: alpn }, (socket) => {
    socket.on('error', () => undefined);
    const index = received.push(Buffer.alloc(0)) - 1;
    let answered = false;
    socket.on('data', (d: Buffer) => {
      received[index] = Buffer.concat([received[index]!, d]);
      if (!answered) {
        answered = true;
        respond(socket);
      }
    });
  });
  return { server, port: await listen(server), received };
}

describe('httpGet against hostile servers and configurations', function () {
  this.timeout(4 * LONG_TIMEOUT_S * 1000);
  let pki: TestPki;

  before(async () => {
    pki = await testPki();
  });

  const https = (port: number, extra: { httpHeaders?: HttpHeader[]; path?: string } = {}) =>
    runProbe(
      {
        httpGet: { scheme: 'HTTPS', host: '127.0.0.1', port, caBundle: b64(pki.caPem), ...extra },
        timeoutSeconds: LONG_TIMEOUT_S,
      },
      { denyList: [] },
    );

  describe('header values and Host from the configuration', () => {
    const EURO = [{ name: 'X-Sign', value: 'a€b' }];
    const EURO_BYTES = Buffer.from('X-Sign: a€b\r\n', 'utf8');

    it('sends a value outside Latin-1 as its UTF-8 bytes over TLS and HTTP/1.1, as Go (node:http threw out of the TLS event)', async () => {
      const { server, port, received } = await rawTlsServer(pki, ['http/1.1'], (s) =>
        s.end('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'),
      );
      try {
        expect((await https(port, { httpHeaders: EURO })).result).to.equal('success');
        expect(received[0]!.includes(EURO_BYTES)).to.equal(true);
      } finally {
        await close(server);
      }
    });

    it('sends it as its UTF-8 bytes over plain HTTP (it was `probe could not run`)', async () => {
      const raw = await rawServer((s) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'));
      try {
        const res = await runProbe(
          { httpGet: { host: '127.0.0.1', port: raw.port, httpHeaders: EURO }, timeoutSeconds: LONG_TIMEOUT_S },
          { denyList: [] },
        );
        expect(res.result).to.equal('success');
        expect(raw.requests[0]!.headers).to.deep.include(['X-Sign', Buffer.from('a€b').toString('latin1')]);
      } finally {
        await close(raw.server);
      }
    });

    describe('over h2', () => {
      let h2: http2.Http2SecureServer;
      let port: number;
      const seen: http2.IncomingHttpHeaders[] = [];

      before(async () => {
        h2 = http2.createSecureServer({ key: pki.server.key, cert: pki.server.cert, allowHTTP1: false });
        h2.on('stream', (stream, headers) => {
          seen.push(headers);
          stream.respond({ ':status': 200 });
          stream.end();
        });
        port = await listen(h2);
      });
      after(() => close(h2));

      it('sends a value outside Latin-1 as its UTF-8 bytes (it went out as the low byte of each char)', async () => {
        expect((await https(port, { httpHeaders: EURO })).result).to.equal('success');
        expect(seen.at(-1)!['x-sign']).to.equal(Buffer.from('a€b').toString('latin1'));
      });

      for (const host of ['a b', 'é'])
        it(`fails on a Host that is not a host (${JSON.stringify(host)}) before sending, as Go's h2 transport (node:http2 threw out of the TLS event)`, async () => {
          const before = seen.length;
          expect(await https(port, { httpHeaders: [{ name: 'Host', value: host }] })).to.deep.include({
            result: 'failure',
            message: `Get "https://127.0.0.1:${port}/": invalid Host header`,
          });
          expect(seen.length).to.equal(before);
        });

      it('sends a Host of `[` (bytes Go allows, no URL) as the :authority (node:http2 threw out of the TLS event)', async () => {
        expect((await https(port, { httpHeaders: [{ name: 'Host', value: '[' }] })).result).to.equal('success');
        expect(seen.at(-1)![':authority']).to.equal('[');
      });
    });

    it('sends a Host with a byte no host holds as an empty Host over HTTP/1.1, as Go (never as written)', async () => {
      const raw = await rawServer((s) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'));
      try {
        const res = await runProbe(
          {
            httpGet: { host: '127.0.0.1', port: raw.port, httpHeaders: [{ name: 'Host', value: 'a b' }] },
            timeoutSeconds: LONG_TIMEOUT_S,
          },
          { denyList: [] },
        );
        expect(res.result).to.equal('success');
        expect(raw.requests[0]!.headers).to.deep.include(['Host', '']);
      } finally {
        await close(raw.server);
      }
    });
  });
});
