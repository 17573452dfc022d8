// One HTTP(S) GET on a new connection, bounded by an AbortSignal, reading at most a given number of body bytes,
// buffered or handed on chunk by chunk: the transport shared by the httpGet and apiServer handlers. Depends only on
// node:http/https and the address guard.
import http from 'node:http';
import https from 'node:https';
import type { SecureContext } from 'node:tls';
import type { AddressGuard } from './address-guard.js';
import type { Phase } from './net-error.js';
import { messageOf } from '@karmada-cluster-probe/schema/api';

export interface GetOptions {
  url: URL;
  /** Header name to values; a `Host` entry sets the request host. */
  headers: Record<string, string | string[]>;
  guard: AddressGuard;
  signal: AbortSignal;
  maxBodyBytes: number;
  /**
   * Streams the body instead of buffering it: each chunk (within maxBodyBytes) is handed over as it arrives, with the
   * status, and `body` stays empty. Return true to stop reading (the connection is closed). What it throws rejects
   * the request as it is, not as a TransportError.
   */
  onBody?: (chunk: Buffer, status: number) => boolean;
  secureContext?: SecureContext;
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
}

/** A transport failure, with the phase it happened in (for the timeout wording) and the underlying error. */
export class TransportError extends Error {
  constructor(
    readonly phase: Phase,
    override readonly cause: unknown,
    readonly aborted: boolean,
  ) {
    super(messageOf(cause));
    this.name = 'TransportError';
  }
}

/** `host:port` as Go prints a dial address. */
export function dialAddress(url: URL): string {
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
  return `${url.hostname}:${port}`;
}

function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

export function getOnce(opts: GetOptions): Promise<GetResponse> {
  return new Promise<GetResponse>((resolve, reject) => {
    let phase: Phase = 'connect';
    let settled = false;
    const host = bareHost(opts.url.hostname);
    const fail = (err: unknown): void => {
      if (settled) return;
      settled = true;
      opts.signal.removeEventListener('abort', onAbort);
      reject(new TransportError(phase, err, opts.signal.aborted));
    };
    let dial: string;
    try {
      dial = opts.guard.checkLiteral(host) ?? host;
    } catch (e) {
      fail(e);
      return;
    }
    if (opts.signal.aborted) {
      fail(opts.signal.reason);
      return;
    }
    const isHttps = opts.url.protocol === 'https:';
    const common: http.RequestOptions = {
      method: 'GET',
      hostname: dial,
      port: opts.url.port !== '' ? Number(opts.url.port) : isHttps ? 443 : 80,
      path: `${opts.url.pathname}${opts.url.search}`,
      headers: opts.headers,
      agent: false,
      lookup: opts.guard.lookup,
    };
    const req = isHttps
      ? https.request({
          ...common,
          rejectUnauthorized: opts.rejectUnauthorized ?? true,
          ...(opts.secureContext !== undefined ? { secureContext: opts.secureContext } : {}),
        })
      : http.request(common);
    function onAbort(): void {
      req.destroy(opts.signal.reason instanceof Error ? opts.signal.reason : new Error('aborted'));
    }
    opts.signal.addEventListener('abort', onAbort, { once: true });
    req.on('socket', (socket) => {
      socket.once(isHttps ? 'secureConnect' : 'connect', () => {
        if (phase === 'connect') phase = 'headers';
      });
    });
    req.on('error', fail);
    req.on('response', (res) => {
      phase = 'body';
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      let stopped = false;
      const status = res.statusCode ?? 0;
      const take = (chunk: Buffer): boolean => {
        if (opts.onBody === undefined) {
          chunks.push(chunk);
          return false;
        }
        try {
          return opts.onBody(chunk, status);
        } catch (e) {
          settled = true;
          opts.signal.removeEventListener('abort', onAbort);
          res.destroy();
          req.destroy();
          reject(e instanceof Error ? e : new Error(String(e)));
          return true;
        }
      };
      const finish = (): void => {
        if (settled) return;
        settled = true;
        opts.signal.removeEventListener('abort', onAbort);
        const location = res.headers.location;
        const contentType = res.headers['content-type'];
        resolve({
          status,
          ...(location !== undefined ? { location } : {}),
          ...(contentType !== undefined ? { contentType } : {}),
          body: opts.onBody === undefined ? Buffer.concat(chunks, size) : Buffer.alloc(0),
          truncated,
          bytesRead: size,
          stopped,
        });
        // A new connection per probe: nothing to keep, and the rest of a long body is not wanted.
        res.destroy();
        req.destroy();
      };
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        const room = opts.maxBodyBytes - size;
        if (chunk.length >= room) {
          size += room;
          stopped = take(chunk.subarray(0, room));
          if (settled) return;
          truncated = !stopped && (chunk.length > room || !res.readableEnded);
          finish();
          return;
        }
        size += chunk.length;
        stopped = take(chunk);
        if (settled) return;
        if (stopped) finish();
      });
      res.on('end', finish);
      res.on('error', fail);
      res.on('aborted', () => fail(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })));
    });
    req.end();
  });
}
