// With Lease sharding the ClusterProfile producer writes for the Clusters this replica holds now, and those move
// without a restart: when the Manager's ownership epoch changes, every Cluster is looked at again (a Cluster gained is
// written, a Cluster queued before it was given away is skipped). An in-memory API that lists and watches nothing new
// and records the profile writes; no clock (the producer's leadership poll is a few ms here).
import { expect } from 'chai';
import { ProfileController } from '../../../src/profile/index.js';
import type { KubeApi, WatchEvent } from '../../../src/kube/index.js';

const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';

class ProfileApi implements KubeApi {
  readonly writes: string[] = [];
  constructor(private readonly clusters: string[]) {}
  async request<T>(method: string, path: string): Promise<T> {
    await Promise.resolve();
    if (method === 'GET' && path === CLUSTERS)
      return {
        items: this.clusters.map((name) => ({
          metadata: { name, uid: `uid-${name}`, resourceVersion: '1' },
          status: {
            conditions: [
              {
                type: 'Ready',
                status: 'True',
                reason: 'ClusterReady',
                message: '',
                lastTransitionTime: '2026-01-01T00:00:00Z',
              },
            ],
          },
        })),
        metadata: { resourceVersion: '1' },
      } as T;
    if (method === 'GET') return { items: [], metadata: { resourceVersion: '1' } } as T;
    if (method === 'PATCH') {
      const name = /clusterprofiles\/([^/]+)/.exec(path)![1]!;
      this.writes.push(name);
      return { metadata: { name, resourceVersion: String(this.writes.length + 1) } } as T;
    }
    throw new Error(`unexpected ${method} ${path}`);
  }
  watch<T>(_p: string, _q: object, _e: (e: WatchEvent<T>) => void, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  }
}

const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
const until = async (what: string, check: () => boolean): Promise<void> => {
  const deadline = Date.now() + 10_000; // only catches a hang
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('ClusterProfile producer under Lease sharding', () => {
  it('writes the profiles of the Clusters it gains when ownership moves, and none of those it does not hold', async () => {
    const api = new ProfileApi(['member-1', 'member-2', 'member-3']);
    const held = new Set(['member-1']);
    let epoch = 0;
    const controller = new ProfileController({
      api,
      namespace: 'karmada-cluster',
      log,
      isLeader: () => true,
      owns: (name) => held.has(name),
      ownershipEpoch: () => epoch,
      leaderPollMs: 5,
    });
    controller.start();
    try {
      await until('member-1 written', () => api.writes.includes('member-1'));
      expect(api.writes.filter((n) => n !== 'member-1')).to.deep.equal([]);
      // member-2 moves to this replica (another left the group): its profile is written without a restart.
      held.add('member-2');
      epoch++;
      await until('member-2 written', () => api.writes.includes('member-2'));
      expect(api.writes).to.not.include('member-3');
    } finally {
      await controller.stop();
    }
  });
});
