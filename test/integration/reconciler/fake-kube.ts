// Enough of a Kubernetes apiserver, in memory, for the reconciler's manager: list and watch of Clusters and Secrets,
// merge patches of a Cluster and its /status with resourceVersion preconditions, Events. The probes the manager runs
// go to real servers on 127.0.0.1; only the Kubernetes API is stood in for (the e2e suites use a real one).
import { KubeApiError, type KubeApi, type WatchEvent } from '../../../src/kube/index.js';
import type { Cluster } from '../../../packages/schema/src/schema/index.js';

type Query = Record<string, string | number | boolean | undefined>;
interface Obj {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string; uid?: string };
}
interface Watcher {
  path: string;
  onEvent: (e: WatchEvent<unknown>) => void;
}

export interface RecordedEvent {
  reason: string;
  type: string;
  message: string;
  involvedObject: { name: string };
}

const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';

export class FakeKube implements KubeApi {
  private rv = 100;
  private readonly clusters = new Map<string, Cluster>();
  private readonly secrets = new Map<string, Obj & { data?: Record<string, string> }>();
  private readonly watchers = new Set<Watcher>();
  readonly events: RecordedEvent[] = [];
  /** PATCH requests, `status NAME` or `taints NAME`. */
  readonly writes: string[] = [];
  /** Writes and Events in the order they came: `taints NAME`, `status NAME`, `event REASON NAME`. */
  readonly history: string[] = [];

  private bump(o: Obj): void {
    o.metadata = { ...o.metadata, resourceVersion: String(++this.rv) };
  }

  private emit(path: string, type: WatchEvent<unknown>['type'], obj: unknown): void {
    for (const w of this.watchers) if (w.path === path) w.onEvent({ type, object: structuredClone(obj) });
  }

  /** Creates or replaces a Cluster, as a user's `kubectl apply` would (status kept unless given). */
  putCluster(cluster: Cluster): void {
    const name = cluster.metadata!.name!;
    const before = this.clusters.get(name);
    const c = structuredClone(cluster);
    if (c.status === undefined && before?.status !== undefined) c.status = before.status;
    c.metadata = { ...c.metadata, uid: before?.metadata?.uid ?? `uid-${name}` };
    this.bump(c);
    this.clusters.set(name, c);
    this.emit(CLUSTERS, before === undefined ? 'ADDED' : 'MODIFIED', c);
  }

  cluster(name: string): Cluster | undefined {
    const c = this.clusters.get(name);
    return c === undefined ? undefined : structuredClone(c);
  }

  putSecret(namespace: string, name: string, data: Record<string, string>): void {
    const key = `${namespace}/${name}`;
    const before = this.secrets.get(key);
    const s: Obj & { data: Record<string, string> } = { metadata: { namespace, name }, data };
    this.bump(s);
    this.secrets.set(key, s);
    this.emit(`/api/v1/namespaces/${namespace}/secrets`, before === undefined ? 'ADDED' : 'MODIFIED', s);
  }

  async request<T>(method: string, path: string, options: { body?: unknown; query?: Query } = {}): Promise<T> {
    await Promise.resolve();
    if (method === 'GET' && path === CLUSTERS)
      return {
        items: [...this.clusters.values()].map((c) => structuredClone(c)),
        metadata: { resourceVersion: String(this.rv) },
      } as T;
    const secretList = /^\/api\/v1\/namespaces\/([^/]+)\/secrets$/.exec(path);
    if (method === 'GET' && secretList !== null)
      return {
        items: [...this.secrets.values()]
          .filter((s) => s.metadata?.namespace === secretList[1])
          .map((s) => structuredClone(s)),
        metadata: { resourceVersion: String(this.rv) },
      } as T;
    if (method === 'POST' && /^\/api\/v1\/namespaces\/[^/]+\/events$/.test(path)) {
      const event = structuredClone(options.body) as RecordedEvent;
      this.events.push(event);
      this.history.push(`event ${event.reason} ${event.involvedObject?.name}`);
      return {} as T;
    }
    const one = new RegExp(`^${CLUSTERS}/([^/]+)(/status)?$`).exec(path);
    if (one !== null) {
      const name = decodeURIComponent(one[1]!);
      const c = this.clusters.get(name);
      if (c === undefined) throw new KubeApiError(404, 'NotFound', `clusters "${name}" not found`);
      if (method === 'GET') return structuredClone(c) as T;
      if (method === 'PATCH') {
        const body = options.body as { metadata?: { resourceVersion?: string }; spec?: object; status?: object };
        if (body.metadata?.resourceVersion !== c.metadata?.resourceVersion)
          throw new KubeApiError(409, 'Conflict', 'the object has been modified');
        if (one[2] === '/status') c.status = { ...c.status, ...body.status };
        else c.spec = { ...c.spec, ...body.spec };
        this.writes.push(`${one[2] === '/status' ? 'status' : 'taints'} ${name}`);
        this.history.push(this.writes[this.writes.length - 1]!);
        this.bump(c);
        this.emit(CLUSTERS, 'MODIFIED', c);
        return structuredClone(c) as T;
      }
    }
    throw new Error(`fake apiserver: unexpected ${method} ${path}`);
  }

  watch<T>(_path: string, _query: Query, onEvent: (e: WatchEvent<T>) => void, signal: AbortSignal): Promise<void> {
    const w: Watcher = { path: _path, onEvent: onEvent as (e: WatchEvent<unknown>) => void };
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
}
