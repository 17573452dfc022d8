// Leader election against a Lease API that stalls: a renewal that never answers (a request queued behind 128 watch
// sockets ignores its timeout on Node 20) must still end leadership at the renew deadline, measured from the last
// renewal for the whole attempt; and a Lease held by another replica with a duration that is not a positive number is
// not taken over at once.
import { expect } from 'chai';
import { KubeApiError, LeaderElector, type KubeApi } from '../../../src/kube/index.js';

interface LeaseLike {
  metadata: { name: string; namespace: string; resourceVersion: string };
  spec: Record<string, unknown>;
}

/** A Lease API whose GET and PUT behave as `mode` says once `stallAfter` renewals have been answered. */
class StallingLeases implements KubeApi {
  lease: LeaseLike | undefined;
  renewals = 0;
  constructor(
    private readonly stall: 'never-answer' | 'slow-get-then-hang' | 'none',
    private readonly stallAfter = 1,
  ) {}

  private get stalling(): boolean {
    return this.stall !== 'none' && this.renewals >= this.stallAfter;
  }

  async request<T>(method: string, _path: string, options: { body?: unknown } = {}): Promise<T> {
    if (method === 'GET') {
      if (this.stalling && this.stall === 'never-answer') return new Promise<T>(() => undefined); // ignores its signal
      if (this.stalling) await new Promise((r) => setTimeout(r, 450));
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

const log = { info: () => undefined, warn: () => undefined };
const TIMING = { leaseDurationMs: 1_500, renewDeadlineMs: 1_000, retryPeriodMs: 100 };

/** A started elector for Lease ns/lease as `me`, on TIMING. */
function electorOn(api: KubeApi, onStartedLeading = (): void => undefined, onStoppedLeading = (): void => undefined) {
  const elector = new LeaderElector({
    api,
    namespace: 'ns',
    name: 'lease',
    identity: 'me',
    ...TIMING,
    onStartedLeading,
    onStoppedLeading,
    log,
  });
  elector.start();
  return elector;
}

async function leaderFor(api: KubeApi): Promise<{ elector: LeaderElector; lostAt: () => number; renewedAt: number }> {
  let lost = 0;
  let started = 0;
  const elector = electorOn(
    api,
    () => (started = performance.now()),
    () => (lost = performance.now()),
  );
  const deadline = Date.now() + 2_000;
  while (!elector.isLeader && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(elector.isLeader, 'became leader').to.equal(true);
  return { elector, lostAt: () => lost, renewedAt: started };
}

describe('leader election against a Lease API that stalls', function () {
  this.timeout(10_000);

  it('gives up leadership at the renew deadline when a renewal never answers', async () => {
    const api = new StallingLeases('never-answer');
    const { elector, lostAt, renewedAt } = await leaderFor(api);
    await new Promise((r) => setTimeout(r, TIMING.renewDeadlineMs + 400));
    expect(elector.isLeader, 'still leading after the renew deadline').to.equal(false);
    expect(lostAt() - renewedAt).to.be.within(TIMING.renewDeadlineMs - 50, TIMING.renewDeadlineMs + 300);
    void elector.stop(false);
  });

  it('counts the deadline for the whole attempt: a slow GET then a PUT that hangs', async () => {
    const api = new StallingLeases('slow-get-then-hang');
    const { elector, lostAt, renewedAt } = await leaderFor(api);
    await new Promise((r) => setTimeout(r, TIMING.renewDeadlineMs + 400));
    expect(elector.isLeader).to.equal(false);
    expect(lostAt() - renewedAt).to.be.below(TIMING.renewDeadlineMs + 300);
    void elector.stop(false);
  });

  it('does not take over at once a Lease held by another with a duration that is not a positive number', async () => {
    for (const leaseDurationSeconds of [0, -5, 'abc']) {
      const api = new StallingLeases('none');
      api.lease = {
        metadata: { name: 'lease', namespace: 'ns', resourceVersion: '1' },
        spec: { holderIdentity: 'other', leaseDurationSeconds, renewTime: new Date().toISOString() },
      };
      const elector = electorOn(api);
      await new Promise((r) => setTimeout(r, 500));
      expect(elector.isLeader, `leaseDurationSeconds ${String(leaseDurationSeconds)}`).to.equal(false);
      await elector.stop(false);
    }
  });
});
