// What both transports of a probe's GET share (HTTP/1.x in http1.ts, h2 in h2-request.ts) and what getOnce
// (http-request.ts) hands its callers: the request's options, the response, the body's bookkeeping, the header bound
// and the errors in Go's words. Imported by both transports, so neither imports the other. Depends on nothing.
import type * as tls from 'node:tls';
import type { AddressGuard } from './address-guard.js';
import type { StopSignal } from './deadline.js';
import type { GoUrl } from './go-url.js';

/**
 * Bytes of a response's status line and header block, HTTP/1.x and h2 alike (HTTP/1.x: every head before the final
 * response, 1xx ones included, together). Go's client allows 10 MiB (Transport.maxHeaderResponseSize); the scheduler
 * runs up to 512 probes at once (its default concurrency), so 10 MiB each would be a 5 GiB worst case. 64 KiB is four
 * times Node's default, twice the 32 KiB blocks seen from real servers behind large cookies, and 32 MiB for 512
 * probes at once; a larger block fails the probe (stricter than Go, docs/probe.md).
 */
export const MAX_RESPONSE_HEADER_BYTES = 64 * 1024;

/** Go's words for a response head above the bound. */
export const HEADERS_EXCEEDED = `net/http: server response headers exceeded ${MAX_RESPONSE_HEADER_BYTES} bytes; aborted`;

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
  signal: StopSignal;
  maxBodyBytes: number;
  /**
   * Called with the status and Location once the headers are in: true ends the request there, unread (a redirect
   * that will be followed: Go discards its body and ignores errors reading it).
   */
  skipBody?: (status: number, location: string | undefined) => boolean;
  /**
   * Takes the body as it arrives: each chunk (within maxBodyBytes) with the status, valid only during the call (the
   * transport may read the next one into the same memory: copy what is kept). Return true to stop reading (the
   * connection is closed). What it throws rejects the request as it is, not as a TransportError. Without it the body
   * is read (to maxBodyBytes or its end, as the kubelet reads it) and counted, never kept: no caller shows it.
   */
  onBody?: (chunk: Buffer, status: number) => boolean;
  secureContext?: tls.SecureContext;
  rejectUnauthorized?: boolean;
}

export interface GetResponse {
  status: number;
  location?: string;
  contentType?: string;
  /** The body went past maxBodyBytes; only that many bytes were read. */
  truncated: boolean;
  /** Body bytes read (handed to onBody, or counted). */
  bytesRead: number;
  /** onBody asked to stop before the body ended. */
  stopped: boolean;
  /** The body was not read (skipBody). */
  skipped: boolean;
  protocol: 'HTTP/1.1' | 'h2';
}

/** The response of either path, from its head and what its BodyReader read (none when the body was skipped). */
export function responseOf(
  status: number,
  location: string | undefined,
  contentType: string | undefined,
  protocol: GetResponse['protocol'],
  reader: BodyReader | undefined,
  skipped: boolean,
): GetResponse {
  const r: GetResponse = {
    status,
    truncated: reader?.truncated ?? false,
    bytesRead: reader?.size ?? 0,
    stopped: reader?.stopped ?? false,
    skipped,
    protocol,
  };
  if (location !== undefined) r.location = location;
  if (contentType !== undefined) r.contentType = contentType;
  return r;
}

/** Body bookkeeping shared by the HTTP/1.x and h2 paths: the limit, onBody, the count. Holds no bytes. */
export class BodyReader {
  size = 0;
  truncated = false;
  stopped = false;

  constructor(
    private readonly opts: Pick<GetOptions, 'maxBodyBytes' | 'onBody'>,
    private readonly status: number,
  ) {}

  /**
   * Takes `chunk[start, end)`; returns true when reading is over (the limit reached or onBody asked to stop). `more`:
   * whether body bytes are known or may be about to follow this chunk (for `truncated` when the limit is met exactly).
   */
  take(chunk: Buffer, start: number, end: number, more: boolean): boolean {
    const room = this.opts.maxBodyBytes - this.size;
    const length = end - start;
    const n = length >= room ? room : length;
    this.size += n;
    if (this.opts.onBody !== undefined && n > 0)
      this.stopped = this.opts.onBody(
        start === 0 && n === chunk.length ? chunk : chunk.subarray(start, start + n),
        this.status,
      );
    if (length >= room) {
      this.truncated = !this.stopped && (length > room || more);
      return true;
    }
    return this.stopped;
  }
}

/** Go's httpguts.ValidHostHeader: the bytes a Host may hold (letters, digits and `!$%&'()*+,-.:;=[]_~`). */
const VALID_HOST = /^[A-Za-z0-9!$%&'()*+,\-.:;=[\]_~]*$/;

export function validHostHeader(host: string): boolean {
  return VALID_HOST.test(host);
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
