// Who probes which Cluster. Static shards: FNV-1a (32 bit) of the Cluster's name, modulo the shard count, so every
// replica, on every platform and after every restart, agrees on who owns which Cluster. Lease sharding (docs/sharding.md):
// rendezvous hashing over the live members, and the fence that keeps two replicas from ever writing one Cluster.
// Pure, but for LeaseAssignment's state (the view this replica published, the one it moves to, the peers' views).

import { fnv1a32 } from '../kube/fnv.js';

export { fnv1a32 };

export interface Shard {
  index: number;
  count: number;
}

export function shardOf(name: string, count: number): number {
  return count <= 1 ? 0 : fnv1a32(name) % count;
}

/** Whether this replica's shard owns the Cluster `name` (always, without sharding). */
export function ownsCluster(name: string, shard: Shard | undefined): boolean {
  return shard === undefined || shard.count <= 1 || shardOf(name, shard.count) === shard.index;
}

/**
 * MurmurHash3's 32-bit finalizer: every input bit flips each output bit with probability about 1/2. FNV-1a alone
 * does not avalanche: the scores of one name under two members share its last bytes, so sequential names (member-0,
 * member-1, ...) went to one member far more often than 1/N (47.5% of 600 over 3 replicas in bench/reconciler).
 */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Rendezvous (highest random weight) hashing: the member with the highest score, FNV-1a 32 of `member + '\n' + name`
 * mixed by MurmurHash3's finalizer (ties: the greater identity). Adding or removing one of N members moves only the
 * Clusters it wins or won, about 1/N.
 */
export function rendezvousOwner(name: string, members: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = -1;
  for (const m of members) {
    const score = fmix32(fnv1a32(`${m}\n${name}`));
    if (score > bestScore || (score === bestScore && best !== undefined && m > best)) {
      best = m;
      bestScore = score;
    }
  }
  return best;
}

/** A view as published in a Lease annotation: the sorted identities, one a line. */
export function encodeView(members: readonly string[]): string {
  return [...new Set(members)].sort().join('\n');
}

/** The identities of a published view ('' or absent: none, the member claims nothing). */
export function decodeView(text: string | undefined): string[] {
  return text === undefined || text === '' ? [] : text.split('\n').filter((m) => m !== '');
}

/** The claim rule: `member` claims `name` when its own published `view` includes it and makes it the owner. */
export function claims(member: string, view: readonly string[], name: string): boolean {
  return view.includes(member) && rendezvousOwner(name, view) === member;
}

/**
 * This replica's side of Lease sharding: the view it published (what the others read its claims from), the view it
 * moves to while it releases what it loses, and what the live peers published. A Cluster is `mine` while both views
 * give it to us (so a Cluster we are losing stops before the new view is published), and `fenced` while a live peer's
 * published view claims it (we start it only once they let it go).
 */
export class LeaseAssignment {
  private publishedView: readonly string[] = [];
  private nextView: readonly string[] | undefined;
  /** Peers' published views that differ from ours (equal views claim disjoint sets: nothing to fence against). */
  private fences: { member: string; view: readonly string[] }[] = [];
  /** Bumped on every change of what is ours, for those that cache it (the ClusterProfile producer). */
  epoch = 0;

  constructor(readonly identity: string) {}

  get published(): readonly string[] {
    return this.publishedView;
  }

  get moving(): boolean {
    return this.nextView !== undefined;
  }

  /** Starts a move to `view`: from now on only the Clusters both views give us are ours. */
  beginMove(view: readonly string[]): void {
    this.nextView = [...view].sort();
    this.epoch++;
  }

  /** `view` is now in our Lease. */
  commit(view: readonly string[]): void {
    this.publishedView = [...view].sort();
    this.nextView = undefined;
    this.epoch++;
  }

  /** We claim nothing (stopped, or our Lease could not be renewed in time). */
  clear(): void {
    this.publishedView = [];
    this.nextView = undefined;
    this.epoch++;
  }

  /** The live peers' published views (by identity, as their Leases carry them). */
  setPeers(peers: ReadonlyMap<string, string | undefined>): void {
    const mine = encodeView(this.publishedView);
    const fences: { member: string; view: readonly string[] }[] = [];
    for (const [member, text] of peers) {
      if (member === this.identity || text === undefined || text === '' || text === mine) continue;
      const view = decodeView(text);
      if (view.includes(member)) fences.push({ member, view });
    }
    this.fences = fences;
    this.epoch++;
  }

  mine(name: string): boolean {
    if (!claims(this.identity, this.publishedView, name)) return false;
    return this.nextView === undefined || rendezvousOwner(name, this.nextView) === this.identity;
  }

  /** A live peer's published view claims `name`: it may still be writing it. */
  fenced(name: string): boolean {
    for (const f of this.fences) if (rendezvousOwner(name, f.view) === f.member) return true;
    return false;
  }
}
