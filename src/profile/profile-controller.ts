// The ClusterProfile producer: its own small controller beside the reconciler (off by default; `cluster-probe
// reconcile --cluster-profile-namespace NS`). It watches Karmada's Clusters and the ClusterProfiles of one namespace on
// karmada-apiserver and, while this replica leads, writes each Cluster's profile with server-side apply only when what
// it should say differs from what is stored (0 writes in steady state), and deletes it when the Cluster goes. It never
// writes a Cluster. What a profile says: desired-profile.ts; the names: profile-facts.ts; docs/cluster-profile.md.
import { isStatus, Informer, type KubeApi } from '../kube/index.js';
import { backgroundClock, messageOf, type Clock, type TimerHandle } from '@karmada-cluster-probe/schema/api';
import type { Condition } from '@karmada-cluster-probe/schema';
import { isOurs, planProfile, planRemoval, viewOf, type ClusterProfile, type ClusterView } from './desired-profile.js';
import { HEALTHY_CONDITION } from '../facts/conditions.js';
import {
  FIELD_MANAGER,
  KARMADA_READY_CONDITION,
  PROFILE_GROUP,
  PROFILE_PLURAL,
  PROFILE_VERSION,
} from './profile-facts.js';

const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';

export type ProfileWriteKind = 'profile' | 'profile_status' | 'profile_delete';
export type ProfileWriteOutcome = 'ok' | 'conflict' | 'error';

export interface ProfileLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ProfileControllerOptions {
  api: KubeApi;
  /** The namespace on karmada-apiserver the profiles live in. */
  namespace: string;
  log: ProfileLog;
  /** Whether this replica may write (the reconciler's leader); default always. */
  isLeader?: () => boolean;
  /** Whether this replica answers for the Cluster (its shard, or the one Cluster of a Pull agent); default all. */
  owns?: (name: string) => boolean;
  /**
   * Changes whenever `owns` may answer otherwise (Lease sharding moves Clusters between replicas without a restart):
   * looked at with leadership, every Cluster queued again when it changed. Absent: ownership never changes.
   */
  ownershipEpoch?: () => number;
  /** Every write, for the reconciler's writes_total{kind,outcome}. */
  onWrite?: (kind: ProfileWriteKind, outcome: ProfileWriteOutcome) => void;
  /** Every watch restart (`profile-clusters`: its own watch of the Clusters; `clusterprofiles`), for watch_restarts_total. */
  onWatchRestart?: (resource: 'profile-clusters' | 'clusterprofiles', reason: 'gone' | 'error' | 'resync') => void;
  /** The clock of the leadership poll, the retries, the informers and the profiles' timestamps (default the real one). */
  clock?: Clock;
  resyncMs?: number;
  /** How often leadership is looked at (a new leader goes over every Cluster); default 2 s. */
  leaderPollMs?: number;
}

interface ClusterObject {
  metadata?: { name?: string; uid?: string; resourceVersion?: string };
  status?: { conditions?: Condition[]; kubernetesVersion?: string };
}

/** resourceVersion as a number where the server's is one (etcd's revision), to keep the newer of two copies. */
function revision(p: ClusterProfile | undefined): bigint | undefined {
  try {
    return p?.metadata?.resourceVersion !== undefined ? BigInt(p.metadata.resourceVersion) : undefined;
  } catch {
    return undefined;
  }
}

export class ProfileController {
  private readonly clusters: Informer<ClusterObject>;
  private readonly profiles: Informer<ClusterProfile>;
  private readonly pending = new Set<string>();
  private readonly retries = new Map<string, { attempt: number; timer?: TimerHandle }>();
  /** The answer of our latest write per profile, until the informer has caught up with it. */
  private readonly written = new Map<string, ClusterProfile>();
  private running = false;
  private stopped = false;
  /** Nothing is written before both caches are listed: a profile not yet seen could be another manager's. */
  private readonly synced = { clusters: false, profiles: false };
  private leading = false;
  private epoch: number | undefined;
  private leaderTimer?: TimerHandle;
  private drained?: Promise<void>;
  private readonly clock: Clock;
  readonly collection: string;

  constructor(private readonly options: ProfileControllerOptions) {
    this.clock = options.clock ?? backgroundClock;
    this.collection = `/apis/${PROFILE_GROUP}/${PROFILE_VERSION}/namespaces/${encodeURIComponent(options.namespace)}/${PROFILE_PLURAL}`;
    const resyncMs = options.resyncMs ?? 600_000;
    const onRestart =
      (resource: 'profile-clusters' | 'clusterprofiles') => (reason: 'gone' | 'error' | 'resync', err?: unknown) => {
        options.onWatchRestart?.(resource, reason);
        if (reason === 'resync') return;
        const hint =
          resource === 'clusterprofiles' && isStatus(err, 404)
            ? `: the ClusterProfile CRD (${PROFILE_PLURAL}.${PROFILE_GROUP}) is not installed on this apiserver; install it (chart value clusterProfiles.installCRD=true on target=karmada-apiserver, docs/cluster-profile.md)`
            : '';
        options.log.warn(
          { resource, reason, err: err === undefined ? undefined : messageOf(err) },
          `watch restarted${hint}`,
        );
      };
    this.clusters = new Informer<ClusterObject>({
      api: options.api,
      path: CLUSTERS,
      resource: 'profile-clusters',
      resyncMs,
      // Only what a profile is made of: the Cluster's whole status (API enablements, summaries) is large at scale.
      transform: (c) => ({
        metadata: { name: c.metadata?.name, uid: c.metadata?.uid, resourceVersion: c.metadata?.resourceVersion },
        status: {
          conditions: (c.status?.conditions ?? []).filter(
            (x) => x.type === KARMADA_READY_CONDITION || x.type === HEALTHY_CONDITION,
          ),
          kubernetesVersion: c.status?.kubernetesVersion,
        },
      }),
      onRestart: onRestart('profile-clusters'),
      clock: options.clock,
    });
    this.profiles = new Informer<ClusterProfile>({
      api: options.api,
      path: this.collection,
      resource: 'clusterprofiles',
      resyncMs,
      onRestart: onRestart('clusterprofiles'),
      clock: options.clock,
    });
    const enqueueCluster = (c: ClusterObject): void => this.enqueue(c.metadata?.name);
    const enqueueProfile = (p: ClusterProfile): void => this.enqueue(p.metadata?.name);
    this.clusters.addHandlers({
      onAdd: enqueueCluster,
      onUpdate: (_o, n) => enqueueCluster(n),
      onDelete: enqueueCluster,
      onSync: () => {
        this.synced.clusters = true;
        this.enqueueAll();
      },
    });
    this.profiles.addHandlers({
      onAdd: enqueueProfile,
      onUpdate: (_o, n) => enqueueProfile(n),
      onDelete: enqueueProfile,
      onSync: () => {
        this.synced.profiles = true;
        this.enqueueAll();
      },
    });
  }

  start(): void {
    this.clusters.start();
    this.profiles.start();
    const poll = (): void => {
      const leading = this.options.isLeader?.() ?? true;
      const epoch = this.options.ownershipEpoch?.();
      if (leading && (!this.leading || epoch !== this.epoch)) this.enqueueAll();
      this.leading = leading;
      this.epoch = epoch;
      this.leaderTimer = this.clock.setTimer(this.clock.now() + (this.options.leaderPollMs ?? 2_000), poll);
    };
    poll();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.leaderTimer !== undefined) this.clock.clearTimer(this.leaderTimer);
    for (const r of this.retries.values()) if (r.timer !== undefined) this.clock.clearTimer(r.timer);
    await Promise.all([this.clusters.stop(), this.profiles.stop()]);
    await this.drained;
  }

  /** Both caches listed once. */
  async waitForSync(timeoutMs: number): Promise<boolean> {
    const [a, b] = await Promise.all([this.clusters.waitForSync(timeoutMs), this.profiles.waitForSync(timeoutMs)]);
    return a && b;
  }

  /** Every Cluster has the profile it should have, and nothing waits to be written (for tests and the bench). */
  get idle(): boolean {
    return this.pending.size === 0 && !this.running && this.retries.size === 0;
  }

  private enqueueAll(): void {
    for (const c of this.clusters.list()) this.enqueue(c.metadata?.name);
    for (const p of this.profiles.list()) this.enqueue(p.metadata?.name);
  }

  private enqueue(name: string | undefined): void {
    if (name === undefined || name === '' || this.stopped) return;
    if (this.options.owns !== undefined && !this.options.owns(name)) return;
    this.pending.add(name);
    if (!this.running && this.synced.clusters && this.synced.profiles) this.drained = this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.pending.size > 0 && !this.stopped) {
        const [name] = this.pending;
        this.pending.delete(name!);
        // Looked at again when its turn comes: a Cluster given to another replica since it was queued is theirs.
        if (!(this.options.isLeader?.() ?? true) || !(this.options.owns?.(name!) ?? true)) continue;
        try {
          await this.sync(name!);
          const r = this.retries.get(name!);
          if (r !== undefined && r.timer === undefined) this.retries.delete(name!);
        } catch (err) {
          this.retry(name!, err);
        }
      }
    } finally {
      this.running = false;
    }
  }

  private retry(name: string, err: unknown): void {
    const r = this.retries.get(name) ?? { attempt: 0 };
    r.attempt++;
    const delay = Math.min(30_000, 500 * 2 ** Math.min(r.attempt - 1, 6));
    this.options.log.error(
      { cluster: name, err: messageOf(err), retryInMs: delay },
      'writing the ClusterProfile failed',
    );
    if (r.timer !== undefined) this.clock.clearTimer(r.timer);
    r.timer = this.clock.setTimer(this.clock.now() + delay, () => {
      r.timer = undefined;
      this.enqueue(name);
    });
    this.retries.set(name, r);
  }

  /** The stored profile: the informer's copy, or our latest write's answer while the informer has not seen it. */
  private stored(name: string): ClusterProfile | undefined {
    const cached = this.profiles.get(`${this.options.namespace}/${name}`);
    const mine = this.written.get(name);
    if (mine === undefined) return cached;
    const a = revision(cached);
    const b = revision(mine);
    if (cached !== undefined && (a === undefined || b === undefined || a >= b)) {
      this.written.delete(name);
      return cached;
    }
    return mine;
  }

  private async sync(name: string): Promise<void> {
    const cluster = this.clusters.get(name);
    const existing = this.stored(name);
    if (cluster === undefined) {
      if (existing === undefined) return;
      const removal = planRemoval(existing);
      if (removal === undefined) return;
      if (removal.kind === 'delete') {
        await this.write('profile_delete', () =>
          this.options.api.request('DELETE', `${this.collection}/${encodeURIComponent(name)}`, {
            body: { preconditions: { uid: existing.metadata?.uid } },
          }),
        );
        this.written.delete(name);
        this.options.log.info({ cluster: name }, 'ClusterProfile deleted with its Cluster');
      } else {
        await this.apply(name, 'profile_status', removal.status, true, false);
      }
      return;
    }
    const view: ClusterView = viewOf(cluster);
    const writes = planProfile(view, this.options.namespace, existing, new Date(this.clock.wallNow()));
    const ours = existing === undefined || isOurs(existing);
    if (writes.object !== undefined) await this.apply(name, 'profile', writes.object, false, true);
    if (writes.status !== undefined) await this.apply(name, 'profile_status', writes.status, true, ours);
  }

  private async apply(
    name: string,
    kind: ProfileWriteKind,
    body: ClusterProfile,
    status: boolean,
    force: boolean,
  ): Promise<void> {
    const path = `${this.collection}/${encodeURIComponent(name)}${status ? '/status' : ''}`;
    const answer = await this.write(kind, () =>
      this.options.api.request<ClusterProfile>('PATCH', path, {
        body,
        contentType: 'application/apply-patch+yaml',
        query: { fieldManager: FIELD_MANAGER, force: force ? 'true' : undefined },
      }),
    );
    if (answer !== undefined) this.written.set(name, answer);
  }

  private async write<T>(kind: ProfileWriteKind, call: () => Promise<T>): Promise<T | undefined> {
    try {
      const answer = await call();
      this.options.onWrite?.(kind, 'ok');
      return answer;
    } catch (err) {
      // A profile already gone is what a delete wanted.
      if (kind === 'profile_delete' && isStatus(err, 404)) {
        this.options.onWrite?.(kind, 'ok');
        return undefined;
      }
      this.options.onWrite?.(kind, isStatus(err, 409) ? 'conflict' : 'error');
      throw err;
    }
  }
}
