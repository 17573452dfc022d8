// One HTTP(S) GET on a new connection, bounded by an AbortSignal, reading at most a given number of body bytes,
// counted or handed on chunk by chunk: the transport shared by the httpGet and apiServer handlers. It dials (through
// the address guard), then speaks HTTP/1.x with the prober's own client (http1.ts: the request as Go writes it, the
// response read with Go's rules) or, over TLS when the server picks it by ALPN (`h2, http/1.1`, as the kubelet's
// transport offers), h2 (h2-request.ts). A plain socket reads into one buffer this module reuses for every probe.
// Depends on node:net/tls, the address guard, go-url and the two transports.
import net, { type Socket } from 'node:net';
import tls from 'node:tls';
import { goHostname, goPort, toText, type GoUrl } from './go-url.js';
import { h2Get } from './h2-request.js';
import { Http1Exchange, requestHead, type ExchangeHooks } from './http1.js';
import type { Phase } from './net-error.js';
import type { GetOptions, GetResponse } from './response.js';
import { messageOf } from '@karmada-cluster-probe/schema/api';

export {
  BodyReader,
  GoProtocolError,
  MAX_RESPONSE_HEADER_BYTES,
  UnexpectedEof,
  responseOf,
  validHostHeader,
  type GetOptions,
  type GetResponse,
  type HeaderList,
} from './response.js';

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

/** One read buffer for every plain-HTTP probe: a read is handled before the next one can land in it. */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

export function getOnce(opts: GetOptions): Promise<GetResponse> {
  return new Promise<GetResponse>((resolve, reject) => new Get(opts, resolve, reject).start());
}

/** One GET: the dial, the protocol chosen, the deadline's signal, and the one settlement. */
class Get implements ExchangeHooks {
  private phase: Phase = 'connect';
  private settled = false;
  private socket: Socket | undefined;
  private socketAddr: string | undefined;
  /** The socket's own first error (a reset), preferred to what it caused. */
  private socketError: unknown;
  /** The server chose h2: the session hears the socket's errors. */
  private h2 = false;
  private exchange: Http1Exchange | undefined;
  private h2Cleanup: (() => void)[] | undefined;
  private dial = '';
  private port = 0;

  constructor(
    private readonly opts: GetOptions,
    private readonly resolve: (r: GetResponse) => void,
    private readonly reject: (e: Error) => void,
  ) {}

  start(): void {
    const opts = this.opts;
    if (opts.signal.aborted) {
      this.fail(opts.signal.reason);
      return;
    }
    opts.signal.addEventListener('abort', this.onAbort, { once: true });
    const head = requestHead(opts);
    if (typeof head !== 'string') {
      this.fail(head);
      return;
    }
    const hostname = toText(goHostname(opts.url));
    try {
      this.dial = opts.guard.checkLiteral(hostname) ?? hostname;
    } catch (e) {
      this.fail(e);
      return;
    }
    this.port = Number(goPort(opts.url) !== '' ? goPort(opts.url) : opts.url.scheme === 'https' ? 443 : 80);
    this.exchange = new Http1Exchange(opts, this);
    if (opts.url.scheme !== 'https') {
      const s = net.createConnection({
        host: this.dial,
        port: this.port,
        lookup: opts.guard.lookup,
        noDelay: true,
        onread: { buffer: READ_BUFFER, callback: this.onRead },
      });
      this.socket = s;
      s.on('error', this.onSocketError);
      s.once('connect', this.onConnect);
      s.once('end', this.onEnd);
      s.write(head, 'latin1');
      return;
    }
    // TLS first, then the protocol the server chose: h2 (as Go's transport configured by SetTransportDefaults) or
    // HTTP/1.1. The name verified is the URL's host, not a Host header (as Go's tls.Config.ServerName).
    const isIp = /^[0-9.]+$/.test(hostname) || hostname.includes(':');
    const t = tls.connect({
      host: this.dial,
      port: this.port,
      lookup: opts.guard.lookup,
      ALPNProtocols: ['h2', 'http/1.1'],
      ...(isIp ? {} : { servername: hostname }),
      rejectUnauthorized: opts.rejectUnauthorized ?? true,
      ...(opts.secureContext !== undefined ? { secureContext: opts.secureContext } : {}),
    });
    this.socket = t;
    t.on('error', this.onSocketError);
    t.once('secureConnect', () => {
      this.onConnect();
      // What node:http2 throws while forming the request would be thrown out of this socket event, an uncaught
      // exception that ends the process: it fails this probe instead.
      try {
        if (t.alpnProtocol === 'h2') {
          this.h2 = true;
          this.h2Cleanup = [];
          h2Get(opts, t, {
            onHeaders: () => this.onHeaders(),
            done: (r) => this.done(r),
            fail: (e) => this.fail(e),
            rejectAsIs: (e) => this.rejectAsIs(e),
            addCleanup: (c) => this.h2Cleanup!.push(c),
          });
          return;
        }
        t.on('data', this.onData);
        t.once('end', this.onEnd);
        t.write(head, 'latin1');
      } catch (e) {
        this.fail(e);
      }
    });
  }

  private readonly onAbort = (): void => this.fail(this.opts.signal.reason);

  private readonly onSocketError = (e: unknown): void => {
    this.socketError ??= e;
    if (!this.h2) this.fail(e);
  };

  private readonly onConnect = (): void => {
    if (this.phase === 'connect') this.phase = 'headers';
    // Kept for Go's `read tcp local->remote` wording; the remote is the address dialled when it is one (a getpeername
    // saved), else the socket's.
    const s = this.socket;
    if (s !== undefined)
      this.socketAddr =
        net.isIP(this.dial) !== 0
          ? `${joinAddr(s.localAddress, s.localPort)}->${joinAddr(this.dial, this.port)}`
          : socketAddress(s);
  };

  private readonly onRead = (n: number, buf: Buffer): boolean => {
    this.exchange!.data(buf, 0, n);
    return !this.settled;
  };

  private readonly onData = (d: Buffer): void => this.exchange!.data(d, 0, d.length);

  private readonly onEnd = (): void => this.exchange!.end();

  onHeaders(): void {
    this.phase = 'body';
  }

  fail(err: unknown): void {
    if (this.settled) return;
    this.settled = true;
    const se = this.socketError as { code?: unknown } | undefined;
    const reset = se?.code === 'ECONNRESET' ? se : undefined;
    this.cleanup();
    this.reject(new TransportError(this.phase, reset ?? err, this.opts.signal.aborted, this.socketAddr));
  }

  rejectAsIs(e: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.cleanup();
    this.reject(e instanceof Error ? e : new Error(String(e)));
  }

  done(r: GetResponse): void {
    if (this.settled) return;
    this.settled = true;
    // A new connection per probe: nothing to keep, and the rest of a long body is not wanted.
    this.cleanup();
    this.resolve(r);
  }

  private cleanup(): void {
    this.opts.signal.removeEventListener('abort', this.onAbort);
    if (this.h2Cleanup !== undefined) for (const c of this.h2Cleanup) c();
    this.socket?.destroy();
  }
}
