// Ownership by Lease shards (--sharding lease, docs/sharding.md): every replica active, each holding its own member
// Lease; the Clusters spread over the live members by rendezvous hashing (shard.ts), moved when one joins, leaves or
// dies. The view protocol lives here: on a change, (1) release the Clusters this replica loses and wait for their
// writes, (2) publish the new view in its Lease, (3) start the ones it gains once no live peer's published view claims
// them (the fence, asked by the controller through the assignment). A Lease not renewed within the renew deadline
// stops every write first. One view change at a time.
import { RealClock, type Clock, type TimerHandle } from '@karmada-cluster-probe/probe';
import { messageOf } from '@karmada-cluster-probe/schema/api';
import type { KubeApi } from '../../kube/client.js';
import { LeaseMembership } from '../../kube/membership.js';
import { encodeView, LeaseAssignment } from '../shard.js';
import type { OwnedWork, Ownership, OwnershipLog, OwnershipScope } from './ownership.js';

/** `--sharding lease`: every replica active, the Clusters spread over the live members (docs/sharding.md). */
export interface LeaseShardingOptions {
  /** Where the member Leases live. */
  namespace: string;
  /** The group: the label value of its Leases and the prefix of their names. */
  group: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** The clock the Leases' durations are measured on (tests inject a fake one); the probes keep `clock`. */
  clock?: Clock;
}

export interface LeaseShardsOptions extends LeaseShardingOptions {
  api: KubeApi;
  identity: string;
  log: OwnershipLog;
  onLeaseWrite?: (outcome: 'ok' | 'conflict' | 'error') => void;
  /** Told of every view this replica published. */
  onRebalance?: () => void;
}

export class LeaseShards implements Ownership {
  readonly mode: Ownership['mode'] = 'lease-shards';
  readonly scope: OwnershipScope;
  readonly membership: LeaseMembership;
  private readonly assignment: LeaseAssignment;
  private readonly clock: Clock;
  private work: OwnedWork | undefined;
  private rebalancing: Promise<void> | undefined;
  private rebalanceAgain = false;
  private retryTimer: TimerHandle | undefined;
  private isStopping = false;

  constructor(private readonly options: LeaseShardsOptions) {
    this.clock = options.clock ?? new RealClock();
    this.assignment = new LeaseAssignment(options.identity);
    this.scope = { assignment: this.assignment };
    this.membership = new LeaseMembership({
      api: options.api,
      namespace: options.namespace,
      group: options.group,
      identity: options.identity,
      leaseDurationMs: options.leaseDurationMs,
      renewDeadlineMs: options.renewDeadlineMs,
      retryPeriodMs: options.retryPeriodMs,
      clock: this.clock,
      log: options.log,
      onWrite: (outcome) => options.onLeaseWrite?.(outcome),
      onChange: () => {
        // A Lease not renewed within the renew deadline stops every write now, not when the view change in
        // progress (a release waiting for writes, a publish) lets the next rebalance run: the others may count
        // our Lease expired a lease duration after our last renewal, and take our Clusters.
        if (!this.membership.healthy && this.work?.running === true) {
          options.log.warn({ lease: this.membership.leaseName }, 'member lease lost: every Cluster released');
          this.work.stop();
        }
        this.rebalance();
      },
    });
  }

  /** A member whose controller runs (its Lease renewed, a view published). */
  get active(): boolean {
    return this.work?.running === true;
  }

  ready(controllerReady: boolean | undefined): boolean {
    // A member whose Lease lapsed serves nothing until renewed; until the first view, not ready.
    return controllerReady ?? false;
  }

  ownsNow(name: string): boolean {
    return this.work?.holds(name) ?? false;
  }

  get epoch(): number {
    return this.assignment.epoch;
  }

  /** How many members the published view has (the shard gauge). */
  get members(): number {
    return this.assignment.published.length;
  }

  start(work: OwnedWork): void {
    this.work = work;
    this.membership.start();
  }

  stopping(): void {
    this.isStopping = true;
    if (this.retryTimer !== undefined) this.clock.clearTimer(this.retryTimer);
  }

  /** Waits for a view change in progress, then deletes the member Lease: the others take our Clusters at once. */
  async stop(): Promise<void> {
    this.stopping();
    await this.rebalancing;
    await this.membership.stop(true);
  }

  describe(): Record<string, unknown> {
    return { sharding: { lease: this.membership.leaseName } };
  }

  /** Brings what this replica acts on to the live members, in the fence's order. Calls run one at a time. */
  private rebalance(): void {
    if (this.rebalancing !== undefined) {
      this.rebalanceAgain = true;
      return;
    }
    this.rebalancing = (async () => {
      do {
        this.rebalanceAgain = false;
        try {
          await this.rebalanceOnce();
        } catch (err) {
          this.options.log.warn({ err: messageOf(err) }, 'shard rebalance failed; retrying');
          this.retryRebalance();
        }
      } while (this.rebalanceAgain && !this.isStopping);
    })().finally(() => {
      this.rebalancing = undefined;
    });
  }

  private retryRebalance(): void {
    if (this.isStopping) return;
    if (this.retryTimer !== undefined) this.clock.clearTimer(this.retryTimer);
    this.retryTimer = this.clock.setTimer(this.clock.now() + this.membership.durations.retryPeriodMs, () =>
      this.rebalance(),
    );
  }

  private async rebalanceOnce(): Promise<void> {
    const m = this.membership;
    const a = this.assignment;
    const work = this.work;
    if (this.isStopping || work === undefined) return;
    if (!m.healthy) {
      // As a leader that lost its Lease: every worker and write stops, then the Lease claims nothing.
      if (work.running) {
        this.options.log.warn({ lease: m.leaseName }, 'member lease lost: every Cluster released');
        work.stop();
      }
      await work.stopped();
      if (a.published.length > 0 || a.moving) a.clear();
      m.setAnnotation('');
      return;
    }
    if (!m.synced) return;
    const next = m.members();
    a.setPeers(m.published());
    if (encodeView(next) !== encodeView(a.published)) {
      a.beginMove(next);
      const released = work.running ? await work.release() : [];
      if (!(await m.publish(encodeView(next)))) {
        // Still moving: only what both views give us runs. Tried again each retry period.
        this.retryRebalance();
        return;
      }
      if (this.isStopping || !m.healthy) return this.rebalanceOnce();
      a.commit(next);
      a.setPeers(m.published());
      this.options.onRebalance?.();
      this.options.log.info({ members: next, released: released.length }, 'shard view published');
    }
    if (!work.running) work.start();
    work.reassign();
  }
}
