// With Lease sharding the ClusterProfile producer writes for the Clusters this replica holds now, and those move
// without a restart: when the Manager's ownership epoch changes, every Cluster is looked at again (a Cluster gained is
// written, a Cluster queued before it was given away is skipped). Against the in-memory apiserver, on a fake clock
// that the test moves one leadership poll at a time.
import { expect } from 'chai';
import { ProfileController } from '../../../src/profile/index.js';
import { KARMADA_READY_CONDITION } from '../../../src/facts/karmada.js';
import { FakeApiServer } from '../../support/fake-apiserver.js';
import { FakeClock } from '../../support/fake-clock.js';
import { aCluster } from '../../support/cluster.js';

const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
const POLL_MS = 5;

/** The Clusters whose ClusterProfile (or its status) was written, in order, one entry a write. */
const profileWrites = (api: FakeApiServer): string[] =>
  api
    .writeRequests()
    .map((r) => /\/clusterprofiles\/([^/]+)/.exec(r)?.[1])
    .filter((n): n is string => n !== undefined);

describe('ClusterProfile producer under Lease sharding', () => {
  it('writes the profiles of the Clusters it gains when ownership moves, and none of those it does not hold', async () => {
    const api = new FakeApiServer();
    for (const name of ['member-1', 'member-2', 'member-3'])
      api.putCluster(
        aCluster(name, {
          conditions: [
            {
              type: KARMADA_READY_CONDITION,
              status: 'True',
              reason: 'ClusterReady',
              message: '',
              lastTransitionTime: '2026-01-01T00:00:00Z',
            },
          ],
        }),
      );
    const clock = new FakeClock();
    const held = new Set(['member-1']);
    let epoch = 0;
    const controller = new ProfileController({
      api,
      namespace: 'karmada-cluster',
      log,
      isLeader: () => true,
      owns: (name) => held.has(name),
      ownershipEpoch: () => epoch,
      leaderPollMs: POLL_MS,
      clock,
    });
    /** Moves the clock a poll at a time until `check` holds; the deadline (real time) only catches a hang. */
    const until = async (what: string, check: () => boolean): Promise<void> => {
      const deadline = Date.now() + 10_000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await clock.advance(POLL_MS);
      }
    };
    controller.start();
    try {
      await until('member-1 written', () => profileWrites(api).includes('member-1'));
      expect(profileWrites(api).filter((n) => n !== 'member-1')).to.deep.equal([]);
      // member-2 moves to this replica (another left the group): its profile is written without a restart.
      held.add('member-2');
      epoch++;
      await until('member-2 written', () => profileWrites(api).includes('member-2'));
      expect(profileWrites(api)).to.not.include('member-3');
    } finally {
      await controller.stop();
    }
  });
});
