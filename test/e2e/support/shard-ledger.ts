// The ledger of a Lease-sharded e2e (test/e2e/sharding.test.ts): who wrote which Cluster when (each replica's own log
// of its writes, on this machine's clock), what each replica published as its view (its member Lease, renewTime on the
// same clock), and when a replica was killed; and the two safety judgements the design promises (docs/sharding.md,
// "Assignment and the fence"): a replica writes a Cluster only while its published view claims it, and when the writer
// of a Cluster changes from A to B, A's ownership ended (a view without it published, or A killed) before B's first
// write. Pure: no I/O, so a failed judgement prints the whole story of the Cluster.
import { claims } from '../../../src/reconciler/shard.js';

export interface Write {
  cluster: string;
  replica: string;
  /** Epoch ms, the writer's log time (logged when the write returned). */
  at: number;
  kind: 'taints' | 'status';
}

export interface Publication {
  replica: string;
  view: string[];
  /** Epoch ms, the Lease's renewTime (the publisher's clock, this machine). */
  at: number;
}

export interface Kill {
  replica: string;
  at: number;
}

/** The view `replica` had published at `at` (the last publication at or before it), or undefined before any. */
export function viewAt(pubs: readonly Publication[], replica: string, at: number): string[] | undefined {
  let view: string[] | undefined;
  for (const p of pubs) if (p.replica === replica && p.at <= at) view = p.view;
  return view;
}

/**
 * Writes made while the writer's published view did not claim the Cluster. No slack either way: a view is published
 * before its Clusters start (renewTime before their first write), and a Cluster's writes end before a view without it
 * is published (its last write before that renewTime).
 */
export function unclaimedWrites(writes: readonly Write[], pubs: readonly Publication[]): string[] {
  const out: string[] = [];
  for (const w of writes) {
    const view = viewAt(pubs, w.replica, w.at);
    if (view === undefined || !claims(w.replica, view, w.cluster))
      out.push(
        `${w.cluster}: ${w.kind} by ${w.replica} at ${iso(w.at)} while its published view was ` +
          `${view === undefined ? 'none' : `[${view.join(', ')}]`}`,
      );
  }
  return out;
}

/**
 * When `replica`'s ownership of `cluster` ended after `after`: its kill, or the renewTime of its first publication
 * after `after` whose view does not claim the Cluster, whichever came first; undefined if it never ended.
 */
export function releaseOf(
  replica: string,
  cluster: string,
  after: number,
  pubs: readonly Publication[],
  kills: readonly Kill[],
): number | undefined {
  const ends: number[] = [];
  const kill = kills.find((k) => k.replica === replica && k.at >= after);
  if (kill !== undefined) ends.push(kill.at);
  const pub = pubs.find((p) => p.replica === replica && p.at >= after && !claims(replica, p.view, cluster));
  if (pub !== undefined) ends.push(pub.at);
  return ends.length > 0 ? Math.min(...ends) : undefined;
}

/**
 * Each change of writer of a Cluster (A's write, then B's) where A's ownership had not ended before B wrote: two
 * writers at once.
 */
export function overlappingWriters(
  writes: readonly Write[],
  pubs: readonly Publication[],
  kills: readonly Kill[],
): string[] {
  const byCluster = new Map<string, Write[]>();
  for (const w of writes) byCluster.set(w.cluster, [...(byCluster.get(w.cluster) ?? []), w]);
  const out: string[] = [];
  for (const [cluster, list] of byCluster) {
    list.sort((a, b) => a.at - b.at);
    for (let i = 1; i < list.length; i++) {
      const a = list[i - 1]!;
      const b = list[i]!;
      if (a.replica === b.replica) continue;
      const released = releaseOf(a.replica, cluster, a.at, pubs, kills);
      if (released === undefined || released > b.at)
        out.push(
          `${cluster}: ${b.replica} wrote ${b.kind} at ${iso(b.at)} while ${a.replica} (${a.kind} at ${iso(a.at)}) ` +
            `still owned it (released ${released === undefined ? 'never' : iso(released)})`,
        );
    }
  }
  return out;
}

/** A replica past its renew deadline (it logged so) until it published a view again. */
export interface LeaseLoss {
  replica: string;
  at: number;
  /** When it published again (epoch ms), or undefined if it never did. */
  until: number | undefined;
}

/**
 * Writes a replica logged after its renew deadline passed and before it published again, with how long after the
 * deadline. Past `marginMs` (lease duration - renew deadline: when the peers may count its Lease expired and take its
 * Clusters) such a write can meet a new owner's; before it, it is a write the design says should not start.
 */
export function writesAfterLeaseLoss(
  writes: readonly Write[],
  losses: readonly LeaseLoss[],
): { write: Write; afterMs: number }[] {
  const out: { write: Write; afterMs: number }[] = [];
  for (const w of writes)
    for (const l of losses)
      if (w.replica === l.replica && w.at >= l.at && (l.until === undefined || w.at < l.until))
        out.push({ write: w, afterMs: w.at - l.at });
  return out;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
