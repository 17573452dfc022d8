// The HTTPS shell around the request router (app.ts): TLS 1.2+, the serving pair hot-reloaded from its directory,
// and a graceful stop (not ready, connections told to close, listener closed, in-flight requests finished).
import https from 'node:https';
import type tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { CertificateReloader } from '../certs/index.js';
import { createRequestListener } from './app.js';
import { ConnectionSweep } from './connections.js';
import { createMetrics, type WebhookMetrics } from './metrics.js';
import { DEFAULT_CONNECTION_TIMEOUTS, type ConnectionTimeouts, type WebhookOptions } from './options.js';

export interface WebhookServerOptions extends WebhookOptions {
  certDir: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  logger: Logger;
  metrics?: WebhookMetrics;
  /** Certificate poll period (the directory is also watched). Default 10 s. */
  certPollIntervalMs?: number;
  /**
   * After SIGTERM, how long to keep serving (not ready, every answer closing its connection) before closing the
   * listener, so the endpoint is removed from the Service before connections are refused. Default 2 s.
   */
  shutdownDelayMs?: number;
  /** The most time in-flight requests get after the listener closes. Default 20 s. */
  shutdownTimeoutMs?: number;
  /** Connection timeouts; each one left out is `DEFAULT_CONNECTION_TIMEOUTS`'s (tests shorten them). */
  timeouts?: Partial<ConnectionTimeouts>;
  /** The bytes of review bodies held at once over all requests; default `MAX_BUFFERED_BODY_BYTES` (64 MiB). */
  maxBufferedBodyBytes?: number;
}

export class WebhookServer {
  readonly metrics: WebhookMetrics;
  /** The connection timeouts in force. */
  readonly timeouts: ConnectionTimeouts;
  private readonly server: https.Server;
  private readonly reloader: CertificateReloader;
  private readonly connectionSweep: ConnectionSweep;
  private draining = false;
  private stopping: Promise<void> | undefined;

  constructor(private readonly options: WebhookServerOptions) {
    this.metrics = options.metrics ?? createMetrics();
    const listener = createRequestListener({
      probeLocation: options.probeLocation,
      denyHosts: options.denyHosts,
      logger: options.logger,
      metrics: this.metrics,
      isReady: () => this.reloader.loaded,
      isDraining: () => this.draining,
      maxBufferedBodyBytes: options.maxBufferedBodyBytes,
    });
    const timeouts = { ...DEFAULT_CONNECTION_TIMEOUTS, ...options.timeouts };
    this.timeouts = timeouts;
    // No pair yet: handshakes fail until the reloader applies one, which is what "not ready" looks like on the wire.
    // Every connection is bounded (the reasons are in options.ts and docs/webhook.md): the handshake; then the socket
    // timeout closes one that sends nothing (node keeps such a socket forever otherwise, as headersTimeout only
    // counts from a request's first byte); headers and the whole request are bounded from their first byte, checked
    // a few times within the headers timeout; and node replaces the socket timeout by the keep-alive timeout between
    // requests.
    const checkingMs = Math.max(10, Math.min(1_000, Math.floor(timeouts.headersMs / 4)));
    // What node bounds nowhere (connections.ts): an answer the client does not read may wait as long as a whole
    // request may take; a connection with no request in progress goes once node's keep-alive close (1 s after the
    // timeout) and a request's headers would both have passed, whatever blank lines it sends.
    const sweep = new ConnectionSweep({
      stalledWriteMs: timeouts.requestMs,
      idleMs: timeouts.keepAliveMs + 1_000 + timeouts.headersMs,
      sweepMs: checkingMs,
    });
    this.connectionSweep = sweep;
    this.server = https.createServer(
      {
        minVersion: 'TLSv1.2',
        handshakeTimeout: timeouts.handshakeMs,
        headersTimeout: timeouts.headersMs,
        requestTimeout: timeouts.requestMs,
        connectionsCheckingInterval: checkingMs,
      },
      (req, res) => {
        sweep.request(req.socket, res);
        listener(req, res);
      },
    );
    this.server.keepAliveTimeout = timeouts.keepAliveMs;
    // A connection that sends nothing: node's `timeout` would also arm a socket timer for every request and refresh
    // it on every read and write, which the floor server in bench/webhook does not pay. Armed here once a connection
    // is up instead: it covers the silence before the first request and during it (node replaces it with the
    // keep-alive timeout after the first answer, and clears it when the next request starts, when headersTimeout and
    // requestTimeout bound the request from its first byte).
    this.server.timeout = 0;
    this.server.on('secureConnection', (socket: tls.TLSSocket) => {
      socket.setTimeout(timeouts.headersMs);
      sweep.add(socket);
    });
    this.server.on('tlsClientError', (err) => {
      options.logger.debug({ err: err.message }, 'TLS handshake failed');
    });
    this.reloader = new CertificateReloader({
      dir: options.certDir,
      logger: options.logger,
      pollIntervalMs: options.certPollIntervalMs ?? 10_000,
      apply: (pair) => this.server.setSecureContext({ cert: pair.cert, key: pair.key, minVersion: 'TLSv1.2' }),
      onResult: (result) => {
        if (result === 'loaded' || result === 'rejected') this.metrics.certificateReloads.inc({ result });
      },
    });
  }

  get ready(): boolean {
    return this.reloader.loaded && !this.draining;
  }

  /** TLS connections open now (handshake done). */
  get connections(): number {
    return this.connectionSweep.size;
  }

  /** The bound port (after `start`). */
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    const host = this.options.host.includes(':') ? `[${this.options.host}]` : this.options.host;
    return `https://${host}:${this.port}`;
  }

  /** Loads the certificate (waiting is fine: the reloader keeps trying), then listens. */
  async start(): Promise<void> {
    await this.reloader.start();
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.options.logger.info(
      {
        url: this.url,
        certDir: this.options.certDir,
        probeLocation: this.options.probeLocation,
        denyCidrs: this.options.denyHosts,
        ready: this.reloader.loaded,
      },
      'webhook listening',
    );
  }

  /** Forces a certificate re-read now (the watch and the poll do it by themselves). */
  reloadCertificates(): Promise<string> {
    return this.reloader.reload();
  }

  /**
   * Stops gracefully: readiness fails and every answer carries `Connection: close` for `shutdownDelayMs`, then the
   * listener closes and idle connections go; resolves when in-flight requests are done (or after the timeout).
   */
  shutdown(): Promise<void> {
    this.stopping ??= this.stop();
    return this.stopping;
  }

  private async stop(): Promise<void> {
    const { logger } = this.options;
    const delay = this.options.shutdownDelayMs ?? 2000;
    this.draining = true;
    logger.info({ delayMs: delay }, 'shutting down: not ready; draining connections');
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    this.reloader.stop();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    const timeoutMs = this.options.shutdownTimeoutMs ?? 20_000;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    // Connections that finish a request while closing go idle; close those as they appear.
    const sweeper = setInterval(() => this.server.closeIdleConnections(), 100);
    const outcome = await Promise.race([closed.then(() => 'closed' as const), timedOut]);
    clearInterval(sweeper);
    if (timer) clearTimeout(timer);
    if (outcome === 'timeout') {
      logger.warn({ timeoutMs }, 'in-flight requests did not finish in time; closing their connections');
      this.server.closeAllConnections();
      await closed;
    }
    this.connectionSweep.stop();
    logger.info('webhook stopped');
  }
}
