// Leader election on a coordination.k8s.io/v1 Lease, as client-go's leaderelection does it: acquire or renew every
// retry period with optimistic concurrency, treat a lease as expired when its record has not changed for the lease
// duration on our own clock (no trust in others' clocks), give up leadership when renewal fails past the deadline,
// and release (empty holder) on a clean stop so a follower takes over at once. The Lease itself: lease-client.ts.
import { isStatus, type KubeApi } from './client.js';
import { messageOf, RealClock, type Clock, type TimerHandle } from '@karmada-cluster-probe/schema/api';
import { clockTimeout } from './clock-timeout.js';
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
  type LeaseSpec,
  type LeaseWriteOutcome,
} from './lease-client.js';

export { microTime };

export interface LeaderElectionLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface LeaderElectorOptions {
  api: KubeApi;
  namespace: string;
  name: string;
  identity: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  onStartedLeading: () => void;
  /** Called when leadership is lost (not on a stop). */
  onStoppedLeading: () => void;
  onWrite?: (outcome: LeaseWriteOutcome) => void;
  log: LeaderElectionLog;
  /** The clock the lease duration, renew deadline and retry period are measured on (tests inject a fake one). */
  clock?: Clock;
}

export class LeaderElector {
  private observedRecord = '';
  private observedAt = 0;
  private current: Lease | undefined;
  private timer: TimerHandle | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly times: LeaseDurations;
  private readonly clock: Clock;
  private readonly leases: LeaseClient;
  /** Leading: ends renewDeadlineMs after the last renewal whatever an attempt is waiting for. */
  private readonly deadline: RenewDeadline;

  constructor(private readonly options: LeaderElectorOptions) {
    this.clock = options.clock ?? new RealClock();
    this.times = resolveLeaseDurations(
      options,
      'leader election: renew deadline must be shorter than the lease duration',
    );
    this.leases = new LeaseClient({
      api: options.api,
      namespace: options.namespace,
      name: options.name,
      timeoutMs: this.times.renewDeadlineMs,
      onWrite: options.onWrite,
    });
    this.deadline = new RenewDeadline(this.clock, this.times.renewDeadlineMs, () => {
      this.options.log.warn({ lease: this.options.name, identity: this.options.identity }, 'leadership lost');
      this.options.onStoppedLeading();
    });
  }

  get isLeader(): boolean {
    return this.deadline.held;
  }

  start(): void {
    this.stopped = false;
    this.deadline.start();
    this.tick();
  }

  private tick = (): void => {
    if (this.stopped) return;
    // One deadline for the whole attempt (GET, then PUT), as client-go's renew deadline.
    const attempt = clockTimeout(this.clock, this.deadline.attemptMs());
    this.running = this.tryAcquireOrRenew(attempt.signal, this.clock.now())
      .catch((err: unknown) => {
        this.options.log.warn({ lease: this.options.name, err: messageOf(err) }, 'lease update failed');
      })
      .finally(() => {
        attempt.clear();
        this.deadline.check();
        if (!this.stopped)
          this.timer = this.clock.setTimer(
            this.clock.now() + this.times.retryPeriodMs * (this.isLeader ? 1 : 1 + Math.random() * 0.2),
            this.tick,
          );
      });
  };

  private spec(previous: LeaseSpec | undefined, now: number): LeaseSpec {
    const mine = previous?.holderIdentity === this.options.identity;
    return {
      holderIdentity: this.options.identity,
      leaseDurationSeconds: leaseDurationSeconds(this.times.leaseDurationMs),
      acquireTime: mine && previous?.acquireTime !== undefined ? previous.acquireTime : microTime(now),
      renewTime: microTime(now),
      leaseTransitions: (previous?.leaseTransitions ?? 0) + (mine ? 0 : 1),
    };
  }

  /** The write sent at `sentAt` (the attempt's start) was stored. */
  private becameLeader(sentAt: number): void {
    if (this.deadline.renewed(sentAt)) {
      this.options.log.info({ lease: this.options.name, identity: this.options.identity }, 'leadership acquired');
      this.options.onStartedLeading();
    }
  }

  private async tryAcquireOrRenew(signal: AbortSignal, sentAt: number): Promise<void> {
    const now = this.clock.wallNow();
    const lease = await this.leases.get(signal);
    if (lease === undefined) {
      this.current = await this.leases.create(
        {
          metadata: { name: this.options.name, namespace: this.options.namespace },
          spec: { ...this.spec(undefined, now), leaseTransitions: 0 },
        },
        signal,
      );
      this.becameLeader(sentAt);
      return;
    }
    const spec = lease.spec ?? {};
    const record = leaseRecord(spec);
    if (record !== this.observedRecord) {
      this.observedRecord = record;
      this.observedAt = this.clock.now();
    }
    const holder = spec.holderIdentity ?? '';
    const durationMs = writtenDurationMs(spec, this.times.leaseDurationMs);
    if (holder !== '' && holder !== this.options.identity && this.clock.now() - this.observedAt < durationMs) {
      if (this.deadline.held) {
        this.deadline.drop();
        this.options.onStoppedLeading();
      }
      return;
    }
    try {
      this.current = await this.leases.update({ ...lease, spec: this.spec(spec, now) }, signal);
    } catch (err) {
      if (isStatus(err, 409)) return;
      throw err;
    }
    this.observedRecord = leaseRecord(this.current.spec);
    this.observedAt = this.clock.now();
    this.becameLeader(sentAt);
  }

  /** Stops campaigning; when leading, releases the lease so a follower takes over without waiting for it to expire. */
  async stop(release = true): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.deadline.stop();
    await this.running;
    if (!this.deadline.held) return;
    this.deadline.drop();
    if (!release || this.current === undefined) return;
    const now = this.clock.wallNow();
    try {
      await this.leases.update({
        ...this.current,
        spec: {
          ...this.current.spec,
          holderIdentity: '',
          leaseDurationSeconds: 1,
          renewTime: microTime(now),
          acquireTime: microTime(now),
        },
      });
      this.options.log.info({ lease: this.options.name, identity: this.options.identity }, 'lease released');
    } catch (err) {
      this.options.log.warn({ lease: this.options.name, err: messageOf(err) }, 'could not release the lease');
    }
  }
}
