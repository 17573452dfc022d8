// The h2 half of the transport: one GET on a TLS socket whose server chose h2 by ALPN, with the same limits as
// HTTP/1.x (the caller's deadline, maxBodyBytes, MAX_RESPONSE_HEADER_BYTES, the session closed after). Headers as
// Go's h2 transport sends them: `:authority` from the Host, names in lower case, one User-Agent. Depends on node:http2.
import http2 from 'node:http2';
import type { TLSSocket } from 'node:tls';
import {
  BodyReader,
  GoProtocolError,
  MAX_RESPONSE_HEADER_BYTES,
  UnexpectedEof,
  responseOf,
  validHostHeader,
  type GetOptions,
  type GetResponse,
} from './response.js';

export interface H2Hooks {
  onHeaders: () => void;
  done: (r: GetResponse) => void;
  fail: (e: unknown) => void;
  rejectAsIs: (e: unknown) => void;
  addCleanup: (c: () => void) => void;
}

/** Headers no h2 request may carry (RFC 9113 8.2.2), dropped as Go's h2 transport drops them. */
const CONNECTION_SPECIFIC = new Set([
  'connection',
  'host',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
]);

export function h2Get(opts: GetOptions, socket: TLSSocket, hooks: H2Hooks): void {
  // Go's h2 transport refuses such a Host before sending (httpcommon.EncodeHeaders).
  if (!validHostHeader(opts.host)) {
    hooks.fail(new GoProtocolError('invalid Host header'));
    return;
  }
  // The authority here is a placeholder (the socket is ours, `:authority` is set below): node:http2 parses it as a
  // URL and throws on a Host that is not one (`a b`, `[`).
  const session = http2.connect('https://localhost', {
    createConnection: () => socket,
    maxHeaderListPairs: 256,
    settings: { enablePush: false, maxHeaderListSize: MAX_RESPONSE_HEADER_BYTES },
    // Node's own ceiling on what the session buffers, in MB; one small GET needs little.
    maxSessionMemory: 1,
  });
  hooks.addCleanup(() => session.destroy());
  session.on('error', hooks.fail);
  const headers: http2.OutgoingHttpHeaders = {
    ':method': 'GET',
    ':scheme': 'https',
    ':authority': opts.host,
    ':path': opts.target,
  };
  for (const [name, values] of opts.headers) {
    const key = name.toLowerCase();
    if (CONNECTION_SPECIFIC.has(key)) continue;
    headers[key] = values.length === 1 ? values[0]! : [...values];
  }
  let stream: http2.ClientHttp2Stream;
  try {
    stream = session.request(headers, { endStream: true });
  } catch (e) {
    hooks.fail(e);
    return;
  }
  stream.on('error', hooks.fail);
  // node:http2 advertises SETTINGS_MAX_HEADER_LIST_SIZE but takes a larger block (up to nine 16 KiB frames), and any
  // number of 1xx blocks: both are held to the bound here, in Go's h2 transport's words.
  let informational = 0;
  stream.on('headers', (h) => {
    informational += headerListSize(h);
    if (informational > MAX_RESPONSE_HEADER_BYTES) hooks.fail(new GoProtocolError('header list too large'));
  });
  stream.on('response', (h) => {
    if (headerListSize(h) > MAX_RESPONSE_HEADER_BYTES) {
      hooks.fail(new GoProtocolError('http2: response header list larger than advertised limit'));
      return;
    }
    hooks.onHeaders();
    const status = Number(h[':status'] ?? 0);
    const location = first(h['location']);
    const contentType = first(h['content-type']);
    const response = (reader: BodyReader | undefined, skipped: boolean): GetResponse =>
      responseOf(status, location, contentType, 'h2', reader, skipped);
    if (opts.skipBody?.(status, location) === true) {
      hooks.done(response(undefined, true));
      return;
    }
    const reader = new BodyReader(opts, status);
    stream.on('data', (chunk: Buffer) => {
      let over: boolean;
      try {
        over = reader.take(chunk, 0, chunk.length, !stream.readableEnded);
      } catch (e) {
        hooks.rejectAsIs(e);
        return;
      }
      if (over) hooks.done(response(reader, false));
    });
    stream.on('end', () => hooks.done(response(reader, false)));
  });
  let responded = false;
  stream.once('response', () => (responded = true));
  stream.on('close', () => {
    // A stream reset before or during the response, without an error event (RST_STREAM from the server).
    if (stream.rstCode !== undefined && stream.rstCode !== http2.constants.NGHTTP2_NO_ERROR)
      hooks.fail(
        new Error(`stream error: stream ID ${stream.id ?? 1}; ${rstName(stream.rstCode)}; received from peer`),
      );
    // Closed with no response: a server that will not send headers above the bound this session advertised
    // (SETTINGS_MAX_HEADER_LIST_SIZE) says GOAWAY and ends the stream so.
    else if (!responded)
      hooks.fail(
        new Error(
          `http2: the server closed the stream without a response (response headers are bounded to ${MAX_RESPONSE_HEADER_BYTES} bytes)`,
        ),
      );
    // Closed after the headers, before the body's end: a body cut short, Go's `unexpected EOF`.
    else hooks.fail(new UnexpectedEof());
  });
}

/** A header list's size as RFC 7541 (and Go's framer) counts it: each field's name and value octets, plus 32. */
function headerListSize(headers: http2.IncomingHttpHeaders): number {
  let size = 0;
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) size += name.length + String(v).length + 32;
  }
  return size;
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

const RST_NAMES: Record<number, string> = {
  1: 'PROTOCOL_ERROR',
  2: 'INTERNAL_ERROR',
  3: 'FLOW_CONTROL_ERROR',
  5: 'STREAM_CLOSED',
  6: 'FRAME_SIZE_ERROR',
  7: 'REFUSED_STREAM',
  8: 'CANCEL',
  11: 'ENHANCE_YOUR_CALM',
  13: 'HTTP_1_1_REQUIRED',
};

function rstName(code: number): string {
  return RST_NAMES[code] ?? `unknown error code 0x${code.toString(16)}`;
}
