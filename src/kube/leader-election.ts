// Leader election on a coordination.k8s.io/v1 Lease, as client-go's leaderelection does it: acquire or renew every
// retry period with optimistic concurrency, treat a lease as expired when its record has not changed for the lease
// duration on our own clock (no trust in others' clocks), give up leadership when renewal fails past the deadline,
// and release (empty holder) on a clean stop so a follower takes over at once.
import { isStatus, type KubeApi } from './client.js';
import { messageOf, RealClock, type Clock, type TimerHandle } from '@karmada-cluster-probe/schema/api';
import { clockTimeout } from './clock-timeout.js';

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

interface Lease {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
  spec?: LeaseSpec;
}

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
  onWrite?: (outcome: 'ok' | 'conflict' | 'error') => void;
  log: LeaderElectionLog;
  /** The clock the lease duration, renew deadline and retry period are measured on (tests inject a fake one). */
  clock?: Clock;
}

/** MicroTime: RFC 3339 with six fractional digits. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export class LeaderElector {
  private leading = false;
  private observedRecord = '';
  private observedAt = 0;
  private lastRenew = 0;
  private current: Lease | undefined;
  private timer: TimerHandle | undefined;
  /** Ends leadership at lastRenew + renewDeadlineMs whatever an attempt is waiting for (a socket, a hung request). */
  private deadline: TimerHandle | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private readonly clock: Clock;

  constructor(private readonly options: LeaderElectorOptions) {
    this.clock = options.clock ?? new RealClock();
    this.leaseDurationMs = options.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = options.renewDeadlineMs ?? Math.round((this.leaseDurationMs * 2) / 3);
    this.retryPeriodMs = options.retryPeriodMs ?? Math.max(200, Math.round(this.leaseDurationMs / 7.5));
    if (this.renewDeadlineMs >= this.leaseDurationMs)
      throw new Error('leader election: renew deadline must be shorter than the lease duration');
  }

  get isLeader(): boolean {
    return this.leading;
  }

  private get path(): string {
    return `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(this.options.namespace)}/leases`;
  }

  start(): void {
    this.stopped = false;
    this.tick();
  }

  /** Leadership ends once renewDeadlineMs have passed since the last renewal, on a timer of its own. */
  private checkDeadline = (): void => {
    if (!this.leading) return;
    const left = this.renewDeadlineMs - (this.clock.now() - this.lastRenew);
    if (left > 0) {
      // A timer may fire a little before the clock says it is due: look again then, never give up the check.
      if (this.deadline !== undefined) this.clock.clearTimer(this.deadline);
      if (!this.stopped)
        this.deadline = this.clock.setTimer(this.clock.now() + Math.ceil(left) + 1, this.checkDeadline);
      return;
    }
    this.leading = false;
    this.options.log.warn({ lease: this.options.name, identity: this.options.identity }, 'leadership lost');
    this.options.onStoppedLeading();
  };

  private tick = (): void => {
    if (this.stopped) return;
    // One deadline for the whole attempt (GET, then PUT), as client-go's renew deadline: when leading, what is left
    // until the last renewal's deadline; a GET slow by most of it no longer leaves the PUT a deadline of its own.
    const left = this.leading ? this.renewDeadlineMs - (this.clock.now() - this.lastRenew) : this.renewDeadlineMs;
    const attempt = clockTimeout(this.clock, Math.max(1, Math.round(left)));
    this.running = this.tryAcquireOrRenew(attempt.signal)
      .catch((err: unknown) => {
        this.options.log.warn({ lease: this.options.name, err: messageOf(err) }, 'lease update failed');
      })
      .finally(() => {
        attempt.clear();
        this.checkDeadline();
        if (!this.stopped)
          this.timer = this.clock.setTimer(
            this.clock.now() + this.retryPeriodMs * (this.leading ? 1 : 1 + Math.random() * 0.2),
            this.tick,
          );
      });
  };

  private async write(method: 'POST' | 'PUT', lease: Lease, signal?: AbortSignal): Promise<Lease> {
    const path = method === 'POST' ? this.path : `${this.path}/${encodeURIComponent(this.options.name)}`;
    try {
      const out = await this.options.api.request<Lease>(method, path, {
        body: lease,
        timeoutMs: this.renewDeadlineMs,
        ...(signal !== undefined ? { signal } : {}),
        // A renewal must not wait behind a burst of reads: losing the lease stops every worker.
        priority: 'high',
      });
      this.options.onWrite?.('ok');
      return out;
    } catch (err) {
      this.options.onWrite?.(isStatus(err, 409) ? 'conflict' : 'error');
      throw err;
    }
  }

  private spec(previous: LeaseSpec | undefined, now: number): LeaseSpec {
    const mine = previous?.holderIdentity === this.options.identity;
    return {
      holderIdentity: this.options.identity,
      leaseDurationSeconds: Math.max(1, Math.round(this.leaseDurationMs / 1000)),
      acquireTime: mine && previous?.acquireTime !== undefined ? previous.acquireTime : microTime(now),
      renewTime: microTime(now),
      leaseTransitions: (previous?.leaseTransitions ?? 0) + (mine ? 0 : 1),
    };
  }

  private becameLeader(): void {
    this.lastRenew = this.clock.now();
    if (this.deadline !== undefined) this.clock.clearTimer(this.deadline);
    this.deadline = this.clock.setTimer(this.lastRenew + this.renewDeadlineMs, this.checkDeadline);
    if (!this.leading) {
      this.leading = true;
      this.options.log.info({ lease: this.options.name, identity: this.options.identity }, 'leadership acquired');
      this.options.onStartedLeading();
    }
  }

  private async tryAcquireOrRenew(signal: AbortSignal): Promise<void> {
    const now = this.clock.wallNow();
    let lease: Lease;
    try {
      lease = await this.options.api.request<Lease>('GET', `${this.path}/${encodeURIComponent(this.options.name)}`, {
        timeoutMs: this.renewDeadlineMs,
        priority: 'high',
        signal,
      });
    } catch (err) {
      if (!isStatus(err, 404)) throw err;
      this.current = await this.write(
        'POST',
        {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: this.options.name, namespace: this.options.namespace },
          spec: { ...this.spec(undefined, now), leaseTransitions: 0 },
        },
        signal,
      );
      this.becameLeader();
      return;
    }
    const spec = lease.spec ?? {};
    const record = JSON.stringify([spec.holderIdentity, spec.renewTime, spec.leaseDurationSeconds]);
    if (record !== this.observedRecord) {
      this.observedRecord = record;
      this.observedAt = this.clock.now();
    }
    const holder = spec.holderIdentity ?? '';
    // A duration that is not a positive number (the apiserver validates it, a stand-in may not) is ours, never 0.
    const written = spec.leaseDurationSeconds;
    const durationMs =
      typeof written === 'number' && Number.isFinite(written) && written > 0 ? written * 1000 : this.leaseDurationMs;
    if (holder !== '' && holder !== this.options.identity && this.clock.now() - this.observedAt < durationMs) {
      if (this.leading) {
        this.leading = false;
        this.options.onStoppedLeading();
      }
      return;
    }
    try {
      this.current = await this.write('PUT', { ...lease, spec: this.spec(spec, now) }, signal);
    } catch (err) {
      if (isStatus(err, 409)) return;
      throw err;
    }
    const s = this.current.spec ?? {};
    this.observedRecord = JSON.stringify([s.holderIdentity, s.renewTime, s.leaseDurationSeconds]);
    this.observedAt = this.clock.now();
    this.becameLeader();
  }

  /** Stops campaigning; when leading, releases the lease so a follower takes over without waiting for it to expire. */
  async stop(release = true): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    if (this.deadline !== undefined) this.clock.clearTimer(this.deadline);
    await this.running;
    if (!this.leading) return;
    this.leading = false;
    if (!release || this.current === undefined) return;
    const now = this.clock.wallNow();
    try {
      await this.write('PUT', {
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
