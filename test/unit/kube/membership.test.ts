// A member's own Lease against a Lease API that slows down, then fails: the member stays healthy for the renew
// deadline counted from when its last successful renewal was sent (the rule LeaderElector keeps too: lease-client.ts;
// client-go counts from the answer, one request later), and stops at once after it. On a fake clock (docs/testing.md): checked to the millisecond.
import { expect } from 'chai';
import { KubeApiError, LeaseMembership, type KubeApi, type MemberLease } from '../../../src/kube/index.js';
import { FakeClock } from '../../support/fake-clock.js';

const log = { info: () => undefined, warn: () => undefined };
const TIMING = { leaseDurationMs: 1_500, renewDeadlineMs: 1_000, retryPeriodMs: 100 };
/** How long the first write (the create) takes to answer: stored at once, answered this much later. */
const SLOW_WRITE_MS = 300;

/**
 * One member Lease at an apiserver: the group list is empty and its watch quiet; the first write answers after
 * SLOW_WRITE_MS, every request on the member's own Lease after it fails with a 500.
 */
class FailingAfterSlowCreate implements KubeApi {
  lease: MemberLease | undefined;
  writes: { method: string; lease: MemberLease }[] = [];
  constructor(private readonly clock: FakeClock) {}

  async request<T>(method: string, path: string, options: { body?: unknown } = {}): Promise<T> {
    if (method === 'GET' && path.endsWith('/leases')) return { items: [], metadata: { resourceVersion: '1' } } as T;
    if (this.writes.length > 0) throw new KubeApiError(500, 'InternalError', 'etcdserver: request timed out');
    if (method === 'GET') throw new KubeApiError(404, 'NotFound', 'leases not found');
    const body = structuredClone(options.body) as MemberLease;
    this.lease = { ...body, metadata: { ...body.metadata, resourceVersion: '2' } };
    this.writes.push({ method, lease: this.lease });
    await new Promise((r) => this.clock.setTimer(this.clock.now() + SLOW_WRITE_MS, () => r(undefined)));
    return structuredClone(this.lease) as T;
  }

  watch(_path: string, _query: unknown, _onEvent: unknown, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  }
}

describe('Lease membership: the renew deadline', function () {
  it('counts the renew deadline from when its last successful renewal was sent, not when it answered (stricter than client-go)', async () => {
    const clock = new FakeClock(1_000);
    const api = new FailingAfterSlowCreate(clock);
    const changes: { at: number; healthy: boolean }[] = [];
    const membership: LeaseMembership = new LeaseMembership({
      api,
      namespace: 'ns',
      group: 'g',
      identity: 'me',
      ...TIMING,
      onChange: () => changes.push({ at: clock.now(), healthy: membership.healthy }),
      log,
      clock,
    });
    membership.start();
    const sentAt = clock.now();
    await clock.advance(SLOW_WRITE_MS);
    expect(
      api.writes.map((w) => w.method),
      'created its Lease',
    ).to.deep.equal(['POST']);
    expect(membership.healthy, 'healthy once the create answered').to.equal(true);
    const answeredAt = clock.now();
    expect(answeredAt - sentAt).to.equal(SLOW_WRITE_MS);
    // Every renewal since fails: healthy up to the deadline counted from when the create was sent, not from its
    // answer (the others saw the write after it was sent, and wait a lease duration from then).
    await clock.advance(TIMING.renewDeadlineMs - SLOW_WRITE_MS - 1);
    expect(membership.healthy, '1 ms before the renew deadline after the send').to.equal(true);
    await clock.advance(1);
    expect(membership.healthy, 'at the renew deadline after the send').to.equal(false);
    // Told once, at the deadline (the list's sync before the create answered told it too, unhealthy then).
    const lost = changes.filter((c) => !c.healthy && c.at > answeredAt);
    expect(lost.map((c) => c.at - sentAt)).to.deep.equal([TIMING.renewDeadlineMs]);
    expect(api.lease?.spec?.leaseDurationSeconds, 'a lease duration of 1.5 s written as 2 whole seconds').to.equal(2);
    await membership.stop(false);
  });
});
