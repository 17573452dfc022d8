// The real servers of the prober table (cases.ts), on 127.0.0.0/8 and ::1: HTTP/1.x written byte by byte on raw
// `net`/`tls` sockets (so a hostile answer is exactly the bytes the row gives), h2-only TLS, gRPC health servers
// (@grpc/grpc-js), plain TCP listeners, a refused port and a black hole. Each records what it received: requests with
// their request-target and headers in arrival order, gRPC Check calls with their service, TCP connections.
//
// Everything stops by itself: a held connection is destroyed after HOLD_CAP_MS, a server closes after
// SERVER_LIFETIME_MS, the black hole's thread waits at most that long. Neither bound is on a verdict's path: the
// probes' own timeoutSeconds (1 to 5 s) end every probe long before.
import * as grpc from '@grpc/grpc-js';
import http2 from 'node:http2';
import net from 'node:net';
import tls from 'node:tls';
import { Worker } from 'node:worker_threads';
import {
  healthServiceDefinition,
  type HealthCheckRequest,
  type HealthCheckResponse,
} from '../../../packages/probe/src/index.js';

/** How long a server keeps a connection it never answers (longer than any probe's timeout, then it lets go). */
export const HOLD_CAP_MS = 20_000;
/** A server closes itself after this, should the test never close it. */
export const SERVER_LIFETIME_MS = 120_000;
/** Bytes of request head a raw HTTP server reads before it gives up on a request (Go sends a few hundred). */
const MAX_REQUEST_HEAD = 64 * 1024;

export interface ReceivedRequest {
  /** The request-target as it arrived (`/a%20b?q`), or the h2 `:path`. */
  target: string;
  /** Header fields in arrival order, names as sent; h2's `:authority` as `host`. */
  headers: [string, string][];
}

export interface Recording {
  /** HTTP requests (each head that arrived), in order. */
  requests: ReceivedRequest[];
  /** gRPC Check calls: the service asked for, and the metadata's user-agent. */
  checks: { service: string; userAgent: string }[];
  /** TCP connections accepted (tcp servers only; counted up to the settle marker). */
  connections: number;
}

export interface Endpoint {
  host: string;
  port: number;
}

export interface RunningServer extends Endpoint {
  recording: Recording;
  /** Resolves once everything the last probe sent has been recorded. */
  settle(): Promise<void>;
  /** Forgets what was recorded (between the kubelet's probe and ours). */
  reset(): void;
  close(): Promise<void>;
}

const emptyRecording = (): Recording => ({ requests: [], checks: [], connections: 0 });

/** What a raw HTTP server's responder gets: the request it read, the socket, and where it and its peers listen. */
export interface RespondContext {
  self: Endpoint;
  /** The row's second server (a redirect to another host), when it has one. */
  other?: Endpoint;
}

export type Responder = (sock: net.Socket, req: ReceivedRequest, ctx: RespondContext) => void;

function bounded<T extends net.Server | tls.Server | http2.Http2SecureServer>(server: T): T {
  const timer = setTimeout(() => server.close(), SERVER_LIFETIME_MS);
  timer.unref();
  server.on('close', () => clearTimeout(timer));
  return server;
}

function listenOn(server: net.Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port: 0 }, () => {
      server.off('error', reject);
      const addr = server.address();
      if (addr === null || typeof addr === 'string') reject(new Error('no port'));
      else resolve(addr.port);
    });
  });
}

function closeServer(server: net.Server, sockets: Set<net.Socket>): Promise<void> {
  for (const s of sockets) s.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Splits a request head (CRLF or bare LF) into its request-target and header fields, as they arrived. */
export function parseRequestHead(head: string): ReceivedRequest {
  const lines = head.split(/\r?\n/);
  const requestLine = lines.shift() ?? '';
  const firstSpace = requestLine.indexOf(' ');
  const lastSpace = requestLine.lastIndexOf(' ');
  const target = firstSpace >= 0 && lastSpace > firstSpace ? requestLine.slice(firstSpace + 1, lastSpace) : requestLine;
  const headers: [string, string][] = [];
  for (const line of lines) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    // Only the one space every client writes after the colon is dropped: whatever else was sent stays visible.
    const value = colon < 0 ? '' : line.slice(colon + 1);
    headers.push(colon < 0 ? [line, ''] : [line.slice(0, colon), value.startsWith(' ') ? value.slice(1) : value]);
  }
  return { target, headers };
}

/**
 * An HTTP/1.x server on raw sockets (TLS when `tlsOptions` is given): reads one request head, records it, and hands
 * the socket to `respond`, which writes whatever bytes the row wants and ends or holds the connection.
 */
export async function rawHttpServer(
  host: string,
  respond: Responder,
  opts: { tlsOptions?: tls.TlsOptions; other?: Endpoint } = {},
): Promise<RunningServer> {
  let recording = emptyRecording();
  const sockets = new Set<net.Socket>();
  const self: Endpoint = { host, port: 0 };
  const onSocket = (sock: net.Socket): void => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => sock.destroy());
    sock.setTimeout(HOLD_CAP_MS, () => sock.destroy());
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      const text = buffered.toString('latin1');
      const end = /\r?\n\r?\n/.exec(text);
      if (end === null) {
        if (buffered.length > MAX_REQUEST_HEAD) sock.destroy();
        return;
      }
      sock.off('data', onData);
      const req = parseRequestHead(text.slice(0, end.index));
      recording.requests.push(req);
      respond(sock, req, { self, ...(opts.other !== undefined ? { other: opts.other } : {}) });
    };
    sock.on('data', onData);
  };
  const server = bounded(
    opts.tlsOptions !== undefined
      ? tls.createServer(opts.tlsOptions, onSocket)
      : net.createServer({ noDelay: true }, onSocket),
  );
  // A TLS handshake that fails (a plaintext client, a client that refuses the certificate) is not a request.
  server.on('tlsClientError', () => undefined);
  self.port = await listenOn(server, host);
  return {
    host,
    port: self.port,
    get recording() {
      return recording;
    },
    settle: () => Promise.resolve(),
    reset: () => (recording = emptyRecording()),
    close: () => closeServer(server, sockets),
  };
}

/** An HTTPS server that speaks HTTP/2 only (ALPN h2, no HTTP/1.1 fallback), answering `status` with `body`. */
export async function h2OnlyServer(
  host: string,
  tlsOptions: tls.TlsOptions,
  answer: { status: number; body: string; headers?: Record<string, string> },
): Promise<RunningServer> {
  let recording = emptyRecording();
  const sockets = new Set<net.Socket>();
  const server: http2.Http2SecureServer = http2.createSecureServer({ ...tlsOptions, allowHTTP1: false });
  bounded(server);
  server.on('connection', (sock: net.Socket) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
  });
  server.on(
    'stream',
    (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, _flags: number, rawHeaders: string[]) => {
      const fields: [string, string][] = [];
      for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
        const name = rawHeaders[i] ?? '';
        const value = rawHeaders[i + 1] ?? '';
        if (name === ':authority') fields.push(['host', value]);
        else if (!name.startsWith(':')) fields.push([name, value]);
      }
      recording.requests.push({ target: String(headers[':path'] ?? ''), headers: fields });
      stream.on('error', () => undefined);
      stream.respond({ ':status': answer.status, ...(answer.headers ?? {}) });
      stream.end(answer.body);
    },
  );
  server.on('sessionError', () => undefined);
  const port = await listenOn(server as unknown as net.Server, host);
  return {
    host,
    port,
    get recording() {
      return recording;
    },
    settle: () => Promise.resolve(),
    reset: () => (recording = emptyRecording()),
    close: () => closeServer(server as unknown as net.Server, sockets),
  };
}

/** What a health server answers to one Check: a status number, a gRPC error, or nothing (held until the deadline). */
export type CheckAnswer = { status: number; afterMs?: number } | { code: grpc.status; details: string } | 'hang';

/** A gRPC server; with `check`, it serves grpc.health.v1.Health, else no service at all (Unimplemented). */
export async function grpcServer(host: string, check?: (service: string) => CheckAnswer): Promise<RunningServer> {
  let recording = emptyRecording();
  const server = new grpc.Server();
  const held = new Set<() => void>();
  if (check !== undefined) {
    server.addService(healthServiceDefinition, {
      check: (
        call: grpc.ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>,
        cb: grpc.sendUnaryData<HealthCheckResponse>,
      ) => {
        const ua = call.metadata.get('user-agent')[0];
        recording.checks.push({ service: call.request.service, userAgent: typeof ua === 'string' ? ua : '' });
        const answer = check(call.request.service);
        if (answer === 'hang') {
          // Answered (too late for any probe) only when the cap or close() lets it go.
          const release = (): void => {
            held.delete(release);
            clearTimeout(timer);
            cb({ code: grpc.status.UNAVAILABLE, details: 'released' });
          };
          const timer = setTimeout(release, HOLD_CAP_MS);
          timer.unref();
          held.add(release);
        } else if ('status' in answer) {
          if (answer.afterMs === undefined) cb(null, { status: answer.status });
          else setTimeout(() => cb(null, { status: answer.status }), answer.afterMs).unref();
        } else cb({ code: answer.code, details: answer.details });
      },
    });
  }
  const address = host.includes(':') ? `[${host}]:0` : `${host}:0`;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  const lifetime = setTimeout(() => server.forceShutdown(), SERVER_LIFETIME_MS);
  lifetime.unref();
  return {
    host,
    port,
    get recording() {
      return recording;
    },
    settle: () => Promise.resolve(),
    reset: () => (recording = emptyRecording()),
    close: async () => {
      clearTimeout(lifetime);
      for (const release of [...held]) release();
      server.forceShutdown();
    },
  };
}

/** A plaintext HTTP/2 server (h2c, prior knowledge) that is not gRPC: every stream gets `status` with an HTML body. */
export async function h2cServer(host: string, status: number): Promise<RunningServer> {
  let recording = emptyRecording();
  const sockets = new Set<net.Socket>();
  const server = http2.createServer();
  const timer = setTimeout(() => server.close(), SERVER_LIFETIME_MS);
  timer.unref();
  server.on('connection', (sock: net.Socket) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
  });
  server.on('stream', (stream, headers) => {
    recording.requests.push({ target: String(headers[':path'] ?? ''), headers: [] });
    stream.on('error', () => undefined);
    stream.respond({ ':status': status, 'content-type': 'text/html' });
    stream.end('<html>not grpc</html>');
  });
  server.on('sessionError', () => undefined);
  const port = await listenOn(server as unknown as net.Server, host);
  return {
    host,
    port,
    get recording() {
      return recording;
    },
    settle: () => Promise.resolve(),
    reset: () => (recording = emptyRecording()),
    close: () => {
      clearTimeout(timer);
      return closeServer(server as unknown as net.Server, sockets);
    },
  };
}

/**
 * A TCP listener that counts connections and then closes them (`close`), resets them (`reset`), holds them silent
 * (`hold`) or sends `greeting` and holds. settle() opens a marker connection and waits for the server to accept it:
 * accepts are in order, so every connection a finished probe made has been counted by then (without the marker, a
 * probe that connects and closes at once can finish before the accept).
 */
export async function tcpServer(
  host: string,
  mode: 'close' | 'reset' | 'hold' | { greeting: string },
): Promise<RunningServer> {
  let recording = emptyRecording();
  const sockets = new Set<net.Socket>();
  const markers = new Map<number, () => void>();
  const server = bounded(
    net.createServer((sock) => {
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
      sock.on('error', () => sock.destroy());
      const marker = markers.get(sock.remotePort ?? -1);
      if (marker !== undefined) {
        sock.destroy();
        marker();
        return;
      }
      recording.connections++;
      sock.setTimeout(HOLD_CAP_MS, () => sock.destroy());
      if (mode === 'close') sock.end();
      else if (mode === 'reset') sock.resetAndDestroy();
      else if (typeof mode === 'object') sock.write(mode.greeting);
    }),
  );
  const port = await listenOn(server, host);
  // The marker's local port is chosen (and known to the server) before it connects, so the server tells it apart
  // from a probe's connection the moment it accepts it, whatever order the two sides' callbacks run in.
  const settle = async (): Promise<void> => {
    const probe = net.createServer();
    const localPort = await listenOn(probe, host);
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    await new Promise<void>((resolve, reject) => {
      markers.set(localPort, () => {
        markers.delete(localPort);
        resolve();
      });
      const c = net.connect({ host, port, localAddress: host, localPort });
      c.on('error', (e) => {
        markers.delete(localPort);
        reject(e);
      });
      c.on('close', () => c.destroy());
    });
  };
  return {
    host,
    port,
    get recording() {
      return recording;
    },
    settle,
    reset: () => (recording = emptyRecording()),
    close: () => closeServer(server, sockets),
  };
}

/** A port on `host` where nothing listens: connections are refused. */
export async function refusedPort(host: string): Promise<RunningServer> {
  const s = net.createServer();
  const port = await listenOn(s, host);
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return {
    host,
    port,
    recording: emptyRecording(),
    settle: () => Promise.resolve(),
    reset: () => undefined,
    close: () => Promise.resolve(),
  };
}

const BLACK_HOLE_THREAD = `
const { workerData, parentPort } = require('node:worker_threads');
const net = require('node:net');
const flag = new Int32Array(workerData.flag);
const server = net.createServer();
server.listen({ host: workerData.host, port: 0, backlog: 1 }, () => {
  parentPort.postMessage(server.address().port);
  // This thread's event loop never runs again until released, so the socket never accepts.
  Atomics.wait(flag, 0, 0, workerData.lifetimeMs);
  server.close();
  process.exit(0);
});
`;

/**
 * A listening socket that never accepts: it listens with a backlog of 1 on a thread whose event loop is then blocked,
 * and the accept queue is filled by connections of our own, so the kernel drops every later SYN and a probe's connect
 * hangs until its own timeout (a black-holed port). The thread waits at most SERVER_LIFETIME_MS.
 */
export async function blackHole(host: string): Promise<RunningServer> {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(BLACK_HOLE_THREAD, {
    eval: true,
    workerData: { host, flag: flag.buffer, lifetimeMs: SERVER_LIFETIME_MS },
  });
  worker.unref();
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (p: number) => resolve(p));
    worker.once('error', reject);
  });
  // A backlog of 1 queues 2 connections on Linux; the rest of these hang in SYN-SENT, as the probes will.
  const fillers = Array.from({ length: 4 }, () => {
    const c = net.connect({ host, port });
    c.on('error', () => undefined);
    return c;
  });
  await Promise.all(fillers.slice(0, 2).map((c) => new Promise<void>((resolve) => c.once('connect', () => resolve()))));
  return {
    host,
    port,
    recording: emptyRecording(),
    settle: () => Promise.resolve(),
    reset: () => undefined,
    close: async () => {
      for (const c of fillers) c.destroy();
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
      await new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        setTimeout(resolve, 5_000).unref();
      });
    },
  };
}
