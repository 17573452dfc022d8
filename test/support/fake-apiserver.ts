// The one in-memory Kubernetes apiserver of the tests that drive the reconciler: a store of objects by REST path with
// list and watch (label selectors, the field selectors metadata.name and metadata.namespace, a watch resumed from a
// list's resourceVersion), get, create, update and delete with resourceVersion and uid preconditions (409 Conflict as
// KubeApiError), JSON merge patches and server-side apply, /status subresources (Clusters, ClusterProfiles), Events,
// and coordination.k8s.io Leases whose liveness it judges on its own clock. It logs what it was asked and the Cluster
// writes and Events it took, and takes hooks that fail, delay or race a request, and a client per replica that can be
// cut off. Probes go to real servers on 127.0.0.1; only the Kubernetes API is stood in for (the e2e suites use a real
// one). Test code: imports only the code under test's types, its error class and its real clock.
import {
  KubeApiError,
  RealClock,
  type Clock,
  type KubeApi,
  type RequestOptionsIn,
  type WatchEvent,
} from '../../src/kube/index.js';
import type { MemberLease } from '../../src/kube/membership.js';
import type { Cluster } from '../../packages/schema/src/schema/index.js';

type Query = Record<string, string | number | boolean | undefined>;

interface Meta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  labels?: Record<string, string>;
}
interface Obj {
  metadata?: Meta;
  status?: unknown;
}

/** Where a request goes: a resource (`group/resource`), maybe a namespace, an object and a subresource. */
export interface Target {
  /** `cluster.karmada.io/clusters`, `/secrets` (the core group is empty), `coordination.k8s.io/leases`. */
  resource: string;
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** A request as the server takes it, for hooks: who sent it (a client's identity) and where it goes. */
export interface ServedRequest {
  method: string;
  path: string;
  options: RequestOptionsIn;
  writer: string;
  target: Target;
}

/** A Cluster write or an Event the server took, in order. */
export interface Write {
  /** `taints` (a patch of the Cluster: its spec), `status` (of its /status), `event` (an Event posted). */
  kind: 'taints' | 'status' | 'event';
  /** The Cluster's name (an Event's involvedObject). */
  cluster: string;
  /** The Event's reason. */
  reason?: string;
  /** The identity of the client that sent it (`client` for the server's own request()). */
  writer: string;
  /** The server's clock when it took it. */
  at: number;
}

export interface RecordedEvent {
  reason: string;
  type: string;
  message: string;
  involvedObject: { name: string };
}

export const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';
const CLUSTER = 'cluster.karmada.io/clusters';
const LEASE = 'coordination.k8s.io/leases';
const EVENT = '/events';
/** Custom resources whose /status is a subresource: a write of one never changes the other half. */
const WITH_STATUS = new Set([CLUSTER, 'multicluster.x-k8s.io/clusterprofiles']);
/**
 * Changes kept per resource to resume a watch from an older resourceVersion (the apiserver's watch cache); older than
 * that: 410 Gone. Few, so that what a test or the memory bench keeps alive is the objects stored, not their history.
 */
const REPLAY_WINDOW = 100;

function parsePath(path: string): Target {
  const parts = path.split('/').slice(1).map(decodeURIComponent);
  let group: string;
  let rest: string[];
  if (parts[0] === 'api') [group, rest] = ['', parts.slice(2)];
  else if (parts[0] === 'apis') [group, rest] = [parts[1]!, parts.slice(3)];
  else throw new KubeApiError(404, 'NotFound', `the server could not find the requested resource (${path})`);
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) [namespace, rest] = [rest[1], rest.slice(2)];
  const [resource, name, subresource] = rest;
  if (resource === undefined) throw new KubeApiError(404, 'NotFound', `no resource in ${path}`);
  return { resource: `${group}/${resource}`, namespace, name, subresource };
}

/** A label selector as the apiserver reads it: `k=v`, `k==v`, `k!=v`, `k`, `!k`, comma-separated (all must hold). */
function labelsMatch(selector: string | undefined, labels: Record<string, string> = {}): boolean {
  for (const term of (selector ?? '').split(',').map((t) => t.trim())) {
    if (term === '') continue;
    const ne = /^([^!=]+)!=(.*)$/.exec(term);
    const eq = /^([^!=]+)==?(.*)$/.exec(term);
    if (
      ne !== null
        ? labels[ne[1]!] === ne[2]
        : eq !== null
          ? labels[eq[1]!] !== eq[2]
          : term.startsWith('!')
            ? term.slice(1) in labels
            : !(term in labels)
    )
      return false;
  }
  return true;
}

/** The field selectors every resource supports: metadata.name and metadata.namespace, `=`, `==` or `!=`. */
function fieldsMatch(selector: string | undefined, meta: Meta = {}): boolean {
  for (const term of (selector ?? '').split(',').map((t) => t.trim())) {
    if (term === '') continue;
    const m = /^([^!=]+)(!=|==|=)(.*)$/.exec(term);
    const field = m?.[1];
    if (m === null || (field !== 'metadata.name' && field !== 'metadata.namespace'))
      throw new KubeApiError(400, 'BadRequest', `field label not supported: ${term}`);
    const value = field === 'metadata.name' ? meta.name : meta.namespace;
    if ((value === m[3]) !== (m[2] !== '!=')) return false;
  }
  return true;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7386: objects merge key by key, null removes a key, anything else (arrays too) replaces. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch))
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  return out;
}

interface Watcher {
  target: Target;
  query: Query;
  onEvent: (e: WatchEvent<unknown>) => void;
}

interface Change {
  rv: number;
  resource: string;
  type: WatchEvent<unknown>['type'];
  /** The object as stored then (never changed after: a write stores a new object). */
  object: Obj;
  /** The object before the change, to tell a selector's watcher that it left or entered its view. */
  before?: Obj;
}

export interface FakeApiServerOptions {
  /** The clock of a Lease's liveness and of the write log's times (default the real one). */
  clock?: Clock;
}

export class FakeApiServer implements KubeApi {
  readonly clock: Clock;
  private rv = 0;
  private uids = 0;
  private readonly store = new Map<string, Map<string, Obj>>();
  private readonly watchers = new Set<Watcher>();
  /** By resource: its latest changes, and the resourceVersion of the last one dropped (a watch must start after it). */
  private readonly recent = new Map<string, { changes: Change[]; dropped: number }>();
  /** Fake-clock time of the last write that changed a Lease's renewTime: the apiserver's own view of liveness. */
  private readonly renewedAt = new Map<string, number>();
  private readonly hooks = new Set<(r: ServedRequest) => void | Promise<void>>();
  /** Every request that reached the server, `METHOD path` (a watch: `WATCH path`), in order. */
  readonly requests: string[] = [];
  /** The Cluster writes and Events it took, in order, with their writer and time. */
  readonly log: Write[] = [];
  /** The Events posted, as sent. */
  readonly events: RecordedEvent[] = [];

  constructor(options: FakeApiServerOptions = {}) {
    this.clock = options.clock ?? new RealClock();
  }

  // ---- What the tests read. ----

  /** Cluster writes, `taints NAME` or `status NAME`. */
  get writes(): string[] {
    return this.log.filter((w) => w.kind !== 'event').map((w) => `${w.kind} ${w.cluster}`);
  }

  /** Cluster writes and Events in the order they came: `taints NAME`, `status NAME`, `event REASON NAME`. */
  get history(): string[] {
    return this.log.map((w) => (w.kind === 'event' ? `event ${w.reason} ${w.cluster}` : `${w.kind} ${w.cluster}`));
  }

  /** Cluster writes only (no Event), with their writer and time. */
  get clusterWrites(): Write[] {
    return this.log.filter((w) => w.kind !== 'event');
  }

  /** Requests that write (not GET, not WATCH), `METHOD path`. */
  writeRequests(): string[] {
    return this.requests.filter((r) => !r.startsWith('GET ') && !r.startsWith('WATCH '));
  }

  cluster(name: string): Cluster | undefined {
    return this.get<Cluster>(`${CLUSTERS}/${encodeURIComponent(name)}`);
  }

  /** The object at a REST path, a copy; undefined when there is none. */
  get<T>(path: string): T | undefined {
    const t = parsePath(path);
    const o = this.store.get(t.resource)?.get(`${t.namespace ?? ''}/${t.name ?? ''}`);
    return o === undefined ? undefined : (structuredClone(o) as T);
  }

  /** The Leases as stored now (copies). */
  leases(): MemberLease[] {
    return [...(this.store.get(LEASE)?.values() ?? [])].map((l) => structuredClone(l) as MemberLease);
  }

  /** The Leases the apiserver would call live now: renewed, on its clock, within their duration. */
  liveLeases(): MemberLease[] {
    return this.leases().filter((l) => {
      const at = this.renewedAt.get(`${l.metadata?.namespace ?? ''}/${l.metadata?.name ?? ''}`);
      return at !== undefined && this.clock.now() - at < (l.spec?.leaseDurationSeconds ?? 0) * 1000;
    });
  }

  /** The holder identities of the live Leases, sorted. */
  liveHolders(): string[] {
    return this.liveLeases()
      .map((l) => l.spec?.holderIdentity ?? '')
      .sort();
  }

  // ---- What the tests write, as a user or another controller would (not in the log). ----

  /** Creates or replaces a Cluster, as a user's `kubectl apply` would (status kept unless given). */
  putCluster(cluster: Cluster): Cluster {
    const name = cluster.metadata?.name ?? '';
    const before = this.store.get(CLUSTER)?.get(`/${name}`) as Cluster | undefined;
    const c = structuredClone(cluster);
    if (c.status === undefined && before?.status !== undefined) c.status = before.status;
    c.metadata = { ...c.metadata, uid: before?.metadata?.uid ?? c.metadata?.uid ?? `uid-${name}` };
    return this.save(CLUSTER, c);
  }

  /** Another writer's change to a Cluster (its resourceVersion moves on; watchers hear of it). */
  updateCluster(name: string, change: (c: Cluster) => void): Cluster {
    const c = this.cluster(name);
    if (c === undefined) throw new Error(`fake apiserver: no Cluster ${name}`);
    change(c);
    return this.save(CLUSTER, c);
  }

  deleteCluster(name: string): void {
    this.remove(CLUSTER, `/${name}`);
  }

  putSecret(namespace: string, name: string, data: Record<string, string>): void {
    this.save('/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { namespace, name }, data });
  }

  // ---- Faults. ----

  /**
   * Runs `hook` before every request the server takes, until the returned function is called: it may throw (the
   * request fails with that error), wait (a slow apiserver) or change the store (another writer, racing).
   */
  before(hook: (r: ServedRequest) => void | Promise<void>): () => void {
    this.hooks.add(hook);
    return () => this.hooks.delete(hook);
  }

  /** `hook` before the next request with `method` only. */
  beforeNext(method: string, hook: (r: ServedRequest) => void | Promise<void>): void {
    const off = this.before((r) => {
      if (r.method !== method) return;
      off();
      return hook(r);
    });
  }

  /** A replica's own connection: its writes logged under `identity`, and cut off as the test says. */
  client(identity: string): FakeClient {
    return new FakeClient(this, identity);
  }

  // ---- KubeApi. ----

  request<T>(method: string, path: string, options: RequestOptionsIn = {}): Promise<T> {
    return this.serve<T>('client', method, path, options);
  }

  watch<T>(path: string, query: Query, onEvent: (e: WatchEvent<T>) => void, signal: AbortSignal): Promise<void> {
    return this.serveWatch(path, query, onEvent, signal);
  }

  /** A request from `writer`. */
  async serve<T>(writer: string, method: string, path: string, options: RequestOptionsIn = {}): Promise<T> {
    await Promise.resolve();
    // As the client: a request whose signal was aborted before it went out is never sent.
    if (options.signal?.aborted === true) throw options.signal.reason as Error;
    this.requests.push(`${method} ${path}`);
    const target = parsePath(path);
    for (const hook of [...this.hooks]) await hook({ method, path, options, writer, target });
    return this.handle(writer, method, target, options) as T;
  }

  /** A watch: resolves when `signal` aborts; rejects with 410 when its resourceVersion is too old. */
  serveWatch<T>(path: string, query: Query, onEvent: (e: WatchEvent<T>) => void, signal: AbortSignal): Promise<void> {
    this.requests.push(`WATCH ${path}`);
    let w: Watcher;
    try {
      w = { target: parsePath(path), query, onEvent: onEvent as (e: WatchEvent<unknown>) => void };
      fieldsMatch(query.fieldSelector as string | undefined);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    // Without a resourceVersion (or "0"): from now on. With one: every change after it, or 410 once it is compacted.
    const asked = query.resourceVersion;
    const from = asked === undefined || asked === '' || asked === '0' ? this.rv : Number(asked);
    const recent = this.recent.get(w.target.resource);
    if (recent !== undefined && from < recent.dropped)
      return Promise.reject(new KubeApiError(410, 'Expired', `too old resource version: ${from} (${recent.dropped})`));
    for (const c of recent?.changes ?? []) if (c.rv > from) this.deliver(w, c);
    this.watchers.add(w);
    return new Promise((resolve) => {
      const done = (): void => {
        this.watchers.delete(w);
        resolve();
      };
      if (signal.aborted) done();
      else signal.addEventListener('abort', done, { once: true });
    });
  }

  // ---- The store. ----

  private objects(resource: string): Map<string, Obj> {
    let m = this.store.get(resource);
    if (m === undefined) this.store.set(resource, (m = new Map()));
    return m;
  }

  private handle(writer: string, method: string, t: Target, options: RequestOptionsIn): unknown {
    const objects = this.objects(t.resource);
    const what = `${t.resource.split('/')[1]} "${t.name ?? ''}"`;
    if (t.name === undefined) {
      if (method === 'GET') {
        const items = [...objects.values()]
          .filter((o) => this.selects({ target: t, query: options.query ?? {} }, o))
          .map((o) => structuredClone(o));
        return { kind: 'List', items, metadata: { resourceVersion: String(this.rv) } };
      }
      if (method === 'POST') {
        const body = structuredClone(options.body) as Obj;
        const meta: Meta = { ...body.metadata, namespace: t.namespace ?? body.metadata?.namespace };
        if (meta.name === undefined && meta.generateName !== undefined)
          meta.name = `${meta.generateName}${(++this.uids).toString(36).padStart(5, '0')}`;
        body.metadata = meta;
        const key = `${meta.namespace ?? ''}/${meta.name ?? ''}`;
        if (objects.has(key))
          throw new KubeApiError(409, 'AlreadyExists', `${t.resource.split('/')[1]} "${meta.name}" already exists`);
        delete meta.resourceVersion;
        const out = this.save(t.resource, body);
        if (t.resource === EVENT) {
          const e = body as unknown as RecordedEvent;
          this.events.push(e);
          this.log.push({
            kind: 'event',
            cluster: e.involvedObject?.name,
            reason: e.reason,
            writer,
            at: this.clock.now(),
          });
        }
        return out;
      }
      throw new Error(`fake apiserver: unexpected ${method} on the collection ${t.resource}`);
    }
    const key = `${t.namespace ?? ''}/${t.name}`;
    const stored = objects.get(key);
    const apply = method === 'PATCH' && options.contentType === 'application/apply-patch+yaml';
    if (stored === undefined && !(apply && t.subresource === undefined))
      throw new KubeApiError(404, 'NotFound', `${what} not found`);
    if (method === 'GET') return structuredClone(stored);
    const body = (options.body ?? {}) as Obj;
    if (method === 'DELETE') {
      const pre = (body as { preconditions?: { resourceVersion?: string; uid?: string } }).preconditions;
      if (pre?.resourceVersion !== undefined && pre.resourceVersion !== stored!.metadata?.resourceVersion)
        throw new KubeApiError(
          409,
          'Conflict',
          `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}`,
        );
      if (pre?.uid !== undefined && pre.uid !== stored!.metadata?.uid)
        throw new KubeApiError(409, 'Conflict', `Precondition failed: UID in precondition: ${pre.uid}`);
      this.remove(t.resource, key);
      return { kind: 'Status', status: 'Success' };
    }
    // An update or a patch carrying a resourceVersion is conditional on it (optimistic concurrency).
    const rv = body.metadata?.resourceVersion;
    if (stored !== undefined && rv !== undefined && rv !== stored.metadata?.resourceVersion)
      throw new KubeApiError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${what}: the object has been modified; please apply your changes to the latest version and try again`,
      );
    let next: Obj;
    if (method === 'PUT') next = structuredClone(body);
    else if (method === 'PATCH') {
      if (!apply && options.contentType !== undefined && options.contentType !== 'application/merge-patch+json')
        throw new KubeApiError(
          415,
          'UnsupportedMediaType',
          `fake apiserver: ${options.contentType} is not served here`,
        );
      next = mergePatch(stored ?? {}, body) as Obj;
    } else throw new Error(`fake apiserver: unexpected ${method} ${t.resource}/${t.name}`);
    next.metadata = {
      ...next.metadata,
      name: t.name,
      namespace: t.namespace,
      uid: stored?.metadata?.uid ?? `uid-${t.name}`,
    };
    if (next.metadata.namespace === undefined) delete next.metadata.namespace;
    if (stored !== undefined && WITH_STATUS.has(t.resource)) {
      // The main resource never writes the status, and the /status subresource writes nothing else.
      if (t.subresource === 'status') next = { ...stored, status: next.status };
      else if (stored.status !== undefined) next.status = stored.status;
      else delete next.status;
    }
    const out = this.save(t.resource, next);
    if (t.resource === CLUSTER && method === 'PATCH')
      this.log.push({
        kind: t.subresource === 'status' ? 'status' : 'taints',
        cluster: t.name,
        writer,
        at: this.clock.now(),
      });
    return out;
  }

  /** Stores `o` under a new resourceVersion, tells the watchers, returns a copy. */
  private save<T extends Obj>(resource: string, o: T): T {
    const key = `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
    const objects = this.objects(resource);
    const before = objects.get(key);
    o.metadata = { ...o.metadata, resourceVersion: String(++this.rv) };
    objects.set(key, o);
    if (resource === LEASE) {
      const renew = (x: Obj | undefined): unknown => (x as MemberLease | undefined)?.spec?.renewTime;
      if (before === undefined || renew(before) !== renew(o)) this.renewedAt.set(key, this.clock.now());
    }
    this.emit({ rv: this.rv, resource, type: before === undefined ? 'ADDED' : 'MODIFIED', object: o, before });
    return structuredClone(o);
  }

  private remove(resource: string, key: string): void {
    const objects = this.objects(resource);
    const o = objects.get(key);
    if (o === undefined) return;
    objects.delete(key);
    this.renewedAt.delete(key);
    this.emit({ rv: ++this.rv, resource, type: 'DELETED', object: o, before: o });
  }

  private emit(c: Change): void {
    let recent = this.recent.get(c.resource);
    if (recent === undefined) this.recent.set(c.resource, (recent = { changes: [], dropped: 0 }));
    recent.changes.push(c);
    if (recent.changes.length > REPLAY_WINDOW) recent.dropped = recent.changes.shift()!.rv;
    for (const w of this.watchers) this.deliver(w, c);
  }

  private selects(w: Pick<Watcher, 'target' | 'query'>, o: Obj): boolean {
    const meta = o.metadata ?? {};
    return (
      (w.target.namespace === undefined || w.target.namespace === meta.namespace) &&
      labelsMatch(w.query.labelSelector as string | undefined, meta.labels) &&
      fieldsMatch(w.query.fieldSelector as string | undefined, meta)
    );
  }

  /** A change as one watcher sees it: an object that leaves its selection is DELETED for it, one that enters ADDED. */
  private deliver(w: Watcher, c: Change): void {
    if (w.target.resource !== c.resource) return;
    const now = this.selects(w, c.object);
    const was = c.before !== undefined && this.selects(w, c.before);
    let type = c.type;
    if (c.type === 'MODIFIED' && now !== was) type = now ? 'ADDED' : 'DELETED';
    else if (!now && !(c.type === 'DELETED' && was)) return;
    w.onEvent({ type, object: structuredClone(c.object) });
  }
}

/** up; killed (nothing in or out); no-leases (Lease requests fail); deaf (its Lease watch stalls, requests work). */
export type ReplicaLink = 'up' | 'killed' | 'no-leases' | 'deaf';

const isLease = (path: string): boolean => path.startsWith('/apis/coordination.k8s.io/');
const isClusterPatch = (method: string, path: string): boolean => method === 'PATCH' && path.startsWith(`${CLUSTERS}/`);

/** One replica's connection to the shared apiserver: its writes logged under its identity, cut off as told. */
export class FakeClient implements KubeApi {
  link: ReplicaLink = 'up';
  /** How late (on the server's clock) this replica hears of a Lease change: a slow watch. */
  leaseEventDelayMs = 0;
  /** Real ms a Cluster write spends on the way (a write in flight when the view changes). */
  clusterWriteDelayMs = 0;

  constructor(
    private readonly server: FakeApiServer,
    readonly identity: string,
  ) {}

  private refused(path: string): boolean {
    return this.link === 'killed' || (this.link === 'no-leases' && isLease(path));
  }

  async request<T>(method: string, path: string, options: RequestOptionsIn = {}): Promise<T> {
    await Promise.resolve();
    if (this.refused(path)) throw new Error(`connect ECONNREFUSED (${this.identity} is cut off)`);
    if (this.clusterWriteDelayMs > 0 && isClusterPatch(method, path))
      await new Promise((r) => setTimeout(r, this.clusterWriteDelayMs));
    return this.server.serve<T>(this.identity, method, path, options);
  }

  watch<T>(path: string, query: Query, onEvent: (e: WatchEvent<T>) => void, signal: AbortSignal): Promise<void> {
    if (this.refused(path)) return Promise.reject(new Error(`connect ECONNREFUSED (${this.identity} is cut off)`));
    // A replica cut off hears nothing more, even on a watch it opened before.
    const deliver = (e: WatchEvent<T>): void => {
      if (!this.refused(path) && !signal.aborted && !(this.link === 'deaf' && isLease(path))) onEvent(e);
    };
    const clock = this.server.clock;
    return this.server.serveWatch<T>(
      path,
      query,
      (e) => {
        if (this.leaseEventDelayMs === 0 || !isLease(path)) deliver(e);
        else clock.setTimer(clock.now() + this.leaseEventDelayMs, () => deliver(e));
      },
      signal,
    );
  }
}
