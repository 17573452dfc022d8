// The httpGet handler: the kubelet's pkg/probe/http as pkg/kubelet/prober drives it (followNonLocalRedirects false):
// 200-399 passes, redirects followed while the host name is the same (as Go's net/url spells it) up to Go's 10
// requests, 10 KiB of body at most, a new connection each time, the request-target and headers as Go forms them; with
// TLS verified unless opted out. A body that cannot be read is an errored probe (the kubelet's DoHTTPProbe returns an
// error there), not a failure. Depends on the transport, go-url and the address guard only.
import type { SecureContext } from 'node:tls';
import { codedError, configError, errored, failure, success, type HandlerEnv, type HandlerResult } from './handler.js';
import { Deadline } from './deadline.js';
import {
  goHostname,
  goQuote,
  fromText,
  goUrlString,
  GoUrlError,
  parseGoUrl,
  parseReference,
  probeRequestUrl,
  requestUri,
  toText,
  type GoUrl,
} from './go-url.js';
import { dialAddress, getOnce, TransportError, type HeaderList } from './http-request.js';
import { describeBodyError, describeNetError, describeTimeout, isAddressDenied } from './net-error.js';
import { contextFromBase64 } from './tls-context.js';
import type { HttpHeader } from './types.js';
import { USER_AGENT } from './version.js';

/** The kubelet's limits (pkg/probe/http): body bytes read and requests made (Go's RedirectChecker: `len(via) >= 10`). */
export const MAX_BODY_BYTES = 10 * 1024;
export const MAX_REDIRECTS = 10;
/** Statuses Go's client follows (redirectBehavior); 307/308 only with a Location. */
export const FOLLOWED_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

export interface ResolvedHttpGet {
  scheme: 'HTTP' | 'HTTPS';
  host: string;
  port: number;
  path: string;
  httpHeaders: HttpHeader[];
  caBundle?: string;
  insecureSkipTLSVerify: boolean;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Go's textproto.CanonicalMIMEHeaderKey: `x-custom-header` -> `X-Custom-Header`; a name that is not a token stays. */
export function canonicalHeaderKey(name: string): string {
  if (!TOKEN.test(name)) return name;
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase());
}

/** The request's headers as the kubelet's newProbeRequest leaves them, before the transport writes them. */
export interface ProbeHeaders {
  /** Go's req.Host: the first Host value, or '' (then the URL's host is sent). */
  host: string;
  /** Canonical name to values, in the order names first appear. */
  fields: Map<string, string[]>;
}

/**
 * v1HeaderToHTTPHeader then newProbeRequest: names canonical, values added in order; User-Agent ours unless given;
 * `Accept: *\/*` unless given, and none at all when the first given value is empty.
 */
export function probeHeaders(httpHeaders: readonly HttpHeader[]): ProbeHeaders {
  const fields = new Map<string, string[]>();
  for (const { name, value } of httpHeaders) {
    const key = canonicalHeaderKey(name);
    const prior = fields.get(key);
    if (prior === undefined) fields.set(key, [value]);
    else prior.push(value);
  }
  if (!fields.has('User-Agent')) fields.set('User-Agent', [USER_AGENT]);
  const accept = fields.get('Accept');
  if (accept === undefined) fields.set('Accept', ['*/*']);
  else if (accept[0] === '') fields.delete('Accept');
  return { host: fields.get('Host')?.[0] ?? '', fields };
}

/** Headers Go's Request.write never copies from the header map (Host and User-Agent are written on their own). */
const NOT_WRITTEN = new Set(['Host', 'User-Agent', 'Content-Length', 'Transfer-Encoding', 'Trailer']);

/** Go's textproto.TrimString after newlines become spaces: what Request.write does to a value. */
function goValue(v: string): string {
  return v.replace(/\r\n|\r|\n/g, ' ').replace(/^[ \t]+|[ \t]+$/g, '');
}

// eslint-disable-next-line no-control-regex
const INVALID_VALUE = /[\x00-\x08\x0a-\x1f\x7f]/;

/** What Go's transport refuses before sending (`net/http: invalid header field ...`), or undefined. */
export function invalidHeader(fields: ReadonlyMap<string, readonly string[]>): string | undefined {
  for (const [name, values] of fields) {
    if (!TOKEN.test(name)) return `net/http: invalid header field name ${goQuote(name)}`;
    if (values.some((v) => INVALID_VALUE.test(v))) return `net/http: invalid header field value for ${goQuote(name)}`;
  }
  return undefined;
}

/**
 * The header lines as Go's Request.write orders them: User-Agent (first value, if not empty), then sorted names.
 * Values are byte strings (UTF-8, one char a byte), as Go writes a string: Node's writers take one byte a char and
 * throw on a char above U+00FF (out of a TLS socket's event, an uncaught exception).
 */
export function headerLines(fields: ReadonlyMap<string, readonly string[]>): HeaderList {
  const out: [string, string[]][] = [];
  const ua = fields.get('User-Agent');
  if (ua !== undefined && goValue(ua[0] ?? '') !== '') out.push(['User-Agent', [fromText(goValue(ua[0]!))]]);
  const names = [...fields.keys()].filter((n) => !NOT_WRITTEN.has(n)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const n of names) out.push([n, fields.get(n)!.map((v) => fromText(goValue(v)))]);
  return out;
}

/**
 * Go's Client.send: a URL with `user:password@` sends them as Basic authorization, unless the request has its own.
 * (The kubelet does so for a path or a same-host Location that carries them.)
 */
function withUserinfoAuth(fields: ReadonlyMap<string, string[]>, u: GoUrl): ReadonlyMap<string, string[]> {
  if (u.userinfo === undefined || (fields.get('Authorization')?.[0] ?? '') !== '') return fields;
  const colon = u.userinfo.indexOf(':');
  const part = (s: string): string =>
    s.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  const user = part(colon >= 0 ? u.userinfo.slice(0, colon) : u.userinfo);
  const pass = colon >= 0 ? part(u.userinfo.slice(colon + 1)) : '';
  const out = new Map(fields);
  out.set('Authorization', [`Basic ${Buffer.from(`${user}:${pass}`, 'latin1').toString('base64')}`]);
  return out;
}

/** The headers of a probe that sets none (most do), formed once. */
const DEFAULT_HEADERS = probeHeaders([]);
const DEFAULT_LINES = headerLines(DEFAULT_HEADERS.fields);

/** Go's refererForURL: the last URL without its userinfo, none from https to http, the caller's own if it set one. */
function refererFor(last: GoUrl, next: GoUrl): string | undefined {
  if (last.scheme === 'https' && next.scheme === 'http') return undefined;
  const { userinfo: _dropped, ...rest } = last;
  return goUrlString(rest);
}

export async function httpProbe(action: ResolvedHttpGet, env: HandlerEnv): Promise<HandlerResult> {
  const first = probeRequestUrl(action.scheme.toLowerCase(), action.host, action.port, action.path);
  let secureContext: SecureContext | undefined;
  if (action.scheme === 'HTTPS' && !action.insecureSkipTLSVerify && action.caBundle !== undefined) {
    const ctx = contextFromBase64(action.caBundle, 'httpGet.caBundle');
    if (!ctx.ok) return codedError('InvalidCABundle', ctx.field, ctx.detail);
    secureContext = ctx.context;
  }
  const initial = action.httpHeaders.length === 0 ? DEFAULT_HEADERS : probeHeaders(action.httpHeaders);
  // Go's stripPassword: a URL in a message shows `user:***@`, never the password.
  const shown = (u: GoUrl): string => {
    const colon = u.userinfo?.indexOf(':') ?? -1;
    const safe = colon >= 0 ? { ...u, userinfo: `${u.userinfo!.slice(0, colon)}:***` } : u;
    return goQuote(goUrlString(safe));
  };
  const invalid = initial === DEFAULT_HEADERS ? undefined : invalidHeader(initial.fields);
  if (invalid !== undefined) return failure(`Get ${shown(first)}: ${invalid}`);
  const deadline = new Deadline(env.timeoutMs, env.signal);
  let current = first;
  // Go's req.Host, in bytes as the transport writes it.
  let host = fromText(initial.host);
  let fields = initial.fields;
  try {
    for (let requests = 1; ; requests++) {
      const res = await getOnce({
        url: current,
        target: requestUri(current),
        host: host !== '' ? host : current.host,
        headers:
          fields === DEFAULT_HEADERS.fields && current.userinfo === undefined
            ? DEFAULT_LINES
            : headerLines(withUserinfoAuth(fields, current)),
        guard: env.guard,
        signal: deadline.signal,
        maxBodyBytes: MAX_BODY_BYTES,
        skipBody: (status, location) => FOLLOWED_STATUSES.has(status) && location !== undefined && location !== '',
        rejectUnauthorized: !action.insecureSkipTLSVerify,
        ...(current.scheme === 'https' && secureContext !== undefined ? { secureContext } : {}),
      });
      if (res.skipped && res.location !== undefined) {
        const loc = res.location;
        let next: GoUrl;
        try {
          next = parseReference(current, loc);
        } catch (e) {
          if (!(e instanceof GoUrlError)) throw e;
          return failure(
            `Get ${shown(current)}: failed to parse Location header ${goQuote(loc)}: ${toText(e.message)}`,
          );
        }
        // The kubelet's RedirectChecker: the host name as Go parsed it, byte for byte, against the first request's.
        if (goHostname(next) !== goHostname(first))
          return success(`HTTP probe succeeded with statuscode: ${res.status}`, [
            `Probe terminated redirects: redirect to another host (${toText(next.host)}) is not followed`,
          ]);
        if (requests >= MAX_REDIRECTS) return failure(`Get ${goQuote(loc)}: stopped after ${MAX_REDIRECTS} redirects`);
        if (next.scheme !== 'http' && next.scheme !== 'https')
          return failure(`Get ${shown(next)}: unsupported protocol scheme ${goQuote(next.scheme)}`);
        // Go keeps a custom Host across a relative Location only; the headers are the first request's, plus Referer.
        const relative = parseGoUrl(loc).scheme === '';
        host = host !== '' && host !== current.host && relative ? host : '';
        fields = new Map(initial.fields);
        const referer = refererFor(current, next);
        if (referer !== undefined && (fields.get('Referer')?.[0] ?? '') === '') fields.set('Referer', [referer]);
        current = next;
        continue;
      }
      if (res.status >= 200 && res.status < 300) return success(`HTTP probe succeeded with statuscode: ${res.status}`);
      if (res.status >= 300 && res.status < 400)
        return success(`HTTP probe succeeded with statuscode: ${res.status}`, ['Probe terminated redirects']);
      return failure(`HTTP probe failed with statuscode: ${res.status}`);
    }
  } catch (e) {
    if (e instanceof TransportError) {
      if (isAddressDenied(e.cause)) return configError(`httpGet: ${describeNetError(e.cause, '', '')}`);
      if (e.aborted && !deadline.timedOut) return failure(`Get ${shown(current)}: probe stopped`);
      // The kubelet's DoHTTPProbe returns an error (not a result) when the body cannot be read.
      if (e.phase === 'body') return errored(describeBodyError(e, deadline.timedOut, dialAddress(current)));
      if (e.aborted) return failure(`Get ${shown(current)}: ${describeTimeout(e.phase)}`);
      return failure(
        `Get ${shown(current)}: ${describeNetError(e.cause, dialAddress(current), toText(goHostname(current)), e.socketAddr)}`,
      );
    }
    throw e;
  } finally {
    deadline.dispose();
  }
}
