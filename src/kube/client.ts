// A small Kubernetes REST client: JSON requests and streaming watches over node:https, with the credentials that
// @kubernetes/client-node's KubeConfig resolves (certificates, tokens, exec plugins) and a client-side rate limit with
// priorities. Status codes stay visible (409, 410, 404 drive the callers). Knows no resource. Why not client-node's own
// list/watch: docs/reconciler.md, "Why our own Kubernetes client".
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { RateLimiter, type RequestPriority } from './rate-limiter.js';
import { clockTimeout } from './clock-timeout.js';
import { backgroundClock, type Clock } from '@karmada-cluster-probe/schema/api';
import { trimTrailingSlashes } from '@karmada-cluster-probe/schema/api';

/** A non-2xx answer of the apiserver, with its Status reason and its `details.causes` messages when it sent them. */
export class KubeApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly causes: readonly string[] = [],
  ) {
    super(message);
    this.name = 'KubeApiError';
  }
}

export function isStatus(err: unknown, status: number): boolean {
  return err instanceof KubeApiError && err.status === status;
}

/**
 * The write lost a race on the object's resourceVersion, as far as the answer alone tells: a 409 Conflict (an update's
 * precondition), or a 422 that names the failed `test` of `/metadata/resourceVersion` (a server or proxy that passes the
 * patch library's words on). kube-apiserver and karmada-aggregated-apiserver do not: their 422 to a failed JSON patch
 * test is "the server rejected our request due to an error in our request" and nothing more (apiserver's patch.go,
 * NewGenericServerResponse without causes); `lostResourceVersionRace` reads the object to tell.
 */
export function isResourceVersionConflict(err: unknown): boolean {
  if (!(err instanceof KubeApiError)) return false;
  if (err.status === 409) return true;
  const words = 'testing value /metadata/resourceVersion failed';
  return err.status === 422 && (err.causes.some((c) => c.includes(words)) || err.message.includes(words));
}

/**
 * Whether a JSON patch to `path` whose first operation tested `/metadata/resourceVersion` == `tested` failed because
 * another writer got there first: what the answer says, else (a bare 422) whether the object's resourceVersion has
 * moved past `tested`, read once. A 422 with the object unmoved is a real refusal.
 */
export async function lostResourceVersionRace(
  api: KubeApi,
  path: string,
  err: unknown,
  tested: string | undefined,
): Promise<boolean> {
  if (isResourceVersionConflict(err)) return true;
  if (tested === undefined || !isStatus(err, 422)) return false;
  const now = await api.request<{ metadata?: { resourceVersion?: unknown } }>('GET', path);
  return now.metadata?.resourceVersion !== tested;
}

export interface WatchEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

export interface RequestOptionsIn {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Content type of the body; JSON merge patch for PATCH unless told. */
  contentType?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** `high` goes ahead of every waiting `normal` request in the client-side rate limit, `normal` ahead of `low`; default `normal`. */
  priority?: RequestPriority;
}

/** Anything that can call the Kubernetes API: the real client, or a test double. */
export interface KubeApi {
  request<T>(method: string, path: string, options?: RequestOptionsIn): Promise<T>;
  /** Streams watch events until the server ends the watch (resolves) or it fails (rejects); ERROR 410 rejects. */
  watch<T>(
    path: string,
    query: Record<string, string | number | boolean | undefined>,
    onEvent: (event: WatchEvent<T>) => void,
    signal: AbortSignal,
  ): Promise<void>;
}

/**
 * The same client with a priority for every request that names none: a secondary controller sharing the process's one
 * client (its connections, its rate limit) waits behind the reconciler's own requests (`low`), never ahead of them.
 */
export function withPriority(api: KubeApi, priority: RequestPriority): KubeApi {
  return {
    request: (method, path, options) =>
      api.request(method, path, { ...options, priority: options?.priority ?? priority }),
    watch: (path, query, onEvent, signal) => api.watch(path, query, onEvent, signal),
  };
}

/**
 * The client-side rate limit by default, sized for a mass failure: 10% of 5,000 Clusters failing within one period of
 * 10 s ask for 3 writes each (taint, condition, Event), 150 a second; see docs/reconciler.md.
 */
export const DEFAULT_QPS = 200;
export const DEFAULT_BURST = 400;

export interface KubeClientOptions {
  qps?: number;
  burst?: number;
  userAgent?: string;
  /** Default bound of a non-watch request. */
  timeoutMs?: number;
  /**
   * Told of every request once its answer's status is known (a watch when it starts): the method and the HTTP code,
   * or `error` when none came (refused, reset, timed out). client-go's rest_client_requests_total.
   */
  onResponse?: (method: string, code: string) => void;
  /** The clock of the rate limit and of every request's and watch's deadline (default the real one, unref'd). */
  clock?: Clock;
}

type Query = Record<string, string | number | boolean | undefined>;

function encodeQuery(query: Query | undefined): string {
  if (query === undefined) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query))
    if (v !== undefined) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/**
 * The most bytes of one watch event (one line of the stream). etcd stores no object above 1.5 MiB, so an event is a
 * few MiB at most; a line without end grew the process until V8's string limit threw outside any handler.
 */
export const MAX_WATCH_EVENT_BYTES = 16 * 1024 * 1024;

const WATCH_EVENT_TYPES = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/** The lines of a watch stream, each at most MAX_WATCH_EVENT_BYTES; a longer one throws. */
async function* watchLines(res: IncomingMessage, what: string): AsyncGenerator<string> {
  let parts: Buffer[] = [];
  let size = 0;
  for await (const data of res) {
    const chunk = data as Buffer;
    let from = 0;
    for (let nl = chunk.indexOf(0x0a, from); nl !== -1; nl = chunk.indexOf(0x0a, from)) {
      parts.push(chunk.subarray(from, nl));
      yield Buffer.concat(parts, size + nl - from).toString('utf8');
      parts = [];
      size = 0;
      from = nl + 1;
    }
    if (from < chunk.length) {
      size += chunk.length - from;
      if (size > MAX_WATCH_EVENT_BYTES)
        throw new Error(`${what}: a watch event is larger than ${MAX_WATCH_EVENT_BYTES} bytes (MAX_WATCH_EVENT_BYTES)`);
      parts.push(chunk.subarray(from));
    }
  }
  if (size > 0) yield Buffer.concat(parts, size).toString('utf8');
}

/**
 * Most bytes of one answer (not a watch): a page of 500 objects of a few KiB is a few MiB; an apiserver (or anything in
 * between) that sends more is refused, and its connection closed, before the process runs out of memory.
 */
export const MAX_RESPONSE_BYTES = 128 * 1024 * 1024;
/** Most bytes kept of an error answer: the message is all that is read of it. */
const MAX_ERROR_BYTES = 64 * 1024;

async function readBody(res: IncomingMessage, what: string, limit = MAX_RESPONSE_BYTES): Promise<string> {
  const declared = Number(res.headers['content-length']);
  if (limit === MAX_RESPONSE_BYTES && Number.isFinite(declared) && declared > limit) {
    res.destroy();
    throw new Error(`${what}: the answer is ${declared} bytes, more than ${limit} (MAX_RESPONSE_BYTES)`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > limit) {
      res.destroy();
      // An error answer keeps its first bytes (the message); a result that does not fit is refused.
      if (limit !== MAX_RESPONSE_BYTES) {
        chunks.push(b.subarray(0, b.length - (size - limit)));
        break;
      }
      throw new Error(`${what}: the answer is larger than ${limit} bytes (MAX_RESPONSE_BYTES)`);
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** At most this many of a Status' `details.causes` are kept, each cut at CAUSE_CHARS. */
const MAX_CAUSES = 16;
const CAUSE_CHARS = 500;

function apiError(status: number, body: string, what: string): KubeApiError {
  let reason = '';
  let message = body.slice(0, 500);
  const causes: string[] = [];
  try {
    const s = JSON.parse(body) as { reason?: unknown; message?: unknown; details?: { causes?: unknown } };
    if (typeof s.reason === 'string') reason = s.reason;
    if (typeof s.message === 'string') message = s.message;
    const listed = s.details?.causes;
    if (Array.isArray(listed)) {
      for (const c of listed.slice(0, MAX_CAUSES)) {
        const m = (c as { message?: unknown } | null)?.message;
        if (typeof m === 'string' && m !== '') causes.push(m.slice(0, CAUSE_CHARS));
      }
    }
  } catch {
    // not a Status
  }
  // A field error's cause repeats what the message says; a cause the message does not hold (a failed JSON patch
  // test, whose message is only "the server rejected our request ...") is said after it.
  const unsaid = causes.filter((c) => !message.includes(c));
  const text = unsaid.length > 0 ? `${message} (${unsaid.join('; ')})` : message;
  return new KubeApiError(status, reason, `${what}: ${status}${reason !== '' ? ` ${reason}` : ''}: ${text}`, causes);
}

export class KubeClient implements KubeApi {
  private readonly base: URL;
  private readonly limiter: RateLimiter;
  private readonly agent: HttpsAgent | HttpAgent;
  private readonly userAgent: string;
  private readonly timeoutMs: number;
  private readonly onResponse: ((method: string, code: string) => void) | undefined;
  private readonly clock: Clock;

  constructor(
    private readonly kubeConfig: KubeConfig,
    options: KubeClientOptions = {},
  ) {
    const cluster = kubeConfig.getCurrentCluster();
    if (cluster === null) throw new Error('kubeconfig: no current cluster; set current-context or pass --kubeconfig');
    this.base = new URL(cluster.server);
    this.clock = options.clock ?? backgroundClock;
    this.limiter = new RateLimiter(options.qps ?? DEFAULT_QPS, options.burst ?? DEFAULT_BURST, this.clock);
    this.agent =
      this.base.protocol === 'http:'
        ? new HttpAgent({ keepAlive: true, maxSockets: 128 })
        : new HttpsAgent({ keepAlive: true, maxSockets: 128 });
    this.userAgent = options.userAgent ?? 'cluster-probe-reconciler';
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.onResponse = options.onResponse;
  }

  get server(): string {
    return this.base.href;
  }

  /** Closes idle keep-alive connections. */
  close(): void {
    this.agent.destroy();
  }

  private async options(method: string, path: string, query: Query | undefined): Promise<RequestOptions> {
    const opts: RequestOptions = { headers: {} };
    await this.kubeConfig.applyToHTTPSOptions(opts);
    const prefix = trimTrailingSlashes(this.base.pathname);
    return {
      ...opts,
      method,
      protocol: this.base.protocol,
      hostname: this.base.hostname.replace(/^\[|\]$/g, ''),
      port: this.base.port === '' ? undefined : Number(this.base.port),
      path: `${prefix}${path}${encodeQuery(query)}`,
      agent: this.agent,
      headers: { ...opts.headers, 'user-agent': this.userAgent, accept: 'application/json' },
    };
  }

  /** The answer of `sending`, told to onResponse (its code, or `error` when there is none). */
  private async sent(method: string, sending: Promise<IncomingMessage>): Promise<IncomingMessage> {
    const tell = this.onResponse;
    if (tell === undefined) return sending;
    try {
      const res = await sending;
      tell(method, String(res.statusCode ?? 0));
      return res;
    } catch (err) {
      tell(method, 'error');
      throw err;
    }
  }

  private send(opts: RequestOptions, body: string | undefined, signal: AbortSignal): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = (this.base.protocol === 'http:' ? httpRequest : httpsRequest)({ ...opts, signal }, resolve);
      req.on('error', reject);
      // Node 20 ignores the signal of a request queued for one of the agent's sockets (all 128 taken by watches):
      // the timeout must end the wait too, or a Lease renewal waits for ever.
      const onAbort = (): void => {
        req.destroy();
        reject(signal.reason instanceof Error ? signal.reason : new Error('request aborted'));
      };
      if (signal.aborted) onAbort();
      else {
        signal.addEventListener('abort', onAbort, { once: true });
        req.once('close', () => signal.removeEventListener('abort', onAbort));
      }
      req.end(body);
    });
  }

  async request<T>(method: string, path: string, options: RequestOptionsIn = {}): Promise<T> {
    await this.limiter.take(options.priority);
    const opts = await this.options(method, path, options.query);
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      opts.headers = {
        ...opts.headers,
        'content-type':
          options.contentType ?? (method === 'PATCH' ? 'application/merge-patch+json' : 'application/json'),
        'content-length': Buffer.byteLength(body),
      };
    }
    const timeout = clockTimeout(this.clock, options.timeoutMs ?? this.timeoutMs);
    try {
      const signal = options.signal !== undefined ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
      const what = `${method} ${path}`;
      const res = await this.sent(method, this.send(opts, body, signal));
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300) throw apiError(status, await readBody(res, what, MAX_ERROR_BYTES), what);
      const text = await readBody(res, what);
      return (text === '' ? {} : JSON.parse(text)) as T;
    } finally {
      timeout.clear();
    }
  }

  async watch<T>(
    path: string,
    query: Query,
    onEvent: (event: WatchEvent<T>) => void,
    signal: AbortSignal,
  ): Promise<void> {
    await this.limiter.take();
    const opts = await this.options('GET', path, { ...query, watch: 'true' });
    const serverTimeout = typeof query.timeoutSeconds === 'number' ? query.timeoutSeconds : 300;
    // A watch that goes silent past the server's own timeout (a half-open connection) is cut here.
    const stall = clockTimeout(this.clock, (serverTimeout + 30) * 1000);
    let res: IncomingMessage;
    try {
      res = await this.sent('WATCH', this.send(opts, undefined, AbortSignal.any([signal, stall.signal])));
    } catch (err) {
      stall.clear();
      throw err;
    }
    const status = res.statusCode ?? 0;
    if (status !== 200) {
      stall.clear();
      throw apiError(status, await readBody(res, `watch ${path}`, MAX_ERROR_BYTES), `watch ${path}`);
    }
    try {
      for await (const line of watchLines(res, `watch ${path}`)) {
        if (line.trim() === '') continue;
        const event = JSON.parse(line) as WatchEvent<T> | null;
        // client-go's decoder refuses these too; applied, an unknown type was stored as an add.
        if (event === null || typeof event !== 'object' || !WATCH_EVENT_TYPES.has(event.type))
          throw new Error(`watch ${path}: got invalid watch event type ${JSON.stringify(event?.type ?? null)}`);
        if (event.object === null || typeof event.object !== 'object')
          throw new Error(`watch ${path}: a ${event.type} event without an object`);
        if (event.type === 'ERROR') {
          const s = event.object as { code?: unknown; reason?: unknown; message?: unknown };
          const code = typeof s.code === 'number' ? s.code : 500;
          throw new KubeApiError(
            code,
            typeof s.reason === 'string' ? s.reason : '',
            `watch ${path}: ${String(s.message)}`,
          );
        }
        onEvent(event);
      }
    } finally {
      // However the watch ends (an ERROR event, bad JSON, a handler that throws), its socket goes back now: left
      // open it held one of the agent's sockets until the stall timer, minutes later.
      stall.clear();
      res.destroy();
    }
    if (signal.aborted) return;
  }
}
