// One coordination.k8s.io/v1 Lease as its holder keeps it, for leader election and Lease membership alike: the Lease's
// shape, the lease duration / renew deadline / retry period with their defaults and rule, MicroTime, the read, create,
// update (optimistic concurrency) and delete of one Lease, and the renew deadline. Knows neither who wins an election
// nor who is a member; depends only on the client and the injected clock.
import { isStatus, type KubeApi } from './client.js';
import type { Clock, TimerHandle } from '@karmada-cluster-probe/schema/api';

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

export interface Lease {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec?: LeaseSpec;
}

export interface LeaseDurations {
  leaseDurationMs: number;
  /** How long the holder may go without a successful renewal before it stops acting: shorter than the lease. */
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** client-go's defaults: a lease of 15 s, a renew deadline of 2/3 of it, a retry period of lease / 7.5 (2 s). */
export const DEFAULT_LEASE_DURATION_MS = 15_000;
/** The shortest retry period a default gives, whatever the lease duration (a Lease write is never a busy loop). */
export const MIN_DEFAULT_RETRY_PERIOD_MS = 200;

/**
 * The durations of a Lease holder, each default derived from the lease duration; throws `tooLong` when the renew
 * deadline is not shorter than the lease duration (the holder must stop before the others see its Lease expire).
 */
export function resolveLeaseDurations(input: Partial<LeaseDurations>, tooLong: string): LeaseDurations {
  const leaseDurationMs = input.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS;
  const renewDeadlineMs = input.renewDeadlineMs ?? Math.round((leaseDurationMs * 2) / 3);
  const retryPeriodMs = input.retryPeriodMs ?? Math.max(MIN_DEFAULT_RETRY_PERIOD_MS, Math.round(leaseDurationMs / 7.5));
  if (renewDeadlineMs >= leaseDurationMs) throw new Error(tooLong);
  return { leaseDurationMs, renewDeadlineMs, retryPeriodMs };
}

/** `leaseDurationSeconds` as written: whole seconds rounded up, so the others never wait less than we stop before. */
export function leaseDurationSeconds(leaseDurationMs: number): number {
  return Math.max(1, Math.ceil(leaseDurationMs / 1000));
}

/** How long a Lease read says it lasts; ours when it says nothing usable (the apiserver validates it, a stand-in may not). */
export function writtenDurationMs(spec: LeaseSpec | undefined, ownMs: number): number {
  const written = spec?.leaseDurationSeconds;
  return typeof written === 'number' && Number.isFinite(written) && written > 0 ? written * 1000 : ownMs;
}

/** What must change for a Lease to count as renewed (client-go's observed record): holder, renew time, duration. */
export function leaseRecord(spec: LeaseSpec | undefined): string {
  return JSON.stringify([spec?.holderIdentity, spec?.renewTime, spec?.leaseDurationSeconds]);
}

/** MicroTime: RFC 3339 with six fractional digits. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** The collection path of the Leases of `namespace`. */
export function leasesPath(namespace: string): string {
  return `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/leases`;
}

export type LeaseWriteOutcome = 'ok' | 'conflict' | 'error';

export interface LeaseClientOptions {
  api: KubeApi;
  namespace: string;
  name: string;
  /** Each request's own timeout (the renew deadline); an attempt's signal may end it sooner. */
  timeoutMs: number;
  /** Told the outcome of every create and update. */
  onWrite?: (outcome: LeaseWriteOutcome) => void;
}

/**
 * Reads and writes one Lease, at high priority in the client's rate limit (a renewal must not wait behind a burst of
 * reads: losing the Lease stops every worker). An update sends the resourceVersion it is given, so a Lease someone
 * else wrote since is not overwritten: the apiserver answers 409, which is thrown.
 */
export class LeaseClient {
  readonly collectionPath: string;
  readonly path: string;

  constructor(private readonly options: LeaseClientOptions) {
    this.collectionPath = leasesPath(options.namespace);
    this.path = `${this.collectionPath}/${encodeURIComponent(options.name)}`;
  }

  /** The Lease, or undefined when there is none (404); any other failure is thrown. */
  async get(signal?: AbortSignal): Promise<Lease | undefined> {
    try {
      return await this.options.api.request<Lease>('GET', this.path, this.requestOptions(undefined, signal));
    } catch (err) {
      if (isStatus(err, 404)) return undefined;
      throw err;
    }
  }

  create(lease: Lease, signal?: AbortSignal): Promise<Lease> {
    return this.write('POST', this.collectionPath, lease, signal);
  }

  /** Replaces the Lease read before: `lease.metadata.resourceVersion` is the version it must still be at (else 409). */
  update(lease: Lease, signal?: AbortSignal): Promise<Lease> {
    return this.write('PUT', this.path, lease, signal);
  }

  /** Deletes the Lease if still at `resourceVersion` (a precondition); 404 and 409 are thrown. */
  async delete(resourceVersion: string | undefined): Promise<void> {
    await this.options.api.request('DELETE', this.path, this.requestOptions({ preconditions: { resourceVersion } }));
  }

  private requestOptions(
    body: unknown,
    signal?: AbortSignal,
  ): { body?: unknown; timeoutMs: number; priority: 'high'; signal?: AbortSignal } {
    return {
      ...(body !== undefined ? { body } : {}),
      timeoutMs: this.options.timeoutMs,
      priority: 'high',
      ...(signal !== undefined ? { signal } : {}),
    };
  }

  private async write(method: 'POST' | 'PUT', path: string, lease: Lease, signal?: AbortSignal): Promise<Lease> {
    const body: Lease = { ...lease, apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' };
    try {
      const out = await this.options.api.request<Lease>(method, path, this.requestOptions(body, signal));
      this.options.onWrite?.('ok');
      return out;
    } catch (err) {
      this.options.onWrite?.(isStatus(err, 409) ? 'conflict' : 'error');
      throw err;
    }
  }
}

/**
 * Whether the holder may still act on its Lease: from a successful renewal until renewDeadlineMs later on our clock,
 * ended by a timer of its own whatever an attempt is waiting for (a socket, a hung request). Counted from when the
 * renewal's answer came back, as client-go does: its observedTime is taken after the write, and its next round's
 * RenewDeadline starts after that. The others count a lease duration from when they saw the write, which may be
 * before its answer reached us: the holder stops first as long as that answer took less than lease duration − renew
 * deadline (5 s by default), the bet client-go makes too.
 */
export class RenewDeadline {
  private lastRenew = 0;
  private isHeld = false;
  private timer: TimerHandle | undefined;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly renewDeadlineMs: number,
    /** Called once when the deadline passes while held. */
    private readonly onExpired: () => void,
  ) {}

  get held(): boolean {
    return this.isHeld;
  }

  /**
   * A renewal sent at `sentAt` has answered, stored; true when this starts a holding (it was not held). The deadline
   * counts from when it was sent, not when it answered: the others saw the write after it was sent and wait a whole
   * lease duration from then, so our stop comes first however slow the answer was (docs/sharding.md, "Why this is
   * safe"). One request's time stricter than client-go, which counts from the answer. An answer that came after the
   * deadline it would start is no renewal.
   */
  renewed(sentAt: number): boolean {
    if (this.clock.now() - sentAt >= this.renewDeadlineMs) {
      this.check();
      return false;
    }
    this.lastRenew = Math.max(this.lastRenew, sentAt);
    this.arm(this.lastRenew + this.renewDeadlineMs);
    const started = !this.isHeld;
    this.isHeld = true;
    return started;
  }

  /**
   * The time one attempt (a GET then a write) may take in all: what is left of the deadline while held, so a slow
   * GET leaves the write no deadline of its own; a whole deadline otherwise.
   */
  attemptMs(): number {
    const left = this.isHeld ? this.renewDeadlineMs - (this.clock.now() - this.lastRenew) : this.renewDeadlineMs;
    return Math.max(1, Math.round(left));
  }

  /** Ends the holding now if the deadline has passed (its timer does the same); otherwise looks again then. */
  check = (): void => {
    if (!this.isHeld) return;
    const left = this.renewDeadlineMs - (this.clock.now() - this.lastRenew);
    // A timer may fire a little before the clock says it is due: look again then, never give up the check.
    if (left > 0) {
      this.arm(this.clock.now() + Math.ceil(left));
      return;
    }
    this.isHeld = false;
    this.onExpired();
  };

  /** Ends the holding at once, without onExpired (another holder seen, a stop). */
  drop(): void {
    this.isHeld = false;
    this.clear();
  }

  /** Arms the timer again from the next renewal on. */
  start(): void {
    this.stopped = false;
  }

  /** No timer from now on; whether held stays as it is (a stop that releases the Lease reads it). */
  stop(): void {
    this.stopped = true;
    this.clear();
  }

  private arm(at: number): void {
    this.clear();
    if (!this.stopped) this.timer = this.clock.setTimer(at, this.check);
  }

  private clear(): void {
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }
}
