// The in-memory apiserver of the reconciler's tests (fake-kube.ts) with coordination.k8s.io/v1 Leases (list and watch
// with a label selector, create, update with a resourceVersion precondition, delete with one), and a client per
// replica that can be killed (every request fails, no event arrives: SIGKILL, as the apiserver sees it) or cut off
// from the Leases alone. Every Cluster write is checked when the apiserver takes it, against the Leases as the
// apiserver holds them on the tests' fake clock: the writer's own Lease is live and claims the Cluster, and no other
// replica that wrote it before still claims it with a live Lease (two writers never overlap). Test code.
import { KubeApiError, type KubeApi, type RequestOptionsIn, type WatchEvent } from '../../../src/kube/index.js';
import { SHARD_GROUP_LABEL, SHARD_VIEW_ANNOTATION, type MemberLease } from '../../../src/kube/membership.js';
import { claims, decodeView } from '../../../src/reconciler/shard.js';
import type { FakeClock } from '../../unit/probe/fake-clock.js';
import { FakeKube } from './fake-kube.js';

type Query = Record<string, string | number | boolean | undefined>;

const LEASES = /^\/apis\/coordination\.k8s\.io\/v1\/namespaces\/([^/]+)\/leases(?:\/([^/]+))?$/;
const CLUSTER_WRITE = /^\/apis\/cluster\.karmada\.io\/v1alpha1\/clusters\/([^/]+)(\/status)?$/;

interface StoredLease {
  lease: MemberLease;
  /** Fake-clock time of the last write that changed its renewTime: the apiserver's own view of liveness. */
  renewedAt: number;
}

export interface ClusterWrite {
  cluster: string;
  writer: string;
  at: number;
  kind: 'taints' | 'status';
}

export class ShardingKube extends FakeKube {
  private leaseRv = 1;
  private readonly leases = new Map<string, StoredLease>();
  private readonly leaseWatchers = new Set<{
    ns: string;
    selector?: string;
    onEvent: (e: WatchEvent<unknown>) => void;
  }>();
  /** Every Cluster write the apiserver took, in order, with its writer. */
  readonly clusterWrites: ClusterWrite[] = [];
  /** Writes that broke the fence, explained. */
  readonly violations: string[] = [];
  /** Lease requests by method, to count what membership costs the apiserver. */
  readonly leaseRequests: string[] = [];

  constructor(readonly clock: FakeClock) {
    super();
  }

  /** The Leases as stored now (a copy). */
  storedLeases(): MemberLease[] {
    return [...this.leases.values()].map((s) => structuredClone(s.lease));
  }

  /** The holder identities whose Lease the apiserver would call live now (renewed within its duration). */
  liveHolders(): string[] {
    const out: string[] = [];
    for (const s of this.leases.values()) if (this.live(s)) out.push(s.lease.spec?.holderIdentity ?? '');
    return out.sort();
  }

  private live(s: StoredLease): boolean {
    return this.clock.now() - s.renewedAt < (s.lease.spec?.leaseDurationSeconds ?? 0) * 1000;
  }

  private claimsNow(identity: string, cluster: string): boolean {
    for (const s of this.leases.values())
      if (s.lease.spec?.holderIdentity === identity && this.live(s)) {
        const view = decodeView(s.lease.metadata?.annotations?.[SHARD_VIEW_ANNOTATION]);
        if (claims(identity, view, cluster)) return true;
      }
    return false;
  }

  /** Checks a Cluster write by `writer` against the Leases, then lets it through to the Cluster store. */
  async clusterRequest<T>(writer: string, method: string, path: string, options: RequestOptionsIn): Promise<T> {
    const m = CLUSTER_WRITE.exec(path);
    if (method === 'PATCH' && m !== null) {
      const cluster = decodeURIComponent(m[1]!);
      if (!this.claimsNow(writer, cluster))
        this.violations.push(`${writer} wrote ${cluster} at ${this.clock.now()} without a live Lease claiming it`);
      const before = new Set(
        this.clusterWrites.filter((w) => w.cluster === cluster && w.writer !== writer).map((w) => w.writer),
      );
      for (const other of before)
        if (this.claimsNow(other, cluster))
          this.violations.push(
            `${writer} wrote ${cluster} at ${this.clock.now()} while ${other}, who wrote it before, still claims it`,
          );
      const out = await super.request<T>(method, path, options);
      this.clusterWrites.push({
        cluster,
        writer,
        at: this.clock.now(),
        kind: m[2] === '/status' ? 'status' : 'taints',
      });
      return out;
    }
    return this.request<T>(method, path, options);
  }

  override async request<T>(method: string, path: string, options: RequestOptionsIn = {}): Promise<T> {
    const m = LEASES.exec(path);
    if (m === null) return super.request<T>(method, path, options);
    await Promise.resolve();
    this.leaseRequests.push(method);
    const ns = decodeURIComponent(m[1]!);
    const name = m[2] === undefined ? undefined : decodeURIComponent(m[2]);
    const key = `${ns}/${name ?? ''}`;
    if (name === undefined && method === 'GET') {
      const selector = options.query?.labelSelector as string | undefined;
      return {
        items: [...this.leases.values()]
          .filter((s) => s.lease.metadata?.namespace === ns && this.selects(selector, s.lease))
          .map((s) => structuredClone(s.lease)),
        metadata: { resourceVersion: String(this.leaseRv) },
      } as T;
    }
    if (name === undefined && method === 'POST') {
      const body = structuredClone(options.body) as MemberLease;
      const k = `${ns}/${body.metadata?.name ?? ''}`;
      if (this.leases.has(k))
        throw new KubeApiError(409, 'AlreadyExists', `leases "${body.metadata?.name}" already exists`);
      return this.store(k, body, 'ADDED') as T;
    }
    const stored = this.leases.get(key);
    if (stored === undefined) throw new KubeApiError(404, 'NotFound', `leases "${name}" not found`);
    if (method === 'GET') return structuredClone(stored.lease) as T;
    if (method === 'PUT') {
      const body = structuredClone(options.body) as MemberLease;
      if (body.metadata?.resourceVersion !== stored.lease.metadata?.resourceVersion)
        throw new KubeApiError(409, 'Conflict', 'the object has been modified');
      return this.store(key, body, 'MODIFIED', stored) as T;
    }
    if (method === 'DELETE') {
      const pre = (options.body as { preconditions?: { resourceVersion?: string } } | undefined)?.preconditions;
      if (pre?.resourceVersion !== undefined && pre.resourceVersion !== stored.lease.metadata?.resourceVersion)
        throw new KubeApiError(409, 'Conflict', 'precondition failed');
      this.leases.delete(key);
      this.emitLease('DELETED', stored.lease);
      return {} as T;
    }
    throw new Error(`fake apiserver: unexpected ${method} ${path}`);
  }

  private store(key: string, lease: MemberLease, type: 'ADDED' | 'MODIFIED', before?: StoredLease): MemberLease {
    lease.metadata = { ...lease.metadata, resourceVersion: String(++this.leaseRv) };
    const renewed = before === undefined || before.lease.spec?.renewTime !== lease.spec?.renewTime;
    this.leases.set(key, { lease, renewedAt: renewed ? this.clock.now() : before.renewedAt });
    this.emitLease(type, lease);
    return structuredClone(lease);
  }

  private selects(selector: string | undefined, lease: MemberLease): boolean {
    if (selector === undefined || selector === '') return true;
    const [k, v] = selector.split('=');
    return lease.metadata?.labels?.[k!] === v;
  }

  private emitLease(type: WatchEvent<unknown>['type'], lease: MemberLease): void {
    for (const w of this.leaseWatchers)
      if (w.ns === lease.metadata?.namespace && this.selects(w.selector, lease))
        w.onEvent({ type, object: structuredClone(lease) });
  }

  override watch<T>(
    path: string,
    query: Query,
    onEvent: (e: WatchEvent<T>) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const m = LEASES.exec(path);
    if (m === null) return super.watch(path, query, onEvent, signal);
    const w = {
      ns: decodeURIComponent(m[1]!),
      selector: query.labelSelector as string | undefined,
      onEvent: onEvent as (e: WatchEvent<unknown>) => void,
    };
    this.leaseWatchers.add(w);
    return new Promise((resolve) => {
      const done = (): void => {
        this.leaseWatchers.delete(w);
        resolve();
      };
      if (signal.aborted) done();
      else signal.addEventListener('abort', done, { once: true });
    });
  }
}

/** up; killed (nothing in or out); no-leases (Lease requests fail); deaf (its Lease watch stalls, requests work). */
export type ReplicaLink = 'up' | 'killed' | 'no-leases' | 'deaf';

/** One replica's connection to the shared apiserver: its Cluster writes checked and recorded under its identity. */
export class ReplicaApi implements KubeApi {
  link: ReplicaLink = 'up';
  /** How late (on the fake clock) this replica hears of a Lease change: a slow watch, the window the fence covers. */
  leaseEventDelayMs = 0;
  /** Real ms a Cluster write spends on the way (a write in flight when the view changes). */
  clusterWriteDelayMs = 0;

  constructor(
    private readonly kube: ShardingKube,
    readonly identity: string,
  ) {}

  private refused(path: string): boolean {
    return this.link === 'killed' || (this.link === 'no-leases' && LEASES.test(path));
  }

  async request<T>(method: string, path: string, options: RequestOptionsIn = {}): Promise<T> {
    await Promise.resolve();
    if (this.refused(path)) throw new Error(`connect ECONNREFUSED (${this.identity} is cut off)`);
    if (this.clusterWriteDelayMs > 0 && method === 'PATCH' && CLUSTER_WRITE.test(path))
      await new Promise((r) => setTimeout(r, this.clusterWriteDelayMs));
    return this.kube.clusterRequest<T>(this.identity, method, path, options);
  }

  watch<T>(path: string, query: Query, onEvent: (e: WatchEvent<T>) => void, signal: AbortSignal): Promise<void> {
    if (this.refused(path)) return Promise.reject(new Error(`connect ECONNREFUSED (${this.identity} is cut off)`));
    // A replica cut off hears nothing more, even on a watch it opened before.
    const deliver = (e: WatchEvent<T>): void => {
      if (!this.refused(path) && !signal.aborted && !(this.link === 'deaf' && LEASES.test(path))) onEvent(e);
    };
    return this.kube.watch<T>(
      path,
      query,
      (e) => {
        if (this.leaseEventDelayMs === 0 || !LEASES.test(path)) deliver(e);
        else this.kube.clock.setTimer(this.kube.clock.now() + this.leaseEventDelayMs, () => deliver(e));
      },
      signal,
    );
  }
}

export { SHARD_GROUP_LABEL };
