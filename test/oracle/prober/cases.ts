// The shared case table of issue 29: real servers on 127.0.0.0/8 and ::1 that the kubelet's prober (the Go oracle,
// test/oracle/kubernetes/prober) and our engine both probe, row by row. Ordinary servers (statuses, slow headers and
// bodies, large bodies, TLS, h2-only TLS, gRPC health in every status) and hostile ones written as raw bytes (status
// lines, line endings, duplicate and oversized headers, CL+TE, early close, redirects of every shape), plus the request
// the probe sends (paths, repeated and empty headers). judge.ts runs a row; differences.ts lists the rows that differ.
//
// Not in the table: a TLS handshake that never completes. The kubelet's own message for it is a race inside Go's
// transport (`context deadline exceeded` or `net/http: request canceled while waiting for connection (Client.Timeout
// exceeded while awaiting headers)`, whichever goroutine sees the deadline first), so no row could assert it.
//
// Time: a row that must time out has timeoutSeconds 1 and a server that never answers (it lets go after HOLD_CAP_MS,
// 20 s); a row that must not time out has timeoutSeconds 5 and a server that answers at once or after SLOW_MS (300 ms).
// Both margins are seconds wide, so the machine's load cannot move a verdict.
import * as grpc from '@grpc/grpc-js';
import { STATUS_CODES } from 'node:http';
import { networkInterfaces } from 'node:os';
import { b64, testPki } from '../../integration/probe/certs.js';
import {
  blackHole,
  grpcServer,
  h2cServer,
  h2OnlyServer,
  rawHttpServer,
  refusedPort,
  tcpServer,
  type CheckAnswer,
  type Endpoint,
  type RespondContext,
  type Responder,
  type RunningServer,
} from './servers.js';

/** A delay well inside the 5 s timeout of the rows that use it, and far above any scheduling jitter that matters. */
export const SLOW_MS = 300;
/** timeoutSeconds of rows whose server answers. */
const ANSWERS = 5;
/** timeoutSeconds of rows that time out. */
const TIMES_OUT = 1;

export interface HttpGetSpec {
  scheme?: 'HTTP' | 'HTTPS';
  host: string;
  port: number | string;
  path?: string;
  httpHeaders?: { name: string; value: string }[];
  /** Ours only (the kubelet has neither): the CA to verify against, or the explicit opt-out. */
  caBundle?: string;
  insecureSkipTLSVerify?: boolean;
}

/** One probe, as our engine takes it; judge.ts derives the kubelet's v1.Probe from it. */
export type CaseProbe = { timeoutSeconds: number } & (
  | { httpGet: HttpGetSpec }
  | { tcpSocket: { host: string; port: number | string } }
  | { grpc: { host: string; port: number; service?: string } }
);

export interface ProberRow {
  name: string;
  /** The row needs the IPv6 loopback (::1). */
  ipv6?: boolean;
  /** Starts the row's servers: the target first; `others` are probed only if something redirects there. */
  serve(): Promise<{ target: RunningServer; others: RunningServer[] }>;
  probe(target: Endpoint): CaseProbe | Promise<CaseProbe>;
}

// ---- responders: raw HTTP/1.x bytes ----

const reason = (status: number): string => STATUS_CODES[status] ?? 'Whatever';

/** A well-formed HTTP/1.1 response with Content-Length, then the connection is closed. */
function reply(status: number, opts: { headers?: [string, string][]; body?: string | Buffer } = {}): Responder {
  return (sock) => {
    const body = typeof opts.body === 'string' ? Buffer.from(opts.body) : (opts.body ?? Buffer.alloc(0));
    const head = [`HTTP/1.1 ${status} ${reason(status)}`, ...(opts.headers ?? []).map(([n, v]) => `${n}: ${v}`)];
    const noBody = status === 204 || status === 304 || status < 200;
    if (!noBody) head.push(`Content-Length: ${body.length}`);
    head.push('Connection: close');
    sock.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), noBody ? Buffer.alloc(0) : body]));
  };
}

/** Exactly these bytes, then close (or hold the connection open with `hold`). */
function raw(bytes: string | ((ctx: RespondContext) => string), how: 'close' | 'hold' | 'reset' = 'close'): Responder {
  return (sock, _req, ctx) => {
    const data = Buffer.from(typeof bytes === 'string' ? bytes : bytes(ctx), 'latin1');
    if (how === 'close') sock.end(data);
    else if (how === 'reset') sock.write(data, () => sock.resetAndDestroy());
    else sock.write(data);
  };
}

/** By request-target; anything else gets `fallback` (a 200 "ok" by default). */
function route(paths: Record<string, Responder>, fallback: Responder = reply(200, { body: 'ok' })): Responder {
  return (sock, req, ctx) => (paths[req.target] ?? fallback)(sock, req, ctx);
}

/** A redirect with `status` to the Location `to` (computed from where the server listens), then 200 "ok" elsewhere. */
function redirect(to: string | ((ctx: RespondContext) => string), status = 302): Responder {
  return route({
    '/': (sock, req, ctx) =>
      reply(status, { headers: [['Location', typeof to === 'string' ? to : to(ctx)]], body: 'moved' })(sock, req, ctx),
  });
}

/** /r/N redirects to /r/N-1 (relative, or absolute with `absolute`) and /r/0 answers 200: a chain of N redirects. */
function chain(absolute = false): Responder {
  return (sock, req, ctx) => {
    const m = /^\/r\/(\d+)$/.exec(req.target);
    const n = m !== null ? Number(m[1]) : 0;
    if (n === 0) return reply(200, { body: 'end of chain' })(sock, req, ctx);
    const next = `/r/${n - 1}`;
    const location = absolute ? `http://${hostPort(ctx.self)}${next}` : next;
    reply(302, { headers: [['Location', location]], body: 'next' })(sock, req, ctx);
  };
}

/** Answers after SLOW_MS. */
const later =
  (respond: Responder): Responder =>
  (sock, req, ctx) => {
    const t = setTimeout(() => respond(sock, req, ctx), SLOW_MS);
    sock.once('close', () => clearTimeout(t));
  };

/** Writes the pieces SLOW_MS apart, then closes. */
const dripped =
  (pieces: string[]): Responder =>
  (sock) => {
    let i = 0;
    const next = (): void => {
      if (sock.destroyed) return;
      const piece = pieces[i++];
      if (piece === undefined) {
        sock.end();
        return;
      }
      sock.write(piece);
      setTimeout(next, SLOW_MS);
    };
    next();
  };

/** Reads the request and never answers (the server lets go after HOLD_CAP_MS). */
const silent: Responder = () => undefined;

const hostPort = (e: Endpoint): string => (e.host.includes(':') ? `[${e.host}]:${e.port}` : `${e.host}:${e.port}`);

const KIB = 1024;
const big = (n: number): string => 'x'.repeat(n);
/** A chunked body of `total` bytes in 8 KiB chunks. */
function chunked(total: number): string {
  let out = '';
  for (let left = total; left > 0; left -= 8 * KIB) {
    const size = Math.min(8 * KIB, left);
    out += `${size.toString(16)}\r\n${big(size)}\r\n`;
  }
  return `${out}0\r\n\r\n`;
}
/** Header lines of `count` headers X-Pad-i whose values add up to about `bytes`. */
function padHeaders(bytes: number, count: number): string {
  const each = Math.ceil(bytes / count);
  return Array.from({ length: count }, (_, i) => `X-Pad-${i}: ${big(each)}\r\n`).join('');
}

// ---- row builders ----

type HttpProbeFields = Omit<HttpGetSpec, 'host' | 'port'> & { host?: string; port?: number | string };

interface HttpRowOptions {
  host?: string;
  probe?: HttpProbeFields;
  timeoutSeconds?: number;
  /** A second server, on another host, that the target may redirect to (its endpoint is `ctx.other`). */
  other?: () => Promise<RunningServer>;
  tls?: 'valid' | 'expired';
}

function httpRow(name: string, respond: Responder, o: HttpRowOptions = {}): ProberRow {
  return {
    name,
    async serve() {
      const other = o.other !== undefined ? await o.other() : undefined;
      const pki = o.tls !== undefined ? await testPki() : undefined;
      const cert = o.tls === 'expired' ? pki?.expired : pki?.server;
      const target = await rawHttpServer(o.host ?? '127.0.0.1', respond, {
        ...(cert !== undefined ? { tlsOptions: { key: cert.key, cert: cert.cert } } : {}),
        ...(other !== undefined ? { other: { host: other.host, port: other.port } } : {}),
      });
      return { target, others: other !== undefined ? [other] : [] };
    },
    probe: (t) => ({
      timeoutSeconds: o.timeoutSeconds ?? ANSWERS,
      httpGet: { host: t.host, port: t.port, path: '/', ...(o.probe ?? {}) },
    }),
  };
}

/** A row whose probe sends `path` and headers to a server that answers 200 and records them. */
function requestRow(name: string, probe: HttpProbeFields): ProberRow {
  return httpRow(name, reply(200, { body: 'ok' }), { probe });
}

/**
 * An HTTPS row. With `withCa`, ours verifies against the test CA (the kubelet has no such field: it never verifies);
 * without, ours verifies against the system roots unless the row opts out.
 */
function tlsRow(
  name: string,
  respond: Responder,
  tls: 'valid' | 'expired',
  probe: HttpProbeFields,
  withCa = false,
): ProberRow {
  const row = httpRow(name, respond, { tls, probe: { scheme: 'HTTPS', ...probe } });
  if (!withCa) return row;
  return {
    ...row,
    probe: async (t) => {
      const p = await row.probe(t);
      const caBundle = b64((await testPki()).caPem);
      return 'httpGet' in p ? { ...p, httpGet: { ...p.httpGet, caBundle } } : p;
    },
  };
}

function serverRow(
  name: string,
  start: () => Promise<RunningServer>,
  probe: (t: Endpoint) => CaseProbe,
  others: () => Promise<RunningServer[]> = () => Promise.resolve([]),
): ProberRow {
  return {
    name,
    serve: async () => ({ target: await start(), others: await others() }),
    probe,
  };
}

const tcpRow = (name: string, start: () => Promise<RunningServer>, timeoutSeconds = ANSWERS, port?: string | number) =>
  serverRow(name, start, (t) => ({ timeoutSeconds, tcpSocket: { host: t.host, port: port ?? t.port } }));

const grpcRow = (name: string, start: () => Promise<RunningServer>, timeoutSeconds = ANSWERS, service?: string) =>
  serverRow(name, start, (t) => ({
    timeoutSeconds,
    grpc: { host: t.host, port: t.port, ...(service !== undefined ? { service } : {}) },
  }));

const health =
  (answer: CheckAnswer, host = '127.0.0.1') =>
  (): Promise<RunningServer> =>
    grpcServer(host, () => answer);

// ---- the table ----

const V4 = '127.0.0.1';
const V6 = '::1';
const OTHER_V4 = '127.0.0.2';

const STATUS_ROWS: ProberRow[] = [200, 201, 204, 299, 300, 302, 304, 399, 400, 404, 500, 503, 599, 600].map((status) =>
  httpRow(`http: status ${status}${status === 302 ? ' without a Location' : ''}`, reply(status, { body: 'body' })),
);

const ORDINARY_HTTP: ProberRow[] = [
  ...STATUS_ROWS,
  httpRow('http: 200 on ::1', reply(200, { body: 'ok' }), { host: V6 }),
  httpRow('http: 200 on 127.0.0.2', reply(200, { body: 'ok' }), { host: OTHER_V4 }),
  httpRow('http: 200 with a 20 KiB body (Content-Length)', reply(200, { body: big(20 * KIB) })),
  httpRow('http: 503 with a 20 KiB body', reply(503, { body: big(20 * KIB) })),
  httpRow(
    'http: 200 with a 1 MiB chunked body',
    raw(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunked(1024 * KIB)}`),
  ),
  httpRow(
    'http: 200 with a 1 MiB body ended by close',
    raw(`HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n${big(1024 * KIB)}`),
  ),
  serverRow(
    'http: refused',
    () => refusedPort(V4),
    (t) => ({
      timeoutSeconds: ANSWERS,
      httpGet: { host: t.host, port: t.port, path: '/' },
    }),
  ),
  serverRow(
    'https: refused',
    () => refusedPort(V4),
    (t) => ({
      timeoutSeconds: ANSWERS,
      httpGet: { scheme: 'HTTPS', host: t.host, port: t.port, path: '/', insecureSkipTLSVerify: true },
    }),
  ),
  serverRow(
    'http: black-holed (timeout 1 s)',
    () => blackHole(V4),
    (t) => ({
      timeoutSeconds: TIMES_OUT,
      httpGet: { host: t.host, port: t.port, path: '/' },
    }),
  ),
  httpRow('http: headers after 300 ms (timeout 5 s)', later(reply(200, { body: 'ok' }))),
  httpRow('http: no answer (timeout 1 s)', silent, { timeoutSeconds: TIMES_OUT }),
  httpRow(
    'http: body in three pieces 300 ms apart (timeout 5 s)',
    dripped(['HTTP/1.1 200 OK\r\nContent-Length: 9\r\nConnection: close\r\n\r\n', 'abc', 'def', 'ghi']),
  ),
  httpRow(
    'http: body never ends (Content-Length 100, 10 bytes sent, timeout 1 s)',
    raw('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789', 'hold'),
    { timeoutSeconds: TIMES_OUT },
  ),
  httpRow('http: headers never end (timeout 1 s)', raw('HTTP/1.1 200 OK\r\nX-Slow: 1\r\n', 'hold'), {
    timeoutSeconds: TIMES_OUT,
  }),
  httpRow(
    'http: 100 Continue, then 200',
    raw('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'),
  ),
  httpRow(
    'http: 103 Early Hints, then 204',
    raw('HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n'),
  ),
  httpRow('http: HTTP/1.0 200 with the body ended by close', raw('HTTP/1.0 200 OK\r\n\r\nok')),
  httpRow('http: a status line without a reason phrase', raw('HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok')),
];

const HOSTILE_HTTP: ProberRow[] = [
  httpRow('hostile: status line HTTP/1.2 200', raw('HTTP/1.2 200 OK\r\nContent-Length: 2\r\n\r\nok')),
  httpRow('hostile: status line HTTP/2.0 200 over HTTP/1', raw('HTTP/2.0 200 OK\r\nContent-Length: 2\r\n\r\nok')),
  httpRow('hostile: status line HTTP/1.1 abc', raw('HTTP/1.1 abc OK\r\nContent-Length: 2\r\n\r\nok')),
  httpRow('hostile: two-digit status 20', raw('HTTP/1.1 20 OK\r\nContent-Length: 2\r\n\r\nok')),
  httpRow('hostile: four-digit status 2000', raw('HTTP/1.1 2000 OK\r\nContent-Length: 2\r\n\r\nok')),
  httpRow('hostile: a line that is no status line', raw('hello there\r\n\r\n')),
  httpRow('hostile: HTTP/0.9 (a body, no status line)', raw('ok\n')),
  httpRow('hostile: lowercase http/1.1', raw('http/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')),
  httpRow('hostile: bare LF line endings, 200', raw('HTTP/1.1 200 OK\nContent-Length: 2\n\nok')),
  httpRow('hostile: bare LF line endings, 503', raw('HTTP/1.1 503 Service Unavailable\nContent-Length: 2\n\nno')),
  httpRow('hostile: CRLF and bare LF mixed', raw('HTTP/1.1 200 OK\r\nContent-Length: 2\nX-A: b\r\n\r\nok')),
  httpRow(
    'hostile: a header line without a colon',
    raw('HTTP/1.1 200 OK\r\nNoColonHere\r\nContent-Length: 2\r\n\r\nok'),
  ),
  httpRow(
    'hostile: an obs-fold continuation line',
    raw('HTTP/1.1 200 OK\r\nX-A: b\r\n  c\r\nContent-Length: 2\r\n\r\nok'),
  ),
  httpRow('hostile: a space before the colon', raw('HTTP/1.1 200 OK\r\nContent-Length : 2\r\n\r\nok')),
  httpRow(
    'hostile: two equal Content-Length headers',
    raw('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok'),
  ),
  httpRow(
    'hostile: two different Content-Length headers',
    raw('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok!'),
  ),
  httpRow('hostile: Content-Length -1', raw('HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\nok')),
  httpRow(
    'hostile: Content-Length and Transfer-Encoding chunked',
    raw('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n'),
  ),
  httpRow(
    'hostile: Transfer-Encoding gzip, chunked',
    raw('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n'),
  ),
  httpRow(
    'hostile: a bad chunk size',
    raw('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nok\r\n0\r\n\r\n'),
  ),
  httpRow(
    'hostile: a 32 KiB header block',
    raw(`HTTP/1.1 200 OK\r\n${padHeaders(32 * KIB, 32)}Content-Length: 2\r\n\r\nok`),
  ),
  httpRow(
    'hostile: one 20 KiB header',
    raw(`HTTP/1.1 200 OK\r\nX-Big: ${big(20 * KIB)}\r\nContent-Length: 2\r\n\r\nok`),
  ),
  httpRow(
    'hostile: a 256 KiB header block',
    raw(`HTTP/1.1 200 OK\r\n${padHeaders(256 * KIB, 64)}Content-Length: 2\r\n\r\nok`),
  ),
  httpRow(
    'hostile: 300 duplicate headers',
    raw(`HTTP/1.1 200 OK\r\n${'X-Dup: 1\r\n'.repeat(300)}Content-Length: 2\r\n\r\nok`),
  ),
  httpRow('hostile: a NUL in a header value', raw('HTTP/1.1 200 OK\r\nX-A: a\u0000b\r\nContent-Length: 2\r\n\r\nok')),
  httpRow('hostile: a space in a header name', raw('HTTP/1.1 200 OK\r\nBad Name: x\r\nContent-Length: 2\r\n\r\nok')),
  httpRow('hostile: a 32 KiB reason phrase', raw(`HTTP/1.1 200 ${big(32 * KIB)}\r\nContent-Length: 2\r\n\r\nok`)),
  httpRow(
    'hostile: 101 Switching Protocols, not asked for',
    raw('HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n'),
  ),
  httpRow('hostile: closed before any byte (EOF)', raw('')),
  httpRow('hostile: reset before any byte (RST)', raw('', 'reset')),
  httpRow('hostile: closed in the status line', raw('HTTP/1.1 20')),
  httpRow('hostile: closed after the status line', raw('HTTP/1.1 200 OK\r\n')),
  httpRow('hostile: closed in the headers', raw('HTTP/1.1 200 OK\r\nContent-Le')),
  httpRow(
    'hostile: closed in the body (Content-Length 100, 10 sent)',
    raw('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789'),
  ),
  httpRow(
    'hostile: reset in the body (Content-Length 100, 10 sent)',
    raw('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789', 'reset'),
  ),
  httpRow('hostile: closed in a chunked body', raw('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n01234')),
  httpRow(
    'hostile: 503, closed in the body',
    raw('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 100\r\n\r\n0123456789'),
  ),
  // The prober's own HTTP/1.x client (issue 39) reads what follows by Go's rules, where Node's parser had its own.
  httpRow('hostile: an empty Content-Length', raw('HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\nok')),
  httpRow(
    'hostile: chunked with a bad Content-Length',
    raw('HTTP/1.1 200 OK\r\nContent-Length: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n'),
  ),
  httpRow('hostile: a folded first header line', raw('HTTP/1.1 200 OK\r\n X-A: b\r\nContent-Length: 2\r\n\r\nok')),
  httpRow(
    'hostile: a chunk-size line ending in a bare LF',
    raw('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\nok\r\n0\r\n\r\n'),
  ),
  httpRow(
    'hostile: a CR inside a chunk-size line',
    raw('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r;x\r\nok\r\n0\r\n\r\n'),
  ),
  httpRow(
    'hostile: chunk data without its CRLF',
    raw('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokX\r\n0\r\n\r\n'),
  ),
  httpRow(
    'hostile: 17 hex digits in a chunk size',
    raw('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n00000000000000002\r\nok\r\n0\r\n\r\n'),
  ),
  httpRow(
    'hostile: an empty chunk size',
    raw('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n;ext\r\nok\r\n0\r\n\r\n'),
  ),
  httpRow(
    'hostile: chunk extensions and a trailer',
    raw('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2 ;a=b\r\nok\r\n0;c\r\nX-Trailer: 1\r\n\r\n'),
  ),
  httpRow(
    'hostile: a trailer line without a colon',
    raw('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nbad\r\n\r\n'),
  ),
  httpRow(
    'hostile: closed in a trailer',
    raw('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nX-T'),
  ),
  httpRow(
    'hostile: a chunked body of one-byte chunks with 1 KiB extensions',
    raw(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${`1;${'e'.repeat(KIB)}\r\nx\r\n`.repeat(20)}0\r\n\r\n`),
  ),
  httpRow('hostile: a body on a 204', raw('HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\nhello')),
  httpRow(
    'hostile: HTTP/1.0 with Transfer-Encoding chunked (ignored, the body ends by close)',
    raw('HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nnot chunked'),
  ),
  httpRow(
    'hostile: six 103 Early Hints, then 200',
    raw(`${'HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n'.repeat(6)}HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok`),
  ),
  httpRow(
    'hostile: 1xx responses past the header bound',
    raw(`${`HTTP/1.1 103 Early Hints\r\nLink: ${big(8 * KIB)}\r\n\r\n`.repeat(9)}HTTP/1.1 200 OK\r\n\r\n`),
  ),
  httpRow('hostile: closed after a 100 Continue', raw('HTTP/1.1 100 Continue\r\n\r\n')),
  httpRow(
    'hostile: a body past 10 KiB, then a reset (read to the limit only)',
    raw(`HTTP/1.1 200 OK\r\nContent-Length: ${20 * KIB}\r\n\r\n${big(12 * KIB)}`, 'reset'),
  ),
];

const sameOther = (): Promise<RunningServer> => rawHttpServer(OTHER_V4, reply(200, { body: 'other host' }));

const REDIRECTS: ProberRow[] = [
  ...[301, 302, 303, 307, 308].map((status) =>
    httpRow(`redirect: ${status} to /ok on the same host`, redirect('/ok', status)),
  ),
  httpRow(
    'redirect: 302 to an absolute URL, same host and port',
    redirect((c) => `http://${hostPort(c.self)}/ok`),
  ),
  httpRow(
    'redirect: 302 to a relative path without a slash',
    route({ '/dir/start': reply(302, { headers: [['Location', 'ok']] }) }),
    {
      probe: { path: '/dir/start' },
    },
  ),
  httpRow('redirect: 302 to a query only', redirect('?q=1')),
  httpRow(
    'redirect: 302 to a scheme-relative URL',
    redirect((c) => `//${hostPort(c.self)}/ok`),
  ),
  httpRow(
    'redirect: 302 then 503',
    route({ '/': reply(302, { headers: [['Location', '/down']] }), '/down': reply(503) }),
  ),
  httpRow('redirect: 302 with an empty Location', redirect('')),
  httpRow(
    'redirect: 302 with two Location headers',
    route({ '/': raw('HTTP/1.1 302 Found\r\nLocation: /first\r\nLocation: /second\r\nContent-Length: 0\r\n\r\n') }),
  ),
  httpRow(
    'redirect: same host spelled 127.1',
    redirect((c) => `http://127.1:${c.self.port}/ok`),
  ),
  httpRow(
    'redirect: same host spelled 127.000.000.001',
    redirect((c) => `http://127.000.000.001:${c.self.port}/ok`),
  ),
  httpRow(
    'redirect: same host spelled 0x7f000001',
    redirect((c) => `http://0x7f000001:${c.self.port}/ok`),
  ),
  httpRow(
    'redirect: same host with a trailing dot',
    redirect((c) => `http://127.0.0.1.:${c.self.port}/ok`),
  ),
  httpRow(
    'redirect: same host spelled localhost',
    redirect((c) => `http://localhost:${c.self.port}/ok`),
  ),
  httpRow(
    'redirect: localhost to LOCALHOST',
    redirect((c) => `http://LOCALHOST:${c.self.port}/ok`),
    {
      probe: { host: 'localhost' },
    },
  ),
  httpRow(
    'redirect: localhost to localhost',
    redirect((c) => `http://localhost:${c.self.port}/ok`),
    {
      probe: { host: 'localhost' },
    },
  ),
  httpRow(
    'redirect: ::1 to [0:0:0:0:0:0:0:1]',
    redirect((c) => `http://[0:0:0:0:0:0:0:1]:${c.self.port}/ok`),
    {
      host: V6,
    },
  ),
  httpRow(
    'redirect: same host, another port',
    redirect((c) => `http://${c.other?.host ?? ''}:${c.other?.port ?? 0}/ok`),
    {
      other: () => rawHttpServer(V4, reply(200, { body: 'other port' })),
    },
  ),
  httpRow(
    'redirect: to another host (127.0.0.2)',
    redirect((c) => `http://${hostPort(c.other ?? c.self)}/ok`),
    {
      other: sameOther,
    },
  ),
  httpRow(
    'redirect: to HTTPS on the same host',
    redirect((c) => `https://${hostPort(c.other ?? c.self)}/ok`),
    {
      other: async () => {
        const { server } = await testPki();
        return rawHttpServer(V4, reply(200, { body: 'tls' }), { tlsOptions: { key: server.key, cert: server.cert } });
      },
      probe: { insecureSkipTLSVerify: true },
    },
  ),
  httpRow(
    'redirect: to ftp: on the same host',
    redirect((c) => `ftp://${hostPort(c.self)}/file`),
  ),
  httpRow('redirect: to file:///etc/passwd', redirect('file:///etc/passwd')),
  httpRow('redirect: to an unparsable URL (an IPv6 bracket never closed)', redirect('http://[::1')),
  httpRow('redirect: to a path with %zz', redirect('/%zz')),
  httpRow('redirect: to a host with a space', redirect('http://a b/')),
  httpRow('redirect: to a path with a space', redirect('/a b')),
  httpRow('redirect: to a path with a fragment', redirect('/ok#frag')),
  httpRow(
    'redirect: to an absolute URL without a path',
    route({
      '/start': (sock, req, ctx) =>
        reply(302, { headers: [['Location', `http://${hostPort(ctx.self)}`]] })(sock, req, ctx),
    }),
    { probe: { path: '/start' } },
  ),
  httpRow(
    'redirect: to an upper-case scheme',
    redirect((c) => `HTTP://${hostPort(c.self)}/ok`),
  ),
  httpRow(
    'redirect: a lower-case location header',
    route({ '/': raw('HTTP/1.1 302 Found\r\nlocation: /ok\r\nContent-Length: 0\r\n\r\n') }),
  ),
  httpRow(
    'redirect: to a URL with user:password',
    redirect((c) => `http://user:secret@${hostPort(c.self)}/ok`),
  ),
  httpRow("redirect: the probe's Authorization header on the next request", redirect('/ok'), {
    probe: { httpHeaders: [{ name: 'Authorization', value: 'Bearer t0ken' }] },
  }),
  httpRow('redirect: relative, with a Host header', redirect('/ok'), {
    probe: { httpHeaders: [{ name: 'Host', value: 'virtual.example' }] },
  }),
  httpRow(
    'redirect: absolute to the same host, with a Host header',
    redirect((c) => `http://${hostPort(c.self)}/ok`),
    {
      probe: { httpHeaders: [{ name: 'Host', value: 'virtual.example' }] },
    },
  ),
  httpRow(
    'redirect: ::1 to [::1]',
    redirect((c) => `http://[::1]:${c.self.port}/ok`),
    { host: V6 },
  ),
  httpRow(
    'redirect: the next hop never answers (timeout 1 s)',
    route({ '/': reply(302, { headers: [['Location', '/slow']] }), '/slow': silent }),
    {
      timeoutSeconds: TIMES_OUT,
    },
  ),
  httpRow(
    'redirect: from HTTPS to HTTP on the same host (no Referer on a downgrade)',
    redirect((c) => `http://${hostPort(c.other ?? c.self)}/ok`),
    {
      tls: 'valid',
      probe: { scheme: 'HTTPS', insecureSkipTLSVerify: true },
      other: () => rawHttpServer(V4, reply(200, { body: 'plain' })),
    },
  ),
  httpRow('redirect: a chain of 9 (relative)', chain(), { probe: { path: '/r/9' } }),
  httpRow('redirect: a chain of 10 (relative)', chain(), { probe: { path: '/r/10' } }),
  httpRow('redirect: a chain of 11 (relative)', chain(), { probe: { path: '/r/11' } }),
  httpRow('redirect: a chain of 11 (absolute)', chain(true), { probe: { path: '/r/11' } }),
  httpRow('redirect: a loop to itself', redirect('/')),
];

const REQUESTS: ProberRow[] = [
  requestRow('request: path with a space', { path: '/a b' }),
  requestRow('request: path with %zz', { path: '/%zz' }),
  requestRow('request: path with /../', { path: '/a/../etc/passwd' }),
  requestRow('request: path with a backslash', { path: '/a\\b' }),
  requestRow('request: path with a query', { path: '/healthz?verbose=1&x=a b' }),
  requestRow('request: path with a fragment', { path: '/healthz#frag' }),
  requestRow('request: path with non-ASCII', { path: '/café' }),
  requestRow('request: path with an encoded slash', { path: '/a%2Fb' }),
  requestRow('request: path starting with //', { path: '//double/slash' }),
  requestRow('request: empty path', { path: '' }),
  requestRow('request: repeated Host', {
    httpHeaders: [
      { name: 'Host', value: 'first.example' },
      { name: 'Host', value: 'second.example' },
    ],
  }),
  requestRow('request: Host with a port', { httpHeaders: [{ name: 'Host', value: 'example.com:8443' }] }),
  requestRow('request: repeated User-Agent', {
    httpHeaders: [
      { name: 'User-Agent', value: 'first/1' },
      { name: 'User-Agent', value: 'second/2' },
    ],
  }),
  requestRow('request: empty User-Agent', { httpHeaders: [{ name: 'User-Agent', value: '' }] }),
  requestRow('request: a custom User-Agent', { httpHeaders: [{ name: 'User-Agent', value: 'my-checker/2' }] }),
  requestRow('request: empty Accept', { httpHeaders: [{ name: 'Accept', value: '' }] }),
  requestRow('request: Accept application/json', { httpHeaders: [{ name: 'Accept', value: 'application/json' }] }),
  requestRow('request: repeated X-Custom keeps its order', {
    httpHeaders: [
      { name: 'X-Custom', value: 'b' },
      { name: 'X-Custom', value: 'a' },
    ],
  }),
  requestRow('request: a lowercase header name', { httpHeaders: [{ name: 'x-lower', value: 'v' }] }),
  requestRow('request: Connection: keep-alive', { httpHeaders: [{ name: 'Connection', value: 'keep-alive' }] }),
  requestRow('request: Authorization', { httpHeaders: [{ name: 'Authorization', value: 'Bearer t0ken' }] }),
  requestRow('request: an empty Host', { httpHeaders: [{ name: 'Host', value: '' }] }),
  requestRow('request: a header value with leading and trailing spaces', {
    httpHeaders: [{ name: 'X-Spaced', value: '  v  ' }],
  }),
  // Kubernetes' and our admission refuse these two; they show what each prober does when handed one anyway.
  requestRow('request: a header value with CR LF (header injection)', {
    httpHeaders: [{ name: 'X-Inject', value: 'a\r\nX-Injected: yes' }],
  }),
  requestRow('request: a header name with a space', { httpHeaders: [{ name: 'Bad Name', value: 'v' }] }),
];

const TLS: ProberRow[] = [
  tlsRow('tls: a valid chain (ours given the CA), 200', reply(200, { body: 'ok' }), 'valid', {}, true),
  tlsRow('tls: a valid chain (ours given the CA), 503', reply(503, { body: 'no' }), 'valid', {}, true),
  tlsRow('tls: a chain ours cannot verify (no CA given), 200', reply(200, { body: 'ok' }), 'valid', {}),
  tlsRow('tls: unverified, insecureSkipTLSVerify on ours, 200', reply(200, { body: 'ok' }), 'valid', {
    insecureSkipTLSVerify: true,
  }),
  tlsRow('tls: unverified, insecureSkipTLSVerify on ours, 503', reply(503, { body: 'no' }), 'valid', {
    insecureSkipTLSVerify: true,
  }),
  tlsRow('tls: an expired certificate (ours given the CA)', reply(200, { body: 'ok' }), 'expired', {}, true),
  tlsRow('tls: Host header localhost, insecureSkipTLSVerify on ours', reply(200, { body: 'ok' }), 'valid', {
    insecureSkipTLSVerify: true,
    httpHeaders: [{ name: 'Host', value: 'localhost' }],
  }),
  serverRow(
    'tls: HTTPS to a plain HTTP server (it answers 400 to the ClientHello)',
    () => tcpServer(V4, { greeting: 'HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n' }),
    (t) => ({
      timeoutSeconds: ANSWERS,
      httpGet: { scheme: 'HTTPS', host: t.host, port: t.port, path: '/', insecureSkipTLSVerify: true },
    }),
  ),
  httpRow('tls: HTTP to a TLS server', reply(200, { body: 'ok' }), { tls: 'valid' }),
  serverRow(
    'tls: h2-only (ALPN h2, no HTTP/1.1), 200, insecureSkipTLSVerify on ours',
    async () => {
      const { server } = await testPki();
      return h2OnlyServer(V4, { key: server.key, cert: server.cert }, { status: 200, body: 'ok' });
    },
    (t) => ({
      timeoutSeconds: ANSWERS,
      httpGet: { scheme: 'HTTPS', host: t.host, port: t.port, path: '/', insecureSkipTLSVerify: true },
    }),
  ),
  serverRow(
    'tls: h2-only, 503, insecureSkipTLSVerify on ours',
    async () => {
      const { server } = await testPki();
      return h2OnlyServer(V4, { key: server.key, cert: server.cert }, { status: 503, body: 'no' });
    },
    (t) => ({
      timeoutSeconds: ANSWERS,
      httpGet: { scheme: 'HTTPS', host: t.host, port: t.port, path: '/', insecureSkipTLSVerify: true },
    }),
  ),
];

const TCP: ProberRow[] = [
  tcpRow('tcp: a listener that closes', () => tcpServer(V4, 'close')),
  tcpRow('tcp: a listener that resets', () => tcpServer(V4, 'reset')),
  tcpRow('tcp: a listener that holds the connection', () => tcpServer(V4, 'hold')),
  tcpRow('tcp: a listener that greets', () => tcpServer(V4, { greeting: 'SSH-2.0-hello\r\n' })),
  tcpRow('tcp: a listener on ::1', () => tcpServer(V6, 'close')),
  tcpRow('tcp: a listener on 127.0.0.2', () => tcpServer(OTHER_V4, 'close')),
  serverRow(
    'tcp: host localhost',
    () => tcpServer(V4, 'close'),
    (t) => ({ timeoutSeconds: ANSWERS, tcpSocket: { host: 'localhost', port: t.port } }),
  ),
  tcpRow('tcp: refused on 127.0.0.1', () => refusedPort(V4)),
  tcpRow('tcp: refused on ::1', () => refusedPort(V6)),
  tcpRow('tcp: black-holed (timeout 1 s)', () => blackHole(V4), TIMES_OUT),
  serverRow(
    'tcp: the port as a string of digits',
    () => tcpServer(V4, 'close'),
    (t) => ({ timeoutSeconds: ANSWERS, tcpSocket: { host: t.host, port: String(t.port) } }),
  ),
  tcpRow('tcp: a port name nobody knows', () => tcpServer(V4, 'close'), ANSWERS, 'no-such-port'),
  tcpRow('tcp: port 0', () => refusedPort(V4), ANSWERS, 0),
];

const GRPC: ProberRow[] = [
  grpcRow('grpc: SERVING, service ""', health({ status: 1 })),
  grpcRow('grpc: SERVING, service "svc"', health({ status: 1 }), ANSWERS, 'svc'),
  grpcRow('grpc: NOT_SERVING', health({ status: 2 })),
  grpcRow('grpc: UNKNOWN', health({ status: 0 })),
  grpcRow('grpc: SERVICE_UNKNOWN', health({ status: 3 })),
  grpcRow('grpc: a status outside the enum (7)', health({ status: 7 })),
  grpcRow('grpc: NotFound', health({ code: grpc.status.NOT_FOUND, details: 'unknown service' }), ANSWERS, 'nope'),
  grpcRow('grpc: PermissionDenied', health({ code: grpc.status.PERMISSION_DENIED, details: 'go away' })),
  grpcRow('grpc: Unavailable from the handler', health({ code: grpc.status.UNAVAILABLE, details: 'draining' })),
  grpcRow('grpc: a health check that never answers (timeout 1 s)', health('hang'), TIMES_OUT),
  grpcRow('grpc: SERVING after 300 ms (timeout 5 s)', health({ status: 1, afterMs: SLOW_MS })),
  grpcRow('grpc: no health service (Unimplemented)', () => grpcServer(V4)),
  grpcRow('grpc: SERVING on ::1', health({ status: 1 }, V6)),
  grpcRow('grpc: a non-ASCII service name', health({ status: 1 }), ANSWERS, 'svc/ü'),
  grpcRow(
    'grpc: an HTTP/1.1 server on the port (timeout 1 s)',
    () => rawHttpServer(V4, reply(200, { body: 'ok' })),
    TIMES_OUT,
  ),
  grpcRow('grpc: a TCP listener that closes (timeout 1 s)', () => tcpServer(V4, 'close'), TIMES_OUT),
  grpcRow('grpc: a TCP listener that says nothing (timeout 1 s)', () => tcpServer(V4, 'hold'), TIMES_OUT),
  grpcRow('grpc: an HTTP/2 server answering 404 (not gRPC)', () => h2cServer(V4, 404)),
  grpcRow('grpc: an HTTP/2 server answering 200 text/html (not gRPC)', () => h2cServer(V4, 200)),
  grpcRow('grpc: refused (timeout 1 s)', () => refusedPort(V4), TIMES_OUT),
  grpcRow('grpc: refused on ::1 (timeout 1 s)', () => refusedPort(V6), TIMES_OUT),
  grpcRow('grpc: black-holed (timeout 1 s)', () => blackHole(V4), TIMES_OUT),
];

/** Whether this machine has the IPv6 loopback: without it the ::1 rows cannot run (prober.test.ts says so). */
export const HAS_IPV6_LOOPBACK = Object.values(networkInterfaces()).some((list) =>
  (list ?? []).some((i) => i.address === '::1'),
);

/** Every row, ::1 ones marked (each names ::1). */
export const ALL_PROBER_ROWS: readonly ProberRow[] = [
  ...ORDINARY_HTTP,
  ...HOSTILE_HTTP,
  ...REDIRECTS,
  ...REQUESTS,
  ...TLS,
  ...TCP,
  ...GRPC,
].map((row) => (row.name.includes('::1') ? { ...row, ipv6: true } : row));

/** The rows this machine can run. */
export const PROBER_ROWS: readonly ProberRow[] = HAS_IPV6_LOOPBACK
  ? ALL_PROBER_ROWS
  : ALL_PROBER_ROWS.filter((row) => row.ipv6 !== true);
