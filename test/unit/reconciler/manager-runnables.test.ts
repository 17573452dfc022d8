// The Manager as controller-runtime's (issue 40): what it answers before its Ownership has started, what happens when a
// runnable cannot start, and the order of a stop (the owned work and the other runnables, then the Lease, then the
// servers). On the in-memory apiserver (test/support), the real Manager, no probe target.
import { expect } from 'chai';
import { Manager, type ReconcilerOptions, type Runnable } from '../../../src/reconciler/index.js';
import { FakeApiServer } from '../../support/fake-apiserver.js';

const log = { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined };

function managerOn(api: FakeApiServer, more: Partial<ReconcilerOptions> = {}): Manager {
  return new Manager({ api, taintEffect: 'NoSchedule', identity: 'me', log, disruption: false, ...more });
}

/** A runnable that writes what happens to it into `events`. */
function recorder(
  name: string,
  events: string[],
  o: { server?: boolean; start?: () => Promise<void>; stop?: () => Promise<void> } = {},
): Runnable {
  return {
    name,
    needLeaderElection: false,
    ...(o.server === true ? { server: true } : {}),
    start: () => {
      events.push(`start ${name}`);
      return o.start?.();
    },
    stop: async () => {
      events.push(`stop ${name}`);
      await o.stop?.();
    },
  };
}

describe('Manager and its runnables', () => {
  it('with leader election, leads nothing and owns no Cluster before it has won the Lease (ready as a follower)', () => {
    const m = managerOn(new FakeApiServer(), { leaderElection: { namespace: 'ns', name: 'lease' } });
    expect(m.isLeader).to.equal(false);
    expect(m.ownsNow('member1')).to.equal(false);
    expect(m.ready).to.equal(true);
  });

  it('refuses a renew deadline not shorter than the lease when it is made, not when it starts', () => {
    expect(() =>
      managerOn(new FakeApiServer(), {
        leaderElection: { namespace: 'ns', name: 'lease', leaseDurationMs: 2_000, renewDeadlineMs: 2_000 },
      }),
    ).to.throw(/renew deadline/);
  });

  it('starts the servers first; a runnable that cannot start stops the ones started, elects nothing, and rejects', async () => {
    const events: string[] = [];
    const api = new FakeApiServer();
    const m = managerOn(api, { leaderElection: { namespace: 'ns', name: 'lease' } });
    m.add(recorder('profiles', events));
    m.add(recorder('broken', events, { start: () => Promise.reject(new Error('listen EADDRINUSE 127.0.0.1:8080')) }));
    m.add(recorder('health', events, { server: true }));
    let err: unknown;
    await m.start().catch((e: unknown) => (err = e));
    expect((err as Error | undefined)?.message).to.equal('listen EADDRINUSE 127.0.0.1:8080');
    expect(events).to.deep.equal([
      'start health',
      'start profiles',
      'start broken',
      'stop broken',
      'stop profiles',
      'stop health',
    ]);
    expect(m.isLeader).to.equal(false);
    expect(
      api.requests.filter((r) => r.includes('/leases')),
      'no campaign',
    ).to.deep.equal([]);
  });

  it('stops the other runnables before the Lease is released and the servers after it; a failed stop rejects at the end', async () => {
    const events: string[] = [];
    const api = new FakeApiServer();
    api.before((r) => {
      if (r.path.includes('/leases/') && r.method === 'PUT') events.push(`lease PUT`);
    });
    const m = managerOn(api, {
      leaderElection: { namespace: 'ns', name: 'lease', leaseDurationMs: 3_000, retryPeriodMs: 100 },
    });
    m.add(recorder('health', events, { server: true }));
    m.add(recorder('profiles', events, { stop: () => Promise.reject(new Error('profiles would not stop')) }));
    await m.start();
    const deadline = Date.now() + 10_000;
    while (!m.isLeader && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(m.isLeader, 'leading').to.equal(true);
    events.length = 0;
    let err: unknown;
    await m.stop().catch((e: unknown) => (err = e));
    expect((err as Error | undefined)?.message).to.equal('profiles would not stop');
    // The release is the last PUT of the Lease (its holder emptied), after the profiles stopped, before the server.
    const release = events.lastIndexOf('lease PUT');
    expect(events.indexOf('stop profiles')).to.be.within(0, release - 1);
    expect(events.indexOf('stop health')).to.be.greaterThan(release);
    expect(api.leases().find((l) => l.metadata?.name === 'lease')?.spec?.holderIdentity ?? '').to.equal('');
  });
});
