// The apiServer handler: GET a health path on the member's apiserver with the caller's bearer token and CA, then count
// Ready Nodes and Ready non-hostNetwork Pods page by page (`limit`/`continue`), one decoded object at a time, stopping
// as soon as the minimum is met. What it reads is bounded by the read budget (read-budget.ts), in bytes, objects and
// pages, whatever the member sends. Plain node:https: no Kubernetes client, no Secret reading.
import type { SecureContext } from 'node:tls';
import { codedError, configError, errored, failure, success, type HandlerEnv, type HandlerResult } from './handler.js';
import { Deadline } from './deadline.js';
import {
  fromText,
  goHostname,
  goQuote,
  goUrlString,
  GoUrlError,
  parseGoUrl,
  parseReference,
  requestUri,
  toText,
  type GoUrl,
} from './go-url.js';
import { FOLLOWED_STATUSES, headerLines, MAX_REDIRECTS } from './http-probe.js';
import { dialAddress, getOnce, TransportError, type GetResponse } from './http-request.js';
import { ListScanner, NotJsonError } from './list-scanner.js';
import { describeBodyError, describeNetError, describeTimeout, isAddressDenied } from './net-error.js';
import { API_SERVER_READ_BUDGET, ReadBudgetExceeded } from './read-budget.js';
import { contextFromPem } from './tls-context.js';
import type { ProbeCredentials } from './types.js';
import { USER_AGENT } from './version.js';
import { trimTrailingSlashes } from '@karmada-cluster-probe/schema/api';

/** Items asked for per list page (the read budget's itemsPerPage). */
export const LIST_PAGE_SIZE = API_SERVER_READ_BUDGET.itemsPerPage;

export interface ResolvedApiServer {
  path: string;
  minReadyNodes?: number;
  minReadyPods?: number;
}

export interface ApiServerTarget {
  apiEndpoint: string;
  credentials?: ProbeCredentials;
  insecureSkipTLSVerify?: boolean;
}

interface Condition {
  type?: unknown;
  status?: unknown;
}

function readyTrue(conditions: unknown): boolean {
  return (
    Array.isArray(conditions) &&
    conditions.some((c: Condition) => typeof c === 'object' && c !== null && c.type === 'Ready' && c.status === 'True')
  );
}

function nodeReady(item: unknown): boolean {
  const status = (item as { status?: { conditions?: unknown } } | null)?.status;
  return readyTrue(status?.conditions);
}

function podReady(item: unknown): boolean {
  const pod = item as { spec?: { hostNetwork?: unknown }; status?: { phase?: unknown; conditions?: unknown } } | null;
  return pod?.spec?.hostNetwork !== true && pod?.status?.phase === 'Running' && readyTrue(pod.status.conditions);
}

class ProbeFailed extends Error {}
class ProbeConfigError extends Error {}
/** The kubelet's errored probe: not the member's fault as far as we can tell (a body that cannot be read). */
class ProbeErrored extends Error {}
/** The member refused our credentials: `message` names where, `detail` what. */
class CredentialsRejected extends Error {
  constructor(
    readonly where: string,
    readonly detail: string,
  ) {
    super(`${where}: ${detail}`);
  }
}

/**
 * 401 and 403 say our credentials (the caller's token) broke, not the member: a fault of the configuration (the
 * Secret), reported at once and never counted against the member. Not an errored probe: that would be retried and
 * then discarded, and a revoked token would leave the last verdict standing, unseen, for as long as it lasts.
 */
function credentialsRefused(status: number, what: string): CredentialsRejected | undefined {
  if (status !== 401 && status !== 403) return undefined;
  return new CredentialsRejected(
    what,
    `statuscode: ${status}: the member refused the probe's credentials (token or client certificate)`,
  );
}

export async function apiServerProbe(
  action: ResolvedApiServer,
  target: ApiServerTarget,
  env: HandlerEnv,
): Promise<HandlerResult> {
  let base: URL;
  try {
    base = new URL(target.apiEndpoint);
  } catch {
    return configError(`apiServer: spec.apiEndpoint "${target.apiEndpoint}" is not a URL`);
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:')
    return configError(`apiServer: spec.apiEndpoint "${target.apiEndpoint}" must be an https:// URL`);
  let secureContext: SecureContext | undefined;
  const insecure = target.insecureSkipTLSVerify === true;
  if (!insecure && target.credentials?.caBundlePem !== undefined && target.credentials.caBundlePem !== '') {
    const ctx = contextFromPem(target.credentials.caBundlePem, 'apiServer: credentials caBundle');
    if (!ctx.ok) return configError(ctx.message);
    secureContext = ctx.context;
  }
  const fields = new Map<string, string[]>([
    ['User-Agent', [USER_AGENT]],
    ['Accept', ['application/json, */*']],
  ]);
  const token = target.credentials?.token;
  if (token !== undefined && token !== '') fields.set('Authorization', [`Bearer ${token}`]);
  const headers = headerLines(fields);
  const prefix = trimTrailingSlashes(base.pathname);
  const deadline = new Deadline(env.timeoutMs, env.signal);
  const budget = API_SERVER_READ_BUDGET;
  let shown = '';
  let probeBytes = 0;

  /** One GET within what is left of the probe's byte budget; `onBody` streams the body instead of buffering it. */
  const get = async (
    pathAndQuery: string,
    maxBodyBytes: number,
    onBody?: (chunk: Buffer, status: number) => boolean,
  ): Promise<GetResponse> => {
    const first = parseGoUrl(fromText(`${base.protocol}//${base.host}${prefix}${pathAndQuery}`));
    let url = first;
    shown = goUrlString(url);
    const left = budget.maxProbeBytes - probeBytes;
    let res: GetResponse;
    try {
      // Same-host redirects are followed as the httpGet handler follows them (Go's rules, 10 requests at most); a
      // redirect elsewhere is not, and ends as the 3xx it is.
      for (let requests = 1; ; requests++) {
        res = await getOnce({
          url,
          target: requestUri(url),
          host: url.host,
          headers,
          guard: env.guard,
          signal: deadline.signal,
          maxBodyBytes: Math.min(maxBodyBytes, left),
          skipBody: (status, location) => FOLLOWED_STATUSES.has(status) && location !== undefined && location !== '',
          ...(onBody !== undefined ? { onBody } : {}),
          rejectUnauthorized: !insecure,
          ...(secureContext !== undefined ? { secureContext } : {}),
        });
        if (!res.skipped || res.location === undefined) break;
        let next: GoUrl;
        try {
          next = parseReference(url, res.location);
        } catch (e) {
          if (!(e instanceof GoUrlError)) throw e;
          throw new ProbeFailed(
            `Get ${goQuote(shown)}: failed to parse Location header ${goQuote(res.location)}: ${toText(e.message)}`,
          );
        }
        // Not elsewhere, and never from https to http: the next request carries the bearer token (Go's client would
        // send it in clear there; a probe must not).
        if (goHostname(next) !== goHostname(first) || (url.scheme === 'https' && next.scheme === 'http')) break;
        if (requests >= MAX_REDIRECTS)
          throw new ProbeFailed(`Get ${goQuote(res.location)}: stopped after ${MAX_REDIRECTS} redirects`);
        if (next.scheme !== 'http' && next.scheme !== 'https')
          throw new ProbeFailed(
            `Get ${goQuote(goUrlString(next))}: unsupported protocol scheme ${goQuote(next.scheme)}`,
          );
        url = next;
        shown = goUrlString(url);
      }
    } catch (e) {
      if (e instanceof TransportError) {
        if (isAddressDenied(e.cause)) throw new ProbeConfigError(`apiServer: ${describeNetError(e.cause, '', '')}`);
        if (e.aborted && !deadline.timedOut) throw new ProbeFailed(`Get ${goQuote(shown)}: probe stopped`);
        // The health body cut short or reset: errored, as the httpGet handler's (the kubelet's DoHTTPProbe). Not a
        // timeout (the member did not answer in time: a stalled body is how a sick apiserver shows, and an errored
        // probe is not counted, so one that stalls every time would never be judged), nor a list (its body is the
        // member's answer to the check itself): those are failures (docs/probe.md).
        if (e.phase === 'body' && onBody === undefined && !deadline.timedOut)
          throw new ProbeErrored(`Get ${goQuote(shown)}: ${describeBodyError(e, false, dialAddress(url))}`);
        if (e.phase === 'body' && !e.aborted)
          throw new ProbeFailed(`Get ${goQuote(shown)}: ${describeBodyError(e, false, dialAddress(url))}`);
        if (e.aborted) throw new ProbeFailed(`Get ${goQuote(shown)}: ${describeTimeout(e.phase)}`);
        throw new ProbeFailed(
          `Get ${goQuote(shown)}: ${describeNetError(e.cause, dialAddress(url), toText(goHostname(url)), e.socketAddr)}`,
        );
      }
      throw e;
    }
    probeBytes += res.bytesRead;
    if (res.truncated && left <= maxBodyBytes)
      throw new ReadBudgetExceeded('maxProbeBytes', `the probe has read more than ${budget.maxProbeBytes} bytes`);
    return res;
  };

  /** Counts matching items over pages until `min` is reached or the list ends; a bound hit is a failure. */
  const countUntil = async (
    resource: string,
    query: string,
    min: number,
    matches: (item: unknown) => boolean,
  ): Promise<{ count: number; complete: boolean }> => {
    try {
      return await countPages(resource, query, min, matches);
    } catch (e) {
      if (e instanceof ReadBudgetExceeded) throw new ProbeFailed(`listing ${resource}: ${e.message}`);
      if (e instanceof NotJsonError)
        throw new ProbeFailed(`listing ${resource}: the response is not JSON: ${e.message}`);
      throw e;
    }
  };

  const countPages = async (
    resource: string,
    query: string,
    min: number,
    matches: (item: unknown) => boolean,
  ): Promise<{ count: number; complete: boolean }> => {
    let count = 0;
    let cont = '';
    for (let pages = 0; ; pages++) {
      if (pages === budget.maxPages)
        throw new ReadBudgetExceeded('maxPages', `the member returned a continue token after ${budget.maxPages} pages`);
      const q = `?limit=${LIST_PAGE_SIZE}${query}${cont !== '' ? `&continue=${encodeURIComponent(cont)}` : ''}`;
      // Items are decoded one at a time as they arrive; reading stops at the one that meets the minimum.
      const scanner = new ListScanner(budget, (item) => matches(item) && ++count >= min);
      const res = await get(`/api/v1/${resource}${q}`, budget.maxResponseBytes, (chunk, status) =>
        status === 200 ? scanner.write(chunk) : true,
      );
      if (res.status !== 200)
        throw (
          credentialsRefused(res.status, `listing ${resource}`) ??
          new ProbeFailed(`listing ${resource} failed with statuscode: ${res.status}`)
        );
      if (count >= min) return { count, complete: false };
      if (res.truncated)
        throw new ReadBudgetExceeded('maxResponseBytes', `a response is larger than ${budget.maxResponseBytes} bytes`);
      const page = scanner.end();
      if (!page.sawItems) throw new ProbeFailed(`listing ${resource}: the response has no items`);
      if (page.continueToken === undefined) return { count, complete: true };
      cont = page.continueToken;
    }
  };

  try {
    const health = await get(action.path.startsWith('/') ? action.path : `/${action.path}`, budget.maxHealthBodyBytes);
    const refused = credentialsRefused(health.status, `GET ${action.path}`);
    if (refused !== undefined) throw refused;
    if (health.status < 200 || health.status >= 300)
      return failure(`GET ${action.path} failed with statuscode: ${health.status}`);
    const parts = [`GET ${action.path}: statuscode: ${health.status}`];
    if (action.minReadyNodes !== undefined && action.minReadyNodes > 0) {
      const { count } = await countUntil('nodes', '', action.minReadyNodes, nodeReady);
      if (count < action.minReadyNodes)
        return failure(`${count} Ready nodes, fewer than the ${action.minReadyNodes} required (minReadyNodes)`);
      parts.push(`at least ${action.minReadyNodes} Ready nodes`);
    }
    if (action.minReadyPods !== undefined && action.minReadyPods > 0) {
      const { count } = await countUntil(
        'pods',
        `&fieldSelector=${encodeURIComponent('status.phase=Running')}`,
        action.minReadyPods,
        podReady,
      );
      if (count < action.minReadyPods)
        return failure(
          `${count} Ready non-hostNetwork pods, fewer than the ${action.minReadyPods} required (minReadyPods)`,
        );
      parts.push(`at least ${action.minReadyPods} Ready non-hostNetwork pods`);
    }
    return success(`apiServer probe succeeded: ${parts.join('; ')}`);
  } catch (e) {
    if (e instanceof ProbeConfigError) return configError(e.message);
    if (e instanceof CredentialsRejected) return codedError('CredentialsRejected', e.where, e.detail);
    if (e instanceof ProbeFailed) return failure(e.message);
    if (e instanceof ProbeErrored) return errored(e.message);
    throw e;
  } finally {
    deadline.dispose();
  }
}
