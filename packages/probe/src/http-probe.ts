// The httpGet handler: kubelet semantics (200-399 passes, same-host redirects followed up to 10, 10 KiB of body at most,
// a new connection each time) with TLS verified unless opted out. Depends on the transport and the address guard only.
import type { SecureContext } from 'node:tls';
import { codedError, configError, failure, success, urlHost, type HandlerEnv, type HandlerResult } from './handler.js';
import { Deadline } from './deadline.js';
import { dialAddress, getOnce, TransportError } from './http-request.js';
import { describeNetError, describeTimeout, isAddressDenied } from './net-error.js';
import { contextFromBase64 } from './tls-context.js';
import type { HttpHeader } from './types.js';
import { USER_AGENT } from './version.js';

/** The kubelet's limits (pkg/probe/http): body bytes read and redirects followed. */
export const MAX_BODY_BYTES = 10 * 1024;
export const MAX_REDIRECTS = 10;
const FOLLOWED_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface ResolvedHttpGet {
  scheme: 'HTTP' | 'HTTPS';
  host: string;
  port: number;
  path: string;
  httpHeaders: HttpHeader[];
  caBundle?: string;
  insecureSkipTLSVerify: boolean;
}

/** Request headers: the user's, plus User-Agent and Accept defaults as the kubelet adds them. */
export function buildHeaders(httpHeaders: readonly HttpHeader[]): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  const seen = new Set<string>();
  for (const { name, value } of httpHeaders) {
    const key = name.toLowerCase();
    // As the kubelet: the Host header sets the request's host; it is not sent twice.
    const prior = headers[key];
    if (key === 'host') headers[key] = value;
    else if (prior === undefined) headers[key] = value;
    else headers[key] = Array.isArray(prior) ? [...prior, value] : [prior, value];
    seen.add(key);
  }
  if (!seen.has('user-agent')) headers['user-agent'] = USER_AGENT;
  if (!seen.has('accept')) headers['accept'] = '*/*';
  return headers;
}

export function probeUrl(a: Pick<ResolvedHttpGet, 'scheme' | 'host' | 'port' | 'path'>): string {
  const path = a.path.startsWith('/') ? a.path : `/${a.path}`;
  return `${a.scheme.toLowerCase()}://${urlHost(a.host)}:${a.port}${path}`;
}

export async function httpProbe(action: ResolvedHttpGet, env: HandlerEnv): Promise<HandlerResult> {
  const shown = probeUrl(action);
  let url: URL;
  try {
    url = new URL(shown);
  } catch {
    return configError(`httpGet: "${shown}" is not a valid URL`);
  }
  let secureContext: SecureContext | undefined;
  if (action.scheme === 'HTTPS' && !action.insecureSkipTLSVerify && action.caBundle !== undefined) {
    const ctx = contextFromBase64(action.caBundle, 'httpGet.caBundle');
    if (!ctx.ok) return codedError('InvalidCABundle', ctx.field, ctx.detail);
    secureContext = ctx.context;
  }
  const headers = buildHeaders(action.httpHeaders);
  const deadline = new Deadline(env.timeoutMs, env.signal);
  let current = url;
  let currentShown = shown;
  try {
    for (let redirects = 0; ; redirects++) {
      const res = await getOnce({
        url: current,
        headers,
        guard: env.guard,
        signal: deadline.signal,
        maxBodyBytes: MAX_BODY_BYTES,
        rejectUnauthorized: !action.insecureSkipTLSVerify,
        ...(current.protocol === 'https:' && secureContext !== undefined ? { secureContext } : {}),
      });
      if (FOLLOWED_STATUSES.has(res.status) && res.location !== undefined) {
        let next: URL;
        try {
          next = new URL(res.location, current);
        } catch {
          return success(`HTTP probe succeeded with statuscode: ${res.status}`, [
            'Probe terminated redirects: the Location header is not a valid URL',
          ]);
        }
        if (next.hostname !== url.hostname)
          return success(`HTTP probe succeeded with statuscode: ${res.status}`, [
            `Probe terminated redirects: redirect to another host (${next.host}) is not followed`,
          ]);
        if (redirects + 1 > MAX_REDIRECTS)
          return failure(`Get "${next.href}": stopped after ${MAX_REDIRECTS} redirects`);
        current = next;
        currentShown = next.href;
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
      if (e.aborted && deadline.timedOut) return failure(`Get "${currentShown}": ${describeTimeout(e.phase)}`);
      if (e.aborted) return failure(`Get "${currentShown}": probe stopped`);
      return failure(
        `Get "${currentShown}": ${describeNetError(e.cause, dialAddress(current), current.hostname.replace(/^\[|\]$/g, ''))}`,
      );
    }
    throw e;
  } finally {
    deadline.dispose();
  }
}
