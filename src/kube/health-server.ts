// A controller's plain-HTTP endpoints: /healthz (the process serves), /readyz (what the caller says: for the reconciler,
// Clusters listed or standing by as a follower), /metrics (Prometheus text). Bound to 127.0.0.1 unless told otherwise.
// node:http only.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';
import { constants as zlib, createGzip } from 'node:zlib';
import type { Registry } from 'prom-client';

export interface HealthServerOptions {
  host?: string;
  port: number;
  registry: Registry;
  ready: () => boolean;
  /**
   * Writes the exposition in pieces (the reconciler's writeExposition) instead of `registry.metrics()` as one string;
   * `stopped` says the client went away.
   */
  exposition?: (write: (chunk: string) => void | Promise<void>, stopped: () => boolean) => Promise<void>;
}

/**
 * Bytes of a scrape buffered (by the socket, or the compressor) before the writer waits for them to drain: the memory
 * a scrape may hold. Waiting at the stream's own 16 KiB mark cost a loop turn every slice, and under load a turn waits
 * behind every ready callback (bench/scrape).
 */
export const METRICS_BUFFER_BYTES = 4 * 1024 * 1024;

/**
 * The size of the pieces a scrape is handed to the socket (characters; the text is ASCII) or to the compressor in:
 * each piece is a round trip through the event loop, so they are large; the compressor's output comes in chunks of
 * METRICS_GZIP_CHUNK_BYTES (a tenth of a piece compresses into one).
 */
export const METRICS_PIECE_BYTES = 1024 * 1024;
export const METRICS_GZIP_CHUNK_BYTES = 256 * 1024;

/**
 * The most /metrics responses served at once (Prometheus' HA pair and a person with curl); one more gets 503 with
 * Retry-After, so that connections that stop reading cannot add METRICS_BUFFER_BYTES each without bound.
 */
export const METRICS_MAX_CONCURRENT = 3;

/** How long a /metrics response waits for a scraper that takes no byte before it closes the connection. */
export const METRICS_STALL_MS = 60_000;

/**
 * Whether an Accept-Encoding takes gzip (RFC 9110, 12.5.3): a `gzip` (or `x-gzip`) entry decides by its q, else a `*`
 * entry; `q=0` refuses. Prometheus asks for gzip on every scrape: the exposition is about a tenth the size,
 * compressed on libuv's thread pool, off the event loop.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  let star: boolean | undefined;
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') continue;
    const q = params.find((p) => p.startsWith('q='));
    const takes = q === undefined || Number(q.slice(2)) > 0;
    if (coding !== '*') return takes;
    star ??= takes;
  }
  return star ?? false;
}

/** Resolves when `res` can take more, or has closed; leaves no listener behind either way. */
function drained(res: Writable): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export interface HealthServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  let scrapes = 0;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    } else if (path === '/readyz') {
      const ok = options.ready();
      res.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain' }).end(ok ? 'ok\n' : 'not ready\n');
    } else if (path === '/metrics' && options.exposition !== undefined) {
      if (scrapes >= METRICS_MAX_CONCURRENT) {
        res
          .writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' })
          .end(`too many concurrent scrapes (at most ${METRICS_MAX_CONCURRENT}); retry when one has finished\n`);
        return;
      }
      scrapes++;
      res.once('close', () => scrapes--);
      const gzip = acceptsGzip(req.headers['accept-encoding']);
      res.writeHead(200, {
        'content-type': options.registry.contentType,
        vary: 'Accept-Encoding',
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      // A scraper that stops reading is let go after METRICS_STALL_MS without taking a byte (Prometheus' own
      // scrape_timeout is far shorter), so it cannot hold the slices of a scrape forever.
      res.setTimeout(METRICS_STALL_MS, () => res.destroy());
      // Level 1: a tenth of the bytes already, for the least CPU the machine shares with the probes; a piece of
      // METRICS_PIECE_BYTES compresses into one output chunk, one thread-pool round trip.
      const out: Writable = gzip ? createGzip({ level: zlib.Z_BEST_SPEED, chunkSize: METRICS_GZIP_CHUNK_BYTES }) : res;
      if (out !== res) {
        out.pipe(res);
        out.on('error', (err) => res.destroy(err));
        res.on('close', () => out.destroy());
      }
      // The exposition's slices are gathered into pieces of METRICS_PIECE_BYTES: each piece the compressor takes is a
      // round trip through the event loop, and under load a turn waits behind every ready callback. Back-pressure: a
      // slow scraper holds at most METRICS_BUFFER_BYTES that the socket (and the compressor) has not taken.
      let pending: string[] = [];
      let pendingBytes = 0;
      const flush = (): void | Promise<void> => {
        if (pending.length === 0 || res.destroyed) return undefined;
        out.write(pending.length === 1 ? pending[0]! : pending.join(''));
        pending = [];
        pendingBytes = 0;
        return res.destroyed || out.writableLength <= METRICS_BUFFER_BYTES ? undefined : drained(out);
      };
      const write = (chunk: string): void | Promise<void> => {
        pending.push(chunk);
        pendingBytes += chunk.length;
        return pendingBytes >= METRICS_PIECE_BYTES ? flush() : undefined;
      };
      options
        .exposition(write, () => res.destroyed)
        .then(async () => {
          await flush();
          if (!res.destroyed) out.end();
        })
        .then(
          () => {},
          (err: unknown) => res.destroy(err instanceof Error ? err : new Error(String(err))),
        );
    } else if (path === '/metrics') {
      options.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': options.registry.contentType }).end(text),
        (err: unknown) => res.writeHead(500).end(String(err)),
      );
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    }
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
