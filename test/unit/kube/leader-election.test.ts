// Leader election against a Lease API that stalls: a renewal that never answers (a request queued behind 128 watch
// sockets ignores its timeout on Node 20) must still end leadership at the renew deadline, measured from the last
// renewal for the whole attempt; and a Lease held by another replica with a duration that is not a positive number is
// not taken over at once. On a fake clock (docs/testing.md): the deadline is checked to the millisecond, and a busy
// machine cannot move it.
import { expect } from 'chai';
import { KubeApiError, LeaderElector, type KubeApi } from '../../../src/kube/index.js';
import { FakeClock } from '../../support/fake-clock.js';

interface LeaseLike {
  metadata: { name: string; namespace: string; resourceVersion: string };
  spec: Record<string, unknown>;
}

/** A Lease API whose GET and PUT behave as `mode` says once `stallAfter` renewals have been answered. */
class StallingLeases implements KubeApi {
  lease: LeaseLike | undefined;
  renewals = 0;
  constructor(
    private readonly clock: FakeClock,
    private readonly stall: 'never-answer' | 'slow-get-then-hang' | 'none',
    private readonly stallAfter = 1,
  ) {}

  private get stalling(): boolean {
    return this.stall !== 'none' && this.renewals >= this.stallAfter;
  }

  async request<T>(method: string, _path: string, options: { body?: unknown } = {}): Promise<T> {
    if (method === 'GET') {
      if (this.stalling && this.stall === 'never-answer') return new Promise<T>(() => undefined); // ignores its signal
      if (this.stalling)
        await new Promise((r) => this.clock.setTimer(this.clock.now() + SLOW_GET_MS, () => r(undefined)));
      if (this.lease === undefined) throw new KubeApiError(404, 'NotFound', 'leases "lease" not found');
      return structuredClone(this.lease) as T;
    }
    if (this.stalling) return new Promise<T>(() => undefined);
    const body = options.body as LeaseLike;
    this.lease = { ...body, metadata: { ...body.metadata, resourceVersion: String(this.renewals + 1) } };
    this.renewals++;
    return structuredClone(this.lease) as T;
  }

  async watch(): Promise<void> {
    throw new Error('not used');
  }
}

/** How long the first write (the create) takes to answer: stored at once, answered this much later. */
const SLOW_CREATE_MS = 300;

/** A Lease API without the Lease: the create answers after SLOW_CREATE_MS, every request after it fails with a 500. */
class SlowCreateThenFailing implements KubeApi {
  private created = false;
  constructor(private readonly clock: FakeClock) {}

  async request<T>(method: string, _path: string, options: { body?: unknown } = {}): Promise<T> {
    if (this.created) throw new KubeApiError(500, 'InternalError', 'etcdserver: request timed out');
    if (method === 'GET') throw new KubeApiError(404, 'NotFound', 'leases "lease" not found');
    this.created = true;
    await new Promise((r) => this.clock.setTimer(this.clock.now() + SLOW_CREATE_MS, () => r(undefined)));
    return { ...(options.body as object), metadata: { name: 'lease', namespace: 'ns', resourceVersion: '1' } } as T;
  }

  async watch(): Promise<void> {
    throw new Error('not used');
  }
}

const log = { info: () => undefined, warn: () => undefined };
const TIMING = { leaseDurationMs: 1_500, renewDeadlineMs: 1_000, retryPeriodMs: 100 };
/** How long the slow GET takes: most of the renew deadline, leaving the PUT after it less than a deadline. */
const SLOW_GET_MS = 450;

/** A started elector for Lease ns/lease as `me`, on TIMING and `clock`. */
function electorOn(
  api: KubeApi,
  clock: FakeClock,
  onStartedLeading = (): void => undefined,
  onStoppedLeading = (): void => undefined,
) {
  const elector = new LeaderElector({
    api,
    namespace: 'ns',
    name: 'lease',
    identity: 'me',
    ...TIMING,
    onStartedLeading,
    onStoppedLeading,
    log,
    clock,
  });
  elector.start();
  return elector;
}

async function leaderFor(
  api: KubeApi,
  clock: FakeClock,
): Promise<{ elector: LeaderElector; lostAt: () => number | undefined; renewedAt: () => number }> {
  let lost: number | undefined;
  let renewed = 0;
  const elector = electorOn(
    api,
    clock,
    () => (renewed = clock.now()),
    () => (lost = clock.now()),
  );
  await clock.advance(0);
  expect(elector.isLeader, 'became leader on its first attempt').to.equal(true);
  return { elector, lostAt: () => lost, renewedAt: () => renewed };
}

describe('leader election against a Lease API that stalls', function () {
  it('gives up leadership at the renew deadline when a renewal never answers', async () => {
    const clock = new FakeClock(1_000);
    const api = new StallingLeases(clock, 'never-answer');
    const { elector, lostAt, renewedAt } = await leaderFor(api, clock);
    await clock.advance(TIMING.renewDeadlineMs - 1);
    expect(elector.isLeader, 'still leading 1 ms before the renew deadline').to.equal(true);
    expect(api.renewals, 'no renewal answered after the first write').to.equal(1);
    await clock.advance(2);
    expect(elector.isLeader, 'still leading after the renew deadline').to.equal(false);
    // At the deadline, or the 1 ms after it that the check waits for a timer that fired early.
    expect(lostAt()! - renewedAt()).to.be.within(TIMING.renewDeadlineMs, TIMING.renewDeadlineMs + 1);
    void elector.stop(false);
  });

  it('counts the deadline for the whole attempt: a slow GET then a PUT that hangs', async () => {
    const clock = new FakeClock(1_000);
    const api = new StallingLeases(clock, 'slow-get-then-hang');
    const { elector, lostAt, renewedAt } = await leaderFor(api, clock);
    // The renewal starts a retry period after the write; its GET answers SLOW_GET_MS later, its PUT never: the PUT
    // gets what is left of the one deadline, not a deadline of its own (which would end at 100 + 450 + 1000 ms).
    await clock.advance(TIMING.retryPeriodMs + SLOW_GET_MS + 1);
    expect(elector.isLeader, 'leading while the PUT waits').to.equal(true);
    await clock.advance(TIMING.renewDeadlineMs);
    expect(elector.isLeader).to.equal(false);
    expect(lostAt()! - renewedAt()).to.be.within(TIMING.renewDeadlineMs, TIMING.renewDeadlineMs + 1);
    void elector.stop(false);
  });

  it('counts the renew deadline from when its last successful renewal was sent, not when it answered (stricter than client-go)', async () => {
    const clock = new FakeClock(1_000);
    const api = new SlowCreateThenFailing(clock);
    let lost: number | undefined;
    const elector = electorOn(api, clock, undefined, () => (lost = clock.now()));
    await clock.advance(SLOW_CREATE_MS);
    expect(elector.isLeader, 'leading once the create answered').to.equal(true);
    const answeredAt = clock.now();
    const sentAt = answeredAt - SLOW_CREATE_MS;
    await clock.advance(TIMING.renewDeadlineMs - SLOW_CREATE_MS - 1);
    expect(elector.isLeader, '1 ms before the renew deadline after the send').to.equal(true);
    await clock.advance(1);
    expect(elector.isLeader, 'at the renew deadline after the send').to.equal(false);
    expect(lost! - sentAt).to.equal(TIMING.renewDeadlineMs);
    await elector.stop(false);
  });

  it('writes its lease duration rounded up to whole seconds: the others never wait less than its renew deadline', async () => {
    const clock = new FakeClock(1_000);
    const api = new StallingLeases(clock, 'none');
    const elector = new LeaderElector({
      api,
      namespace: 'ns',
      name: 'lease',
      identity: 'me',
      leaseDurationMs: 1_400,
      renewDeadlineMs: 1_300,
      retryPeriodMs: 100,
      onStartedLeading: () => undefined,
      onStoppedLeading: () => undefined,
      log,
      clock,
    });
    elector.start();
    await clock.advance(0);
    expect(elector.isLeader).to.equal(true);
    expect(api.lease?.spec.leaseDurationSeconds, '1.4 s as whole seconds, not rounded down to 1').to.equal(2);
    await elector.stop(false);
  });

  it('does not take over at once a Lease held by another with a duration that is not a positive number', async () => {
    for (const leaseDurationSeconds of [0, -5, 'abc']) {
      const clock = new FakeClock(1_000);
      const api = new StallingLeases(clock, 'none');
      api.lease = {
        metadata: { name: 'lease', namespace: 'ns', resourceVersion: '1' },
        spec: { holderIdentity: 'other', leaseDurationSeconds, renewTime: new Date().toISOString() },
      };
      const elector = electorOn(api, clock);
      await clock.advance(500);
      expect(elector.isLeader, `leaseDurationSeconds ${String(leaseDurationSeconds)}`).to.equal(false);
      // Its own lease duration, on its own clock, from when it first saw the record: then the lease has expired.
      await clock.advance(TIMING.leaseDurationMs - 500 - 1);
      expect(elector.isLeader, `leaseDurationSeconds ${String(leaseDurationSeconds)}, before expiry`).to.equal(false);
      await clock.advance(2 * TIMING.retryPeriodMs);
      expect(elector.isLeader, `leaseDurationSeconds ${String(leaseDurationSeconds)}, after expiry`).to.equal(true);
      await elector.stop(false);
    }
  });
});
