// Group membership on coordination.k8s.io/v1 Leases, one per member: each replica holds and renews a Lease of its own,
// labelled with the group, and lists+watches the group's Leases (a server-side label selector). A peer is live until
// the lease duration has passed ON OUR CLOCK since we last saw its record change (client-go leader election's
// observedTime rule: clocks of two machines are never compared); a Lease deleted (a clean stop) leaves at once. A
// member that cannot renew within its renew deadline reports itself unhealthy, before the others can see its Lease
// expire. Each Lease carries one annotation its holder publishes (for the reconciler: the view it acts on). Knows no
// Karmada resource and no assignment rule: docs/sharding.md. The Lease itself (reads, writes, durations, the renew
// deadline): lease-client.ts, shared with leader election.
import { isStatus, type KubeApi } from './client.js';
import { Informer } from './informer.js';
import { messageOf, RealClock, type Clock, type TimerHandle } from '@karmada-cluster-probe/schema/api';
import { clockTimeout } from './clock-timeout.js';
import { fnv1a32 } from './fnv.js';
import {
  LeaseClient,
  RenewDeadline,
  leaseDurationSeconds,
  leaseRecord,
  microTime,
  resolveLeaseDurations,
  writtenDurationMs,
  type Lease,
  type LeaseDurations,
  type LeaseWriteOutcome,
} from './lease-client.js';

/** The label that selects a group's member Leases (its value: the group name, cut and hashed to stay a label value). */
export const SHARD_GROUP_LABEL = 'cluster-probe.karmada.io/shard-group';
/** The annotation a member publishes its view in (the sorted identities of the members it believes live, one a line). */
export const SHARD_VIEW_ANNOTATION = 'cluster-probe.karmada.io/shard-view';

/** A member's Lease: a Lease, labelled with its group, annotated with its holder's view. */
export type MemberLease = Lease;

export interface MembershipLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface LeaseMembershipOptions {
  api: KubeApi;
  namespace: string;
  /** The group (e.g. `cluster-probe-reconciler`): the label value and the prefix of every member's Lease name. */
  group: string;
  identity: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Told when the live members, a peer's published annotation or our own health changed. */
  onChange: () => void;
  onWrite?: (outcome: LeaseWriteOutcome) => void;
  log: MembershipLog;
  /** The clock every duration is measured on (tests inject a fake one). */
  clock?: Clock;
}

/** FNV-1a 32 as 8 hex digits: a short, stable suffix for names cut to fit. */
function hash8(text: string): string {
  return fnv1a32(text).toString(16).padStart(8, '0');
}

/** `text` as a DNS-1123 subdomain of at most `max` characters: lowercased, other characters `-`, cut and hashed. */
function dnsName(text: string, max: number): string {
  let s = text
    .toLowerCase()
    .replace(/[^a-z0-9.-]/g, '-')
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
  if (s !== text || s.length > max) {
    // Two texts that differ only in what was replaced or cut must not share a name.
    s = `${s.slice(0, max - 9).replace(/[^a-z0-9]+$/, '')}-${hash8(text)}`;
  }
  return s === '' ? hash8(text) : s;
}

/** The label value of a group (at most 63 characters, as a label value must be). */
export function groupLabelValue(group: string): string {
  return dnsName(group, 63).replace(/\./g, '-');
}

/** The name of `identity`'s Lease in `group`: `<group>-<identity>`, cut and hashed to stay a valid name when long. */
export function memberLeaseName(group: string, identity: string): string {
  return dnsName(`${group}-${identity}`, 253);
}

interface Peer {
  identity: string;
  record: string;
  observedAt: number;
  durationMs: number;
  annotation: string | undefined;
  resourceVersion: string | undefined;
  live: boolean;
}

export class LeaseMembership {
  readonly leaseName: string;
  private readonly informer: Informer<MemberLease>;
  private readonly peers = new Map<string, Peer>();
  private readonly clock: Clock;
  private readonly times: LeaseDurations;
  private readonly leases: LeaseClient;
  /** Healthy: our Lease was renewed within the renew deadline. */
  private readonly deadline: RenewDeadline;
  private current: MemberLease | undefined;
  private annotation = '';
  private lastWall = 0;
  private timer: TimerHandle | undefined;
  /** Renewals one after another (the tick's and a publish), never two writes of our Lease at once. */
  private chain: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(private readonly options: LeaseMembershipOptions) {
    this.clock = options.clock ?? new RealClock();
    this.times = resolveLeaseDurations(
      options,
      'lease membership: the renew deadline must be shorter than the lease duration',
    );
    this.leaseName = memberLeaseName(options.group, options.identity);
    this.leases = new LeaseClient({
      api: options.api,
      namespace: options.namespace,
      name: this.leaseName,
      timeoutMs: this.times.renewDeadlineMs,
      onWrite: options.onWrite,
    });
    this.deadline = new RenewDeadline(this.clock, this.times.renewDeadlineMs, () => {
      this.options.log.warn(
        { lease: this.leaseName, renewDeadlineMs: this.times.renewDeadlineMs },
        'member lease not renewed within the renew deadline: stopping every write',
      );
      this.options.onChange();
    });
    this.informer = new Informer<MemberLease>({
      api: options.api,
      path: this.leases.collectionPath,
      resource: 'leases',
      labelSelector: `${SHARD_GROUP_LABEL}=${groupLabelValue(options.group)}`,
      onRestart: (reason, err) => {
        if (reason !== 'resync')
          options.log.warn({ resource: 'leases', reason, err: messageOf(err) }, 'watch restarted');
      },
    });
    this.informer.addHandlers({
      onAdd: (l) => this.observe(l),
      onUpdate: (_o, l) => this.observe(l),
      onDelete: (l) => this.forget(l),
      onSync: () => options.onChange(),
    });
  }

  get durations(): { leaseDurationMs: number; renewDeadlineMs: number; retryPeriodMs: number } {
    return { ...this.times };
  }

  /** Our Lease was renewed within the renew deadline: we may act. */
  get healthy(): boolean {
    return this.deadline.held;
  }

  /** The group's Leases are listed: before that, "alone" would only mean "not looked yet". */
  get synced(): boolean {
    return this.informer.hasSynced;
  }

  /** The live members, sorted, ourselves included while healthy. */
  members(): string[] {
    const out: string[] = [];
    for (const p of this.peers.values()) if (p.live) out.push(p.identity);
    if (this.healthy) out.push(this.options.identity);
    return [...new Set(out)].sort();
  }

  /** What each live peer (not us) publishes, by identity. */
  published(): Map<string, string | undefined> {
    const out = new Map<string, string | undefined>();
    for (const p of this.peers.values()) if (p.live) out.set(p.identity, p.annotation);
    return out;
  }

  /** Sets what our Lease publishes from the next renewal on. */
  setAnnotation(value: string): void {
    this.annotation = value;
  }

  /** Publishes `value` now (a renewal); true once it is stored, false when the write failed (tried again each period). */
  publish(value: string): Promise<boolean> {
    this.annotation = value;
    return this.enqueueRenew().then((ok) => ok && this.healthy);
  }

  start(): void {
    this.stopped = false;
    this.deadline.start();
    this.informer.start();
    this.tick();
  }

  /** Stops renewing; with `release`, deletes our Lease so that the others take our share at once. */
  async stop(release = true): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.deadline.stop();
    await this.chain;
    await this.informer.stop();
    this.deadline.drop();
    if (!release || this.current === undefined) return;
    try {
      await this.leases.delete(this.current.metadata?.resourceVersion);
      this.options.log.info({ lease: this.leaseName }, 'member lease deleted');
    } catch (err) {
      if (!isStatus(err, 404))
        this.options.log.warn({ lease: this.leaseName, err: messageOf(err) }, 'could not delete the member lease');
    }
  }

  private tick = (): void => {
    if (this.stopped) return;
    void this.enqueueRenew()
      .then(() => this.confirmExpiries())
      .catch((err: unknown) =>
        this.options.log.warn({ lease: this.leaseName, err: messageOf(err) }, 'member leases not read'),
      )
      .finally(() => {
        if (!this.stopped) this.timer = this.clock.setTimer(this.clock.now() + this.times.retryPeriodMs, this.tick);
      });
  };

  private enqueueRenew(): Promise<boolean> {
    const run = this.chain.then(() => this.renewOnce());
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** One renewal with what is to be published now; true when it was stored. */
  private async renewOnce(): Promise<boolean> {
    if (this.stopped) return false;
    // One deadline for the attempt: what is left until our renew deadline (a hung request cannot hold us past it).
    const attempt = clockTimeout(this.clock, this.deadline.attemptMs());
    const sentAt = this.clock.now();
    try {
      this.current = await this.write(attempt.signal);
      if (this.deadline.renewed(sentAt)) {
        this.options.log.info({ lease: this.leaseName }, 'member lease held');
        this.options.onChange();
      }
      return true;
    } catch (err) {
      if (!this.stopped)
        this.options.log.warn({ lease: this.leaseName, err: messageOf(err) }, 'member lease renewal failed');
      return false;
    } finally {
      attempt.clear();
    }
  }

  private body(): MemberLease {
    // renewTime only has to change for the others to see a renewal; never the same value twice, even on a fast clock.
    const wall = Math.max(this.clock.wallNow(), this.lastWall + 1);
    this.lastWall = wall;
    const previous = this.current;
    return {
      metadata: {
        ...(previous?.metadata ?? {}),
        name: this.leaseName,
        namespace: this.options.namespace,
        labels: { ...(previous?.metadata?.labels ?? {}), [SHARD_GROUP_LABEL]: groupLabelValue(this.options.group) },
        annotations: { ...(previous?.metadata?.annotations ?? {}), [SHARD_VIEW_ANNOTATION]: this.annotation },
      },
      spec: {
        holderIdentity: this.options.identity,
        leaseDurationSeconds: leaseDurationSeconds(this.times.leaseDurationMs),
        acquireTime: previous?.spec?.acquireTime ?? microTime(wall),
        renewTime: microTime(wall),
      },
    };
  }

  private async write(signal: AbortSignal): Promise<MemberLease> {
    if (this.current === undefined) {
      this.current = await this.leases.get(signal);
      if (this.current === undefined) return this.leases.create(this.body(), signal);
    }
    try {
      return await this.leases.update(this.body(), signal);
    } catch (err) {
      // Someone else wrote it (or deleted it: a peer's clean-up of a Lease it saw expire): read it again next time.
      if (isStatus(err, 409) || isStatus(err, 404)) this.current = undefined;
      throw err;
    }
  }

  private observe(lease: MemberLease): void {
    const name = lease.metadata?.name ?? '';
    const identity = lease.spec?.holderIdentity ?? '';
    if (name === this.leaseName || identity === '' || identity === this.options.identity) return;
    const durationMs = writtenDurationMs(lease.spec, this.times.leaseDurationMs);
    const record = leaseRecord(lease.spec);
    const annotation = lease.metadata?.annotations?.[SHARD_VIEW_ANNOTATION];
    const before = this.peers.get(name);
    const renewed = before?.record !== record;
    const peer: Peer = {
      identity,
      record,
      observedAt: renewed ? this.clock.now() : before.observedAt,
      durationMs,
      annotation,
      resourceVersion: lease.metadata?.resourceVersion,
      live: renewed ? true : before.live,
    };
    this.peers.set(name, peer);
    if (
      before === undefined ||
      before.live !== peer.live ||
      before.annotation !== annotation ||
      before.identity !== identity
    )
      this.options.onChange();
  }

  private forget(lease: MemberLease): void {
    const name = lease.metadata?.name ?? '';
    const before = this.peers.get(name);
    if (before === undefined) return;
    this.peers.delete(name);
    if (before.live) this.options.onChange();
  }

  /**
   * Before a peer is let go, its Lease is read again (one list of the group): a watch that stalls without an error
   * would otherwise make every live peer look expired, and we would start the Clusters they still write. client-go's
   * leader election reads the Lease on every attempt for the same reason. When the list fails, nobody is let go now:
   * a share left unowned a little longer, never owned twice.
   */
  private async confirmExpiries(): Promise<void> {
    const now = this.clock.now();
    let due = false;
    for (const p of this.peers.values()) if (p.live && now - p.observedAt >= p.durationMs) due = true;
    if (!due || this.stopped) return this.expire();
    const list = await this.options.api.request<{ items?: MemberLease[] }>('GET', this.leases.collectionPath, {
      query: { labelSelector: `${SHARD_GROUP_LABEL}=${groupLabelValue(this.options.group)}` },
      priority: 'high',
      timeoutMs: this.times.renewDeadlineMs,
    });
    const present = new Set<string>();
    for (const lease of list.items ?? []) {
      present.add(lease.metadata?.name ?? '');
      this.observe(lease);
    }
    for (const [name, p] of this.peers)
      if (!present.has(name)) this.forget({ metadata: { name }, spec: { holderIdentity: p.identity } });
    this.expire();
  }

  /** Peers not renewed for their lease duration on our clock leave; long-expired Leases are deleted (a Pod renamed). */
  private expire(): void {
    const now = this.clock.now();
    let changed = false;
    for (const [name, p] of this.peers) {
      const age = now - p.observedAt;
      if (p.live && age >= p.durationMs) {
        p.live = false;
        changed = true;
        this.options.log.info({ lease: name, identity: p.identity }, 'member lease expired');
      }
      // A Deployment's Pod comes back with another name: the Lease of the one killed would stay for ever. Deleted
      // only if unchanged since (the precondition): a holder that came back has renewed it, and keeps it.
      if (!p.live && this.healthy && age >= 2 * p.durationMs && p.resourceVersion !== undefined) {
        const rv = p.resourceVersion;
        p.resourceVersion = undefined;
        this.options.api
          .request('DELETE', `${this.leases.collectionPath}/${encodeURIComponent(name)}`, {
            body: { preconditions: { resourceVersion: rv } },
          })
          .catch(() => undefined);
      }
    }
    if (changed) this.options.onChange();
  }
}
