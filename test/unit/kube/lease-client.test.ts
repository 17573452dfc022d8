// The Lease layer leader election and Lease membership share (src/kube/lease-client.ts): the durations and their rule,
// MicroTime, one Lease's reads and writes with optimistic concurrency, and the renew deadline, on a fake clock.
import { expect } from 'chai';
import { KubeApiError, LeaderElector, LeaseMembership, type KubeApi } from '../../../src/kube/index.js';
import {
  LeaseClient,
  RenewDeadline,
  leaseDurationSeconds,
  microTime,
  resolveLeaseDurations,
  writtenDurationMs,
  type Lease,
  type LeaseWriteOutcome,
} from '../../../src/kube/lease-client.js';
import { FakeClock } from '../../support/fake-clock.js';

interface Call {
  method: string;
  path: string;
  options: { body?: unknown; timeoutMs?: number; priority?: string; signal?: AbortSignal };
}

/** One Lease at an apiserver with resourceVersions: a PUT of a stale version is a 409, as the apiserver answers it. */
class OneLease implements KubeApi {
  lease: Lease | undefined;
  calls: Call[] = [];
  failWith: KubeApiError | undefined;

  async request<T>(method: string, path: string, options: Call['options'] = {}): Promise<T> {
    this.calls.push({ method, path, options });
    if (this.failWith !== undefined) throw this.failWith;
    const body = structuredClone(options.body) as Lease | undefined;
    const version = Number(this.lease?.metadata?.resourceVersion ?? '0');
    if (method === 'GET') {
      if (this.lease === undefined) throw new KubeApiError(404, 'NotFound', 'leases "l" not found');
      return structuredClone(this.lease) as T;
    }
    if (method === 'DELETE') {
      const pre = (options.body as { preconditions?: { resourceVersion?: string } }).preconditions;
      if (this.lease === undefined) throw new KubeApiError(404, 'NotFound', 'leases "l" not found');
      if (pre?.resourceVersion !== String(version)) throw new KubeApiError(409, 'Conflict', 'precondition failed');
      this.lease = undefined;
      return {} as T;
    }
    if (method === 'POST') {
      if (this.lease !== undefined) throw new KubeApiError(409, 'AlreadyExists', 'leases "l" already exists');
    } else if (body?.metadata?.resourceVersion !== String(version))
      throw new KubeApiError(409, 'Conflict', 'the object has been modified');
    this.lease = { ...body, metadata: { ...body?.metadata, resourceVersion: String(version + 1) } };
    return structuredClone(this.lease) as T;
  }

  async watch(): Promise<void> {
    throw new Error('not used');
  }
}

const log = { info: () => undefined, warn: () => undefined };

describe('Lease durations', () => {
  it('defaults to client-go’s 15 s lease, 10 s renew deadline and 2 s retry period', () => {
    expect(resolveLeaseDurations({}, 'x')).to.deep.equal({
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
    });
  });

  it('derives each default from the lease duration, the retry period never below 200 ms', () => {
    expect(resolveLeaseDurations({ leaseDurationMs: 30_000 }, 'x')).to.deep.equal({
      leaseDurationMs: 30_000,
      renewDeadlineMs: 20_000,
      retryPeriodMs: 4_000,
    });
    expect(resolveLeaseDurations({ leaseDurationMs: 1_000 }, 'x').retryPeriodMs).to.equal(200);
    expect(resolveLeaseDurations({ leaseDurationMs: 1_000, retryPeriodMs: 50 }, 'x').retryPeriodMs).to.equal(50);
  });

  it('refuses a renew deadline not shorter than the lease duration, with each holder’s own wording', () => {
    const api = new OneLease();
    const times = { leaseDurationMs: 10_000, renewDeadlineMs: 10_000 };
    const common = { api, namespace: 'ns', identity: 'me', log, ...times };
    expect(
      () => new LeaderElector({ ...common, name: 'l', onStartedLeading: () => 0, onStoppedLeading: () => 0 }),
    ).to.throw('leader election: renew deadline must be shorter than the lease duration');
    expect(() => new LeaseMembership({ ...common, group: 'g', onChange: () => 0 })).to.throw(
      'lease membership: the renew deadline must be shorter than the lease duration',
    );
    expect(() => resolveLeaseDurations({ leaseDurationMs: 10_000, renewDeadlineMs: 9_999 }, 'x')).to.not.throw();
    const m = new LeaseMembership({ ...common, renewDeadlineMs: undefined, group: 'g', onChange: () => 0 });
    expect(m.durations).to.deep.equal(resolveLeaseDurations({ leaseDurationMs: 10_000 }, 'x'));
  });

  it('writes the lease duration as whole seconds rounded up, and reads a duration that is not a positive number as ours', () => {
    expect([1_000, 1_001, 1_400, 1_500, 15_000, 200].map(leaseDurationSeconds)).to.deep.equal([1, 2, 2, 2, 15, 1]);
    expect(writtenDurationMs({ leaseDurationSeconds: 3 }, 15_000)).to.equal(3_000);
    for (const bad of [0, -5, Number.NaN, Infinity, undefined, '7' as unknown as number])
      expect(writtenDurationMs({ leaseDurationSeconds: bad }, 15_000), String(bad)).to.equal(15_000);
  });

  it('formats MicroTime with six fractional digits', () => {
    expect(microTime(Date.UTC(2026, 0, 2, 3, 4, 5, 678))).to.equal('2026-01-02T03:04:05.678000Z');
  });
});

describe('one Lease, read and written', () => {
  function clientOn(api: OneLease, outcomes: LeaseWriteOutcome[] = []): LeaseClient {
    return new LeaseClient({
      api,
      namespace: 'kube system',
      name: 'l',
      timeoutMs: 1_000,
      onWrite: (o) => outcomes.push(o),
    });
  }

  it('reads no Lease as undefined, and throws any other failure', async () => {
    const api = new OneLease();
    const leases = clientOn(api);
    expect(await leases.get()).to.equal(undefined);
    api.failWith = new KubeApiError(500, 'InternalError', 'boom');
    let thrown: unknown;
    await leases.get().catch((err: unknown) => (thrown = err));
    expect(thrown).to.be.instanceOf(KubeApiError).with.property('status', 500);
  });

  it('creates in the collection and updates the one Lease, at high priority, with its timeout and signal', async () => {
    const api = new OneLease();
    const leases = clientOn(api);
    const signal = new AbortController().signal;
    const created = await leases.create({ metadata: { name: 'l', namespace: 'kube system' }, spec: {} }, signal);
    await leases.update({ ...created, spec: { holderIdentity: 'me' } });
    expect(api.calls.map((c) => [c.method, c.path])).to.deep.equal([
      ['POST', '/apis/coordination.k8s.io/v1/namespaces/kube%20system/leases'],
      ['PUT', '/apis/coordination.k8s.io/v1/namespaces/kube%20system/leases/l'],
    ]);
    expect(api.calls.map((c) => [c.options.priority, c.options.timeoutMs])).to.deep.equal([
      ['high', 1_000],
      ['high', 1_000],
    ]);
    expect(api.calls[0]!.options.signal).to.equal(signal);
    expect(api.lease).to.deep.include({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' });
  });

  it('does not overwrite a Lease written since it was read (409), and reports each write’s outcome', async () => {
    const api = new OneLease();
    const outcomes: LeaseWriteOutcome[] = [];
    const leases = clientOn(api, outcomes);
    const read = await leases.create({ metadata: { name: 'l' }, spec: { holderIdentity: 'me' } });
    await leases.update({ ...read, spec: { holderIdentity: 'other' } }); // someone else's write, in effect
    let thrown: unknown;
    await leases.update({ ...read, spec: { holderIdentity: 'me' } }).catch((err: unknown) => (thrown = err));
    expect(thrown).to.have.property('status', 409);
    expect(api.lease?.spec?.holderIdentity, 'the other write kept').to.equal('other');
    api.failWith = new KubeApiError(503, 'ServiceUnavailable', 'down');
    await leases.update(read).catch(() => undefined);
    expect(outcomes).to.deep.equal(['ok', 'ok', 'conflict', 'error']);
  });

  it('deletes only the version it holds (a precondition), and does not count it as a write', async () => {
    const api = new OneLease();
    const outcomes: LeaseWriteOutcome[] = [];
    const leases = clientOn(api, outcomes);
    const held = await leases.create({ metadata: { name: 'l' }, spec: { holderIdentity: 'me' } });
    await leases.update({ ...held, spec: { holderIdentity: 'me-again' } }); // renewed since: a newer version
    let thrown: unknown;
    await leases.delete(held.metadata?.resourceVersion).catch((err: unknown) => (thrown = err));
    expect(thrown, 'an older version is not deleted').to.have.property('status', 409);
    expect(api.lease).to.not.equal(undefined);
    await leases.delete(api.lease?.metadata?.resourceVersion);
    expect(api.lease).to.equal(undefined);
    expect(api.calls.at(-1)).to.deep.include({ method: 'DELETE', path: leases.path });
    expect(api.calls.at(-1)!.options.body).to.deep.equal({ preconditions: { resourceVersion: '2' } });
    expect(outcomes, 'the create and the update only').to.deep.equal(['ok', 'ok']);
  });
});

describe('the renew deadline', () => {
  it('holds from a renewal until the renew deadline after it, each renewal moving it on', async () => {
    const clock = new FakeClock(1_000);
    const expiredAt: number[] = [];
    const deadline = new RenewDeadline(clock, 1_000, () => expiredAt.push(clock.now()));
    expect(deadline.held).to.equal(false);
    expect(deadline.renewed(clock.now()), 'the first renewal starts a holding').to.equal(true);
    await clock.advance(600);
    expect(deadline.renewed(clock.now()), 'a renewal while held').to.equal(false);
    await clock.advance(999);
    expect(deadline.held).to.equal(true);
    await clock.advance(1);
    expect(deadline.held).to.equal(false);
    expect(expiredAt).to.deep.equal([2_600]);
  });

  it('counts from when the renewal was sent, and takes no answer that came after the deadline it would start', async () => {
    const clock = new FakeClock(1_000);
    const expiredAt: number[] = [];
    const deadline = new RenewDeadline(clock, 1_000, () => expiredAt.push(clock.now()));
    const sentAt = clock.now();
    await clock.advance(300);
    expect(deadline.renewed(sentAt), 'answered 300 ms after it was sent').to.equal(true);
    await clock.advance(699);
    expect(deadline.held, '1 ms before the deadline counted from the send').to.equal(true);
    await clock.advance(1);
    expect(expiredAt).to.deep.equal([2_000]);
    const late = clock.now();
    await clock.advance(1_000);
    expect(deadline.renewed(late), 'an answer a whole deadline after its send').to.equal(false);
    expect(deadline.held).to.equal(false);
  });

  it('gives an attempt what is left of the deadline while held, a whole deadline otherwise', async () => {
    const clock = new FakeClock(0);
    const deadline = new RenewDeadline(clock, 1_000, () => undefined);
    expect(deadline.attemptMs()).to.equal(1_000);
    deadline.renewed(clock.now());
    await clock.advance(450);
    expect(deadline.attemptMs()).to.equal(550);
    await clock.advance(550);
    expect(deadline.held).to.equal(false);
    expect(deadline.attemptMs()).to.equal(1_000);
  });

  it('ends at once without telling on drop, and keeps no timer once stopped', async () => {
    const clock = new FakeClock(0);
    let expired = 0;
    const deadline = new RenewDeadline(clock, 1_000, () => expired++);
    deadline.renewed(clock.now());
    deadline.drop();
    expect(deadline.held).to.equal(false);
    expect(clock.pendingTimers()).to.equal(0);
    deadline.stop();
    deadline.renewed(clock.now());
    expect(deadline.held, 'a renewal that answers during a stop still counts (the stop releases the Lease)').to.equal(
      true,
    );
    expect(clock.pendingTimers()).to.equal(0);
    await clock.advance(5_000);
    expect(expired).to.equal(0);
  });

  it('looks again when its check runs before the deadline (a timer that fired early)', async () => {
    const clock = new FakeClock(0);
    let expired = 0;
    const deadline = new RenewDeadline(clock, 1_000, () => expired++);
    deadline.renewed(clock.now());
    await clock.advance(400);
    deadline.check();
    expect(deadline.held).to.equal(true);
    expect(clock.pendingTimers(), 'one timer, armed again').to.equal(1);
    await clock.advance(600);
    expect([deadline.held, expired]).to.deep.equal([false, 1]);
  });
});
