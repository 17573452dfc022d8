// A controller's plain-HTTP endpoints: /healthz (the process serves), /readyz (what the caller says: for the reconciler,
// Clusters listed or standing by as a follower), /metrics (Prometheus text). Bound to 127.0.0.1 unless told otherwise.
// node:http only.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** How long a /metrics response waits for a scraper that takes no byte before it closes the connection. */
export const METRICS_STALL_MS = 60_000;

/** Resolves when `res` can take more, or has closed; leaves no listener behind either way. */
function drained(res: ServerResponse): Promise<void> {
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
      res.writeHead(200, { 'content-type': options.registry.contentType });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      // A scraper that stops reading is let go after METRICS_STALL_MS without taking a byte (Prometheus' own
      // scrape_timeout is far shorter), so it cannot hold the slices of a scrape forever.
      res.setTimeout(METRICS_STALL_MS, () => res.destroy());
      // Back-pressure: a slow scraper holds what the socket has not taken, not the whole scrape.
      const write = (chunk: string): void | Promise<void> =>
        res.write(chunk) || res.destroyed ? undefined : drained(res);
      options
        .exposition(write, () => res.destroyed)
        .then(
          () => res.end(),
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
