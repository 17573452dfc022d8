// The httpGet transport against hostile servers and hostile probe configurations on 127.0.0.1: raw TCP and TLS sockets
// that write what no HTTP library would, and an h2 server written frame by frame. Each test is an attack that once
// got through: an exception thrown out of a socket event (which ends the reconciler's process), a bound in bytes that
// held only in time, or work that held the event loop all probes share. The deadlines only catch hangs.
import http2 from 'node:http2';
import tls from 'node:tls';
import { expect } from 'chai';
import { MAX_RESPONSE_HEADER_BYTES, runProbe, type HttpHeader } from '../../../packages/probe/src/index.js';
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

/** One h2 frame (RFC 9113 4.1). */
function frame(type: number, flags: number, stream: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(stream, 5);
  return Buffer.concat([head, payload]);
}

/** An HPACK integer with a 7-bit prefix (RFC 7541 5.1). */
function hpackInt(n: number): Buffer {
  if (n < 127) return Buffer.from([n]);
  const out = [127];
  let rest = n - 127;
  while (rest >= 128) {
    out.push((rest & 127) | 128);
    rest >>= 7;
  }
  out.push(rest);
  return Buffer.from(out);
}

/** A literal header field without indexing, new name (RFC 7541 6.2.2): no table state to keep. */
function field(name: string, value: string): Buffer {
  return Buffer.concat([
    Buffer.from([0]),
    hpackInt(name.length),
    Buffer.from(name),
    hpackInt(value.length),
    Buffer.from(value),
  ]);
}

const HEADERS = 1;
const CONTINUATION = 9;
const END_STREAM = 1;
const END_HEADERS = 4;
/** The server's preface (an empty SETTINGS) and its ACK of the client's SETTINGS. */
const SERVER_PREFACE = Buffer.concat([frame(4, 0, 0, Buffer.alloc(0)), frame(4, 1, 0, Buffer.alloc(0))]);

/** Writes what `gen` makes for as long as the socket takes it (backpressure kept: the flood is the client's pace). */
function flood(socket: tls.TLSSocket, gen: () => Buffer): void {
  const go = (): void => {
    while (!socket.destroyed && socket.write(gen()));
  };
  socket.on('drain', go);
  go();
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
  describe('an h2 server written frame by frame', () => {
    /** A raw TLS server choosing h2 that, once the client's preface is in, sends its own and then `respond`. */
    const h2Server = (respond: (s: tls.TLSSocket) => void) =>
      rawTlsServer(pki, ['h2'], (s) => {
        s.write(SERVER_PREFACE);
        respond(s);
      });

    it(`fails on a response header block above ${MAX_RESPONSE_HEADER_BYTES} bytes sent in CONTINUATION frames (node:http2 took up to ~144 KiB)`, async () => {
      const block = Buffer.concat([
        field(':status', '200'),
        ...Array.from({ length: 100 }, (_, i) => field(`x-pad-${i}`, 'a'.repeat(1000))),
      ]);
      const parts: Buffer[] = [];
      for (let i = 0; i < block.length; i += 16_000) parts.push(block.subarray(i, i + 16_000));
      const { server, port } = await h2Server((s) =>
        s.write(
          Buffer.concat(
            parts.map((p, i) =>
              frame(
                i === 0 ? HEADERS : CONTINUATION,
                (i === 0 ? END_STREAM : 0) | (i === parts.length - 1 ? END_HEADERS : 0),
                1,
                p,
              ),
            ),
          ),
        ),
      );
      try {
        expect(await https(port)).to.deep.include({
          result: 'failure',
          message: `Get "https://127.0.0.1:${port}/": http2: response header list larger than advertised limit`,
        });
      } finally {
        await close(server);
      }
    });

    it('fails once 1xx header blocks pass the bound, as Go, not at the timeout (they cost a core and 100 MiB of RSS a second)', async () => {
      const early = frame(
        HEADERS,
        END_HEADERS,
        1,
        Buffer.concat([field(':status', '103'), field('link', 'a'.repeat(500))]),
      );
      const { server, port } = await h2Server((s) =>
        flood(s, () => Buffer.concat(Array.from({ length: 50 }, () => early))),
      );
      try {
        expect(await https(port)).to.deep.include({
          result: 'failure',
          message: `Get "https://127.0.0.1:${port}/": header list too large`,
        });
      } finally {
        await close(server);
      }
    });
  });

  it(`fails once HTTP/1.1 1xx heads pass ${MAX_RESPONSE_HEADER_BYTES} bytes in all, as Go counts them, not at the timeout`, async () => {
    const raw = await rawServer((s) => {
      const early = Buffer.from('HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n'.repeat(100));
      const go = (): void => {
        while (!s.destroyed && s.write(early));
      };
      s.on('drain', go);
      go();
    });
    try {
      const res = await runProbe(
        { httpGet: { host: '127.0.0.1', port: raw.port }, timeoutSeconds: LONG_TIMEOUT_S },
        { denyList: [] },
      );
      expect(res).to.deep.include({
        result: 'failure',
        message: `Get "http://127.0.0.1:${raw.port}/": net/http: server response headers exceeded ${MAX_RESPONSE_HEADER_BYTES} bytes; aborted`,
      });
    } finally {
      await close(raw.server);
    }
  });
});
