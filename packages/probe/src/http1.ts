// The prober's own HTTP/1.x client for one GET on a socket it is handed (plain or TLS): the request written as the
// kubelet's Go client writes it (Request.write with DisableKeepAlives: the request line, Host, the headers in the
// order given, `Connection: close`), the response read with Go's rules (go-response-head.ts: the head, 1xx responses
// skipped and counted against the head bound, 101 returned; go-chunked.ts: the chunked body), the body counted up to
// its limit or handed on as ranges of the read buffer, never kept. One object a request, no node:http: a probe in
// flight holds its socket, this object and the head's strings. Depends on go-response-head, go-chunked, response.
import { GoChunkedReader } from './go-chunked.js';
import { GoHeadReader, type BodyFraming } from './go-response-head.js';
import { goQuote } from './go-url.js';
import {
  BodyReader,
  GoProtocolError,
  HEADERS_EXCEEDED,
  MAX_RESPONSE_HEADER_BYTES,
  UnexpectedEof,
  responseOf,
  validHostHeader,
  type GetOptions,
  type GetResponse,
} from './response.js';

export interface ExchangeHooks {
  /** The final response's head is in: what fails from now on fails reading the body. */
  onHeaders(): void;
  done(r: GetResponse): void;
  fail(e: unknown): void;
  /** What onBody threw: the request rejects with it as it is. */
  rejectAsIs(e: unknown): void;
}

/** A byte no request line or header may carry as it is written (it would end the line): Go's transport refuses it. */
// eslint-disable-next-line no-control-regex
const LINE_BREAKING = /[\r\n\0]|[^\x00-\xff]/;

/** Go's words for a head that could not be read. */
const BROKEN = 'net/http: HTTP/1.x transport connection broken: ';

/**
 * The request head as Go's Request.write writes a GET through a transport with DisableKeepAlives, or Go's error when
 * a value cannot be written. Go's transport adds `Connection: close` after the caller's headers unless they already
 * ask to close or to switch protocols (Connection: upgrade with an Upgrade header). The target, Host and values are
 * byte strings (one char a byte), written as latin1.
 */
export function requestHead(o: Pick<GetOptions, 'target' | 'host' | 'headers'>): string | GoProtocolError {
  if (LINE_BREAKING.test(o.target)) return new GoProtocolError('net/http: invalid request-target');
  // Go's Request.write sends an empty Host rather than one with a byte no host can hold (a space, a non-ASCII byte:
  // Go would have made it punycode first).
  let head = `GET ${o.target} HTTP/1.1\r\nHost: ${validHostHeader(o.host) ? o.host : ''}\r\n`;
  let connection: readonly string[] | undefined;
  let upgrade = false;
  for (const [name, values] of o.headers) {
    const lower = name.toLowerCase();
    if (lower === 'connection') connection = values;
    else if (lower === 'upgrade') upgrade = values.some((v) => v !== '');
    for (const v of values) {
      if (LINE_BREAKING.test(name) || LINE_BREAKING.test(v))
        return new GoProtocolError(`net/http: invalid header field value for ${goQuote(name)}`);
      head += `${name}: ${v}\r\n`;
    }
  }
  let close = true;
  if (connection !== undefined) {
    const tokens = connection.flatMap((v) =>
      v
        .toLowerCase()
        .split(',')
        .map((t) => t.trim()),
    );
    close = !tokens.includes('close') && !(tokens.includes('upgrade') && upgrade);
  }
  if (close) head += 'Connection: close\r\n';
  return `${head}\r\n`;
}

/** One GET's response, fed what the socket reads. */
export class Http1Exchange {
  private head = new GoHeadReader();
  /** Bytes of every head so far (1xx ones included). */
  private headBytes = 0;
  private over = false;
  private status = 0;
  private location: string | undefined;
  private contentType: string | undefined;
  private framing: BodyFraming | undefined;
  private reader: BodyReader | undefined;
  private left = 0;
  private chunked: GoChunkedReader | undefined;

  constructor(
    private readonly opts: GetOptions,
    private readonly hooks: ExchangeHooks,
  ) {}

  /** Bytes read: `buf[start, end)`, used only during the call. */
  data(buf: Buffer, start: number, end: number): void {
    while (!this.over && start < end) {
      if (this.framing !== undefined) {
        this.body(buf, start, end);
        return;
      }
      // Only the head is made text: up to its blank line when this read holds it.
      const blank = headEnd(buf, start, end);
      const text = buf.toString('latin1', start, blank);
      const step = this.head.feed(text, false);
      if ('needMore' in step) {
        this.headBytes += blank - start;
        if (this.headBytes > MAX_RESPONSE_HEADER_BYTES) this.finish(new GoProtocolError(HEADERS_EXCEEDED));
        start = blank;
        continue;
      }
      if ('error' in step) {
        this.finish(new GoProtocolError(`${BROKEN}${step.error}`));
        return;
      }
      this.headBytes += step.rest;
      if (this.headBytes > MAX_RESPONSE_HEADER_BYTES) {
        this.finish(new GoProtocolError(HEADERS_EXCEEDED));
        return;
      }
      start += step.rest;
      const h = step.head;
      // 1xx but 101: skipped, the next head read (Go's transport; their bytes count against the bound together).
      if (h.status >= 100 && h.status < 200 && h.status !== 101) {
        this.head = new GoHeadReader();
        continue;
      }
      this.begin(h.status, h.fields, h.framing);
    }
  }

  /** The server closed its side. */
  end(): void {
    if (this.over) return;
    if (this.framing === undefined) {
      const step = this.head.feed('', true);
      if ('error' in step) {
        this.finish(
          this.headBytes === 0 && step.error === 'unexpected EOF'
            ? hangUp()
            : new GoProtocolError(`${BROKEN}${step.error}`),
        );
        return;
      }
      if ('head' in step) {
        if (step.head.status >= 100 && step.head.status < 200 && step.head.status !== 101) {
          this.finish(new GoProtocolError(`${BROKEN}unexpected EOF`));
          return;
        }
        this.begin(step.head.status, step.head.fields, step.head.framing);
        if (this.over) return;
      }
    }
    switch (this.framing?.kind) {
      case 'close':
        this.done();
        return;
      case 'chunked': {
        const step = this.chunked!.close();
        if (step === 'end') this.done();
        else if (step !== 'more') this.finish(bodyError(step.error));
        return;
      }
      default:
        this.finish(new UnexpectedEof());
    }
  }

  private begin(status: number, fields: ReadonlyMap<string, readonly string[]>, framing: BodyFraming): void {
    this.status = status;
    this.location = fields.get('location')?.[0];
    this.contentType = fields.get('content-type')?.[0];
    // A 101 nobody asked for: Go's client returns it as the response (the probe fails on its status).
    if (status === 101) {
      this.done(false, false);
      return;
    }
    this.hooks.onHeaders();
    if (this.opts.skipBody?.(status, this.location) === true) {
      this.done(true, false);
      return;
    }
    if (framing.kind === 'none') {
      this.done(false, false);
      return;
    }
    this.framing = framing;
    this.reader = new BodyReader(this.opts, status);
    if (framing.kind === 'length') this.left = framing.length;
    else if (framing.kind === 'chunked') this.chunked = new GoChunkedReader();
  }

  private body(buf: Buffer, start: number, end: number): void {
    const reader = this.reader!;
    try {
      switch (this.framing!.kind) {
        case 'length': {
          const n = Math.min(this.left, end - start);
          this.left -= n;
          if (reader.take(buf, start, start + n, this.left > 0) || this.left === 0) this.done();
          return;
        }
        case 'close':
          if (reader.take(buf, start, end, true)) this.done();
          return;
        case 'chunked': {
          const step = this.chunked!.feed(buf, start, end, this.chunkData);
          if (step === 'end') this.done();
          else if (step !== 'more') this.finish(bodyError(step.error));
          return;
        }
        default:
          return;
      }
    } catch (e) {
      this.over = true;
      this.hooks.rejectAsIs(e);
    }
  }

  private readonly chunkData = (buf: Buffer, from: number, to: number): boolean =>
    this.reader!.take(buf, from, to, true);

  private done(skipped = false, withBody = true): void {
    if (this.over) return;
    this.over = true;
    this.hooks.done(
      responseOf(this.status, this.location, this.contentType, 'HTTP/1.1', withBody ? this.reader : undefined, skipped),
    );
  }

  private finish(e: unknown): void {
    if (this.over) return;
    this.over = true;
    this.hooks.fail(e);
  }
}

/** Where the head's blank line ends in `buf[start, end)` (`\n\n` or `\n\r\n`), or `end` when it is not there. */
function headEnd(buf: Buffer, start: number, end: number): number {
  // Searched within the range only: past `end` a reused read buffer holds an earlier read's bytes.
  const view = start === 0 && end === buf.length ? buf : buf.subarray(start, end);
  let best = view.length;
  const lf = view.indexOf(LF_LF);
  if (lf >= 0) best = lf + 2;
  const crlf = view.indexOf(LF_CRLF);
  if (crlf >= 0 && crlf + 3 < best) best = crlf + 3;
  return start + best;
}

const LF_LF = Buffer.from('\n\n', 'latin1');
const LF_CRLF = Buffer.from('\n\r\n', 'latin1');

function bodyError(error: string): Error {
  return error === 'unexpected EOF' ? new UnexpectedEof() : new GoProtocolError(error);
}

/** The server closed before a byte of the response: Node's words, which net-error.ts says as Go's `EOF`. */
function hangUp(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}
