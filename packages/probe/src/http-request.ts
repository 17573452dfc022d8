// One HTTP(S) GET on a new connection, bounded by an AbortSignal, reading at most a given number of body bytes,
// buffered or handed on chunk by chunk: the transport shared by the httpGet and apiServer handlers. It sends the
// request-target and headers it is given byte for byte (go-url.ts forms them as Go does), reads HTTP/1.x as leniently
// as Go's client (http1-limits below), and over TLS offers ALPN `h2, http/1.1` as the kubelet's transport does, speaking
// h2 (h2-request.ts) when the server picks it. Depends only on node:http/tls, the address guard and go-url.
import http from 'node:http';
import net, { type Socket } from 'node:net';
import tls from 'node:tls';
import type { AddressGuard } from './address-guard.js';
import { goHostname, goPort, toText, type GoUrl } from './go-url.js';
import { goReadResponseHead, goResponseHeadError } from './go-response-head.js';
import { h2Get } from './h2-request.js';
import { isHangUp, type Phase } from './net-error.js';
import { messageOf } from '@karmada-cluster-probe/schema/api';

/**
 * Bytes of a response's status line and header block, HTTP/1.x and h2 alike. Go's client allows 10 MiB
 * (Transport.maxHeaderResponseSize); the scheduler runs up to 512 probes at once (its default concurrency), so 10 MiB
 * each would be a 5 GiB worst case. 64 KiB is four times Node's default, twice the 32 KiB blocks seen from real
 * servers behind large cookies, and 32 MiB for 512 probes at once; a larger block fails the probe (stricter than Go,
 * docs/probe.md).
 */
export const MAX_RESPONSE_HEADER_BYTES = 64 * 1024;

/** Go's words for a response head above the bound. */
const HEADERS_EXCEEDED = `net/http: server response headers exceeded ${MAX_RESPONSE_HEADER_BYTES} bytes; aborted`;

/** Request headers in the order they are written: `[name, values]`, names as Go writes them (canonical). */
export type HeaderList = readonly (readonly [string, readonly string[]])[];

export interface GetOptions {
  url: GoUrl;
  /** The request-target (Go's RequestURI), a byte string. */
  target: string;
  /** The Host header (and h2 `:authority`), a byte string. */
  host: string;
  /** Every other header, written in this order (User-Agent and Accept included when wanted). */
  headers: HeaderList;
  guard: AddressGuard;
  signal: AbortSignal;
  maxBodyBytes: number;
  /**
   * Called with the status and Location once the headers are in: true ends the request there, unread (a redirect
   * that will be followed: Go discards its body and ignores errors reading it).
   */
  skipBody?: (status: number, location: string | undefined) => boolean;
  /**
   * Streams the body instead of buffering it: each chunk (within maxBodyBytes) is handed over as it arrives, with the
   * status, and `body` stays empty. Return true to stop reading (the connection is closed). What it throws rejects
   * the request as it is, not as a TransportError.
   */
  onBody?: (chunk: Buffer, status: number) => boolean;
  secureContext?: tls.SecureContext;
  rejectUnauthorized?: boolean;
}

export interface GetResponse {
  status: number;
  location?: string;
  contentType?: string;
  body: Buffer;
  /** The body went past maxBodyBytes; only that many bytes were read. */
  truncated: boolean;
  /** Body bytes read (handed to onBody, or buffered). */
  bytesRead: number;
  /** onBody asked to stop before the body ended. */
  stopped: boolean;
  /** The body was not read (skipBody). */
  skipped: boolean;
  protocol: 'HTTP/1.1' | 'h2';
}

/** A transport failure, with the phase it happened in (for the timeout wording) and the underlying error. */
export class TransportError extends Error {
  constructor(
    readonly phase: Phase,
    override readonly cause: unknown,
    readonly aborted: boolean,
    /** `local->remote` as Go's net.OpError prints a connected socket, once connected. */
    readonly socketAddr?: string,
  ) {
    super(messageOf(cause));
    this.name = 'TransportError';
  }
}

/** `host:port` as Go prints a dial address. */
export function dialAddress(url: GoUrl): string {
  const port = goPort(url) !== '' ? goPort(url) : url.scheme === 'https' ? '443' : '80';
  const host = toText(goHostname(url));
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function joinAddr(host: string | undefined, port: number | undefined): string {
  const h = host ?? '';
  return `${h.includes(':') ? `[${h}]` : h}:${port ?? 0}`;
}

/** The socket's `local->remote`, as Go's errors on a connected socket print it. */
export function socketAddress(socket: Socket): string | undefined {
  if (socket.remoteAddress === undefined) return undefined;
  return `${joinAddr(socket.localAddress, socket.localPort)}->${joinAddr(socket.remoteAddress, socket.remotePort)}`;
}

/** The response of either path, from its head and what its BodyReader read (none when the body was skipped). */
export function responseOf(
  head: {
    status: number;
    location: string | undefined;
    contentType: string | undefined;
    protocol: GetResponse['protocol'];
  },
  reader: BodyReader | undefined,
  skipped: boolean,
): GetResponse {
  return {
    status: head.status,
    ...(head.location !== undefined ? { location: head.location } : {}),
    ...(head.contentType !== undefined ? { contentType: head.contentType } : {}),
    body: reader?.body() ?? Buffer.alloc(0),
    truncated: reader?.truncated ?? false,
    bytesRead: reader?.size ?? 0,
    stopped: reader?.stopped ?? false,
    skipped,
    protocol: head.protocol,
  };
}

/** Body bookkeeping shared by the HTTP/1.x and h2 paths. */
export class BodyReader {
  private readonly chunks: Buffer[] = [];
  size = 0;
  truncated = false;
  stopped = false;

  constructor(
    private readonly opts: Pick<GetOptions, 'maxBodyBytes' | 'onBody'>,
    private readonly status: number,
  ) {}

  /** Takes a chunk; returns true when reading is over (the limit reached or onBody asked to stop). */
  take(chunk: Buffer, more: () => boolean): boolean {
    const room = this.opts.maxBodyBytes - this.size;
    const part = chunk.length >= room ? chunk.subarray(0, room) : chunk;
    this.size += part.length;
    if (this.opts.onBody === undefined) this.chunks.push(part);
    else this.stopped = this.opts.onBody(part, this.status);
    if (chunk.length >= room) {
      this.truncated = !this.stopped && (chunk.length > room || more());
      return true;
    }
    return this.stopped;
  }

  body(): Buffer {
    return this.opts.onBody === undefined ? Buffer.concat(this.chunks, this.size) : Buffer.alloc(0);
  }
}

export function getOnce(opts: GetOptions): Promise<GetResponse> {
  return new Promise<GetResponse>((resolve, reject) => {
    let phase: Phase = 'connect';
    let settled = false;
    let socket: Socket | undefined;
    let socketAddr: string | undefined;
    /** The socket's own error (a reset), which Node reports on the response only as `aborted`. */
    let socketError: unknown;
    const cleanups: (() => void)[] = [];
    const cleanup = (): void => {
      opts.signal.removeEventListener('abort', onAbort);
      for (const c of cleanups) c();
      socket?.destroy();
    };
    /** The first bytes of the response (bounded), kept to word a refused or cut head as Go would. */
    const head: Buffer[] = [];
    let headBytes = 0;
    const fail = (err: unknown): void => {
      if (settled) return;
      settled = true;
      const reset = (socketError as { code?: unknown } | undefined)?.code === 'ECONNRESET' ? socketError : undefined;
      cleanup();
      reject(new TransportError(phase, reset ?? asGo(err), opts.signal.aborted, socketAddr));
    };
    /**
     * A head llhttp refuses in every mode but Go's client reads (Content-Length twice with one value, a space in a
     * header name): its status as Go reads it, so the verdict is the kubelet's. Its body is what already came (never
     * shown, and a status is what is judged); a streamed body (the apiServer lists) is not read so.
     */
    const readAsGo = (o: GetOptions, err: unknown): GetResponse | undefined => {
      const code = (err as { code?: unknown } | undefined)?.code;
      if (phase === 'body' || headBytes === 0 || o.onBody !== undefined) return undefined;
      if (code !== 'HPE_UNEXPECTED_CONTENT_LENGTH' && code !== 'HPE_INVALID_HEADER_TOKEN') return undefined;
      const data = Buffer.concat(head).toString('latin1');
      const h = goReadResponseHead(data, false);
      if (!('status' in h)) return undefined;
      const location = h.fields.get('location')?.[0];
      const contentType = h.fields.get('content-type')?.[0];
      const skipped = o.skipBody?.(h.status, location) === true;
      const body = skipped ? Buffer.alloc(0) : Buffer.from(data.slice(h.end), 'latin1').subarray(0, o.maxBodyBytes);
      return {
        status: h.status,
        ...(location !== undefined ? { location } : {}),
        ...(contentType !== undefined ? { contentType } : {}),
        body,
        truncated: false,
        bytesRead: body.length,
        stopped: false,
        skipped,
        protocol: 'HTTP/1.1',
      };
    };
    /** Node's parser refusals and cut heads in the words of Go's client (go-response-head.ts). */
    const asGo = (err: unknown): unknown => {
      const code = (err as { code?: unknown } | undefined)?.code;
      const parseError = typeof code === 'string' && code.startsWith('HPE_');
      if (phase === 'body')
        return code === 'HPE_INVALID_CHUNK_SIZE' ? new GoProtocolError('invalid byte in chunk length') : err;
      if (headBytes === 0 || !(parseError || isHangUp(err))) return err;
      if (code === 'HPE_HEADER_OVERFLOW') return new GoProtocolError(HEADERS_EXCEEDED);
      const go = goResponseHeadError(Buffer.concat(head).toString('latin1'), isHangUp(err));
      return go === undefined ? err : new GoProtocolError(`net/http: HTTP/1.x transport connection broken: ${go}`);
    };
    const rejectAsIs = (e: unknown): void => {
      if (settled) return;
      settled = true;
      cleanup();
      reject(e instanceof Error ? e : new Error(String(e)));
    };
    const done = (r: GetResponse): void => {
      if (settled) return;
      settled = true;
      // A new connection per probe: nothing to keep, and the rest of a long body is not wanted.
      cleanup();
      resolve(r);
    };
    function onAbort(): void {
      fail(opts.signal.reason);
    }
    if (opts.signal.aborted) {
      fail(opts.signal.reason);
      return;
    }
    opts.signal.addEventListener('abort', onAbort, { once: true });

    const hostname = toText(goHostname(opts.url));
    let dial: string;
    try {
      dial = opts.guard.checkLiteral(hostname) ?? hostname;
    } catch (e) {
      fail(e);
      return;
    }
    const port = Number(goPort(opts.url) !== '' ? goPort(opts.url) : opts.url.scheme === 'https' ? 443 : 80);
    const onSocket = (s: Socket): void => {
      socket = s;
      s.on('error', (e) => {
        socketError ??= e;
      });
    };
    const dialIsIp = net.isIP(dial) !== 0;
    const connected = (): void => {
      if (phase === 'connect') phase = 'headers';
      // Kept for Go's `read tcp local->remote` wording; the remote is the address dialled when it is one (a
      // getpeername saved), else the socket's.
      if (socket !== undefined)
        socketAddr = dialIsIp
          ? `${joinAddr(socket.localAddress, socket.localPort)}->${joinAddr(dial, port)}`
          : socketAddress(socket);
    };

    if (opts.url.scheme !== 'https') {
      // The socket is ours (createConnection), not an Agent's: `agent: false` would build a new Agent for every probe
      // (its maps, listeners and options copies: a quarter of what a probe allocated, by V8's sampling heap profile in
      // bench/reconciler/memory.ts). Without one Node sends `Connection: close` as the Agent did; TCP_NODELAY as the
      // Agent sets it.
      http1(
        opts,
        {
          hostname: dial,
          port,
          createConnection: () => net.createConnection({ host: dial, port, lookup: opts.guard.lookup, noDelay: true }),
        },
        onSocket,
        connected,
      );
      return;
    }
    // TLS first, then the protocol the server chose: h2 (as Go's transport configured by SetTransportDefaults) or
    // HTTP/1.1. The name verified is the URL's host, not a Host header (as Go's tls.Config.ServerName).
    const isIp = /^[0-9.]+$/.test(hostname) || hostname.includes(':');
    const t = tls.connect({
      host: dial,
      port,
      lookup: opts.guard.lookup,
      ALPNProtocols: ['h2', 'http/1.1'],
      ...(isIp ? {} : { servername: hostname }),
      rejectUnauthorized: opts.rejectUnauthorized ?? true,
      ...(opts.secureContext !== undefined ? { secureContext: opts.secureContext } : {}),
    });
    onSocket(t);
    t.once('error', fail);
    t.once('secureConnect', () => {
      connected();
      t.removeListener('error', fail);
      // What node:http or node:http2 throws while forming the request would be thrown out of this socket event, an
      // uncaught exception that ends the process: it fails this probe instead.
      try {
        if (t.alpnProtocol === 'h2') {
          h2Get(opts, t, {
            onHeaders: () => {
              phase = 'body';
            },
            done,
            fail,
            rejectAsIs,
            addCleanup: (c) => cleanups.push(c),
          });
          return;
        }
        http1(
          opts,
          { createConnection: () => t },
          () => undefined,
          () => undefined,
        );
      } catch (e) {
        fail(e);
      }
    });

    function http1(
      o: GetOptions,
      conn: http.RequestOptions,
      socketSeen: (s: Socket) => void,
      onConnect: () => void,
    ): void {
      // Go's Request.write sends an empty Host rather than one with a byte no host can hold (a space, a non-ASCII
      // byte: Go would have made it punycode first).
      const headers: Record<string, string | string[]> = { Host: validHostHeader(o.host) ? o.host : '' };
      for (const [name, values] of o.headers) headers[name] = values.length === 1 ? values[0]! : [...values];
      // Go's transport (DisableKeepAlives) adds `Connection: close` after the caller's own Connection values, unless
      // they already ask to close or switch protocols; Node adds it only when there is no Connection header at all.
      const connection = o.headers.find(([n]) => n.toLowerCase() === 'connection');
      if (connection !== undefined) {
        const tokens = connection[1].flatMap((v) =>
          v
            .toLowerCase()
            .split(',')
            .map((t) => t.trim()),
        );
        const upgrade = tokens.includes('upgrade') && o.headers.some(([n]) => n.toLowerCase() === 'upgrade');
        if (!tokens.includes('close') && !upgrade) headers[connection[0]] = [...connection[1], 'close'];
      }
      const req = http.request({
        method: 'GET',
        // Replaced below: Node refuses a target with a space (Go sends a query's space as it is).
        path: '/',
        headers,
        setHost: false,
        // Go's client reads what llhttp's strict mode refuses (HTTP/1.2, bare LF, Content-Length with
        // Transfer-Encoding); the connection is never reused, so no request can be smuggled behind a response.
        insecureHTTPParser: true,
        maxHeaderSize: MAX_RESPONSE_HEADER_BYTES,
        ...conn,
      });
      // An own property, not the assignment: Node 24 validates `path` in a setter (ERR_UNESCAPED_CHARACTERS, thrown
      // where no listener hears it) and Node 20 does not; the header is written from this.path either way.
      Object.defineProperty(req, 'path', { value: o.target, writable: true, configurable: true, enumerable: true });
      cleanups.push(() => req.destroy());
      req.on('socket', (s) => {
        socketSeen(s);
        // First in line: Node's parser, listening before us, may refuse this very chunk.
        s.prependListener('data', (d: Buffer) => {
          if (phase === 'body') return;
          // Bytes before the final response are heads (1xx ones included), which llhttp bounds one at a time only:
          // Go bounds them together, and an endless run of `103`s would be read until the timeout.
          if (headBytes > MAX_RESPONSE_HEADER_BYTES) {
            fail(new GoProtocolError(HEADERS_EXCEEDED));
            return;
          }
          head.push(d);
          headBytes += d.length;
        });
        if (s.remoteAddress !== undefined && !s.connecting) onConnect();
        else s.once('connect', onConnect);
      });
      req.on('error', (e) => {
        const read = readAsGo(o, e);
        if (read !== undefined) done(read);
        else fail(e);
      });
      // A 101 nobody asked for: Go's client returns it as the response (the probe fails on its status).
      req.on('upgrade', (res) => {
        done({
          status: res.statusCode ?? 101,
          body: Buffer.alloc(0),
          truncated: false,
          bytesRead: 0,
          stopped: false,
          skipped: false,
          protocol: 'HTTP/1.1',
        });
      });
      req.on('response', (res) => {
        // What llhttp's lenient mode reads but Go's client refuses (a control byte in a header value, a transfer
        // coding other than chunked): refused here too, in Go's words, so the verdict is the kubelet's.
        const goRefuses = mayGoRefuse(res)
          ? goResponseHeadError(Buffer.concat(head).toString('latin1'), false)
          : undefined;
        if (goRefuses !== undefined) {
          fail(new GoProtocolError(`net/http: HTTP/1.x transport connection broken: ${goRefuses}`));
          return;
        }
        phase = 'body';
        const status = res.statusCode ?? 0;
        const location = firstHeader(res.headers.location);
        const contentType = firstHeader(res.headers['content-type']);
        const response = (reader: BodyReader | undefined, skipped: boolean): GetResponse =>
          responseOf({ status, location, contentType, protocol: 'HTTP/1.1' }, reader, skipped);
        if (o.skipBody?.(status, location) === true) {
          done(response(undefined, true));
          return;
        }
        const reader = new BodyReader(o, status);
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          let over: boolean;
          try {
            over = reader.take(chunk, () => !res.readableEnded);
          } catch (e) {
            rejectAsIs(e);
            return;
          }
          if (over) done(response(reader, false));
        });
        res.on('end', () => done(response(reader, false)));
        // Node's `aborted` error (the socket closed mid-body) is the `aborted` event's: judged as that, a tick later.
        res.on('error', (e) => (e.message === 'aborted' ? undefined : fail(e)));
        // A body cut short: by a reset (the socket's error says so) or by a close, Go's `unexpected EOF`.
        // (A tick later: a reset's socket error can come just after the response's `aborted`.)
        res.on('aborted', () => setImmediate(() => fail(new UnexpectedEof())));
      });
      req.end();
    }
  });
}

/** Go's httpguts.ValidHostHeader: the bytes a Host may hold (letters, digits and `!$%&'()*+,-.:;=[]_~`). */
const VALID_HOST = /^[A-Za-z0-9!$%&'()*+,\-.:;=[\]_~]*$/;

export function validHostHeader(host: string): boolean {
  return VALID_HOST.test(host);
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;

/**
 * Whether the head has what lenient llhttp reads and Go refuses (a control byte in a value, a transfer coding other
 * than chunked): only then is it read again by Go's rules, which would cost every probe a few microseconds.
 */
function mayGoRefuse(res: http.IncomingMessage): boolean {
  const te = res.headers['transfer-encoding'];
  if (te !== undefined && te.toLowerCase() !== 'chunked') return true;
  const raw = res.rawHeaders;
  for (let i = 1; i < raw.length; i += 2) if (CONTROL.test(raw[i]!)) return true;
  return false;
}

/** A protocol error in the words of Go's client, shown as it is. */
export class GoProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoProtocolError';
  }
}

/** The body ended before its length (Go's io.ErrUnexpectedEOF). */
export class UnexpectedEof extends Error {
  constructor() {
    super('unexpected EOF');
    this.name = 'UnexpectedEof';
  }
}

function firstHeader(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
