// The reconcile of one Cluster, in the manner of controller-runtime's Reconcile: given a name, read what is (the
// informer's cache), make the probe worker the one the Cluster asks for, and write the difference between what the
// Cluster says and what its probe says. Level-triggered and idempotent: the controller (manager.ts) calls it for
// every change, transition and relist, never two at once for one name, again with backoff when it throws, and again
// when it returns `{ requeue: true }` (controller-runtime's Result).
import type { QueueResult } from '../kube/work-queue.js';
import type { Cluster } from '@karmada-cluster-probe/schema';
import type { ClusterWriter } from './cluster-writer.js';
import type { Desired } from './desired-state.js';
import type { ProbeWorkers } from './probe-workers.js';
import type { DisruptionGuard } from './disruption-guard.js';

export interface ClusterReconcilerOptions {
  /** The cached Cluster by name (the informer's), undefined once it is gone. */
  get: (name: string) => Cluster | undefined;
  /** Whether this replica probes the Cluster (Pull mode, syncMode, shard). */
  owns: (cluster: Cluster) => boolean;
  workers: ProbeWorkers;
  writer: ClusterWriter;
  /** Holds back failure verdicts the fleet's state does not allow (absent: every verdict is written). */
  guard?: DisruptionGuard;
  /** Told of the verdict decided for a Cluster (after the guard), before it is written: the per-Cluster metrics. */
  held?: (name: string, desired: Desired) => void;
}

/** What reconcile wants next: `{ requeue: true }` to come back once every Cluster queued now has had its turn. */
export type ReconcileResult = QueueResult;

const DONE: ReconcileResult = Object.freeze({});
const AGAIN: ReconcileResult = Object.freeze({ requeue: true });

export class ClusterReconciler {
  /** Our last write per Cluster, until the cache has caught up with it. */
  private readonly written = new Map<string, { staleVersions: Set<string>; cluster: Cluster }>();

  constructor(private readonly options: ClusterReconcilerOptions) {}

  /**
   * Brings the Cluster `name` to what its probe says, and says whether to come back (a taint written alone leaves the
   * condition for the next pass). Throws when a write fails (the caller retries).
   */
  async reconcile(name: string): Promise<ReconcileResult> {
    const { workers, writer } = this.options;
    const cached = this.options.get(name);
    if (cached === undefined) {
      // Deleted: its worker goes; nothing to write.
      workers.remove(name, 'deleted');
      this.written.delete(name);
      return DONE;
    }
    if (!this.options.owns(cached)) {
      // Another shard's, or a Pull Cluster its agent probes: not ours to write either. What we wrote of it is
      // forgotten: when it comes back to us (Lease sharding), its owner meanwhile may have written it.
      workers.remove(name, 'not-owned');
      this.written.delete(name);
      return DONE;
    }
    // 1. The worker matches the probe the Cluster carries now (started, replaced, stopped; none when invalid).
    workers.ensure(cached);
    // 1a. An errored probe writes no verdict; its Event (due once per probe state, not per period) is told here, in
    //     the queue's bounded writes, best effort.
    const errored = workers.takeErroredEvent(name);
    if (errored !== undefined) await writer.recordErrored(cached, errored.message, errored.attempts);
    // 2. Desired: what the probe says (or: no probe, an invalid probe, no result yet).
    const probed = workers.desired(name);
    if (probed?.kind === 'keep') this.options.held?.(name, probed);
    if (probed === undefined || probed.kind === 'keep') return DONE;
    // 3. Current: the cache, or our own newer write while the cache is behind it (so we never write twice).
    const current = this.current(name, cached);
    // 3a. The fleet's say: a failure verdict the disruption guard does not allow now is withheld or waits.
    const desired = this.options.guard?.adjust(name, probed, current.cluster) ?? probed;
    if (desired.kind === 'keep') return DONE;
    this.options.held?.(name, desired);
    // 4. The difference, written. A taint that changes is written alone, and the Cluster asks to go to the back of the
    //    queue for its condition and Event: in a mass failure every failing Cluster's taint (what stops the scheduler) is
    //    written before any condition, and a reconcile holds a slot for one request, not three.
    const out = await writer.apply(current.cluster, desired, { taintsOnly: true });
    if ((out.wrote.status || out.wrote.taints) && out.cluster !== undefined) {
      const stale = current.staleVersions;
      stale.add(current.cluster.metadata?.resourceVersion ?? '');
      for (const v of out.staleVersions) stale.add(v);
      this.written.set(name, { staleVersions: stale, cluster: out.cluster });
    }
    return out.wrote.taints ? AGAIN : DONE;
  }

  /** Forgets our writes to one Cluster (it was released to another replica). */
  forget(name: string): void {
    this.written.delete(name);
  }

  /** Forgets every write remembered (a stop, or leadership lost). */
  reset(): void {
    this.written.clear();
  }

  private current(name: string, cached: Cluster): { cluster: Cluster; staleVersions: Set<string> } {
    const mine = this.written.get(name);
    if (mine !== undefined && mine.staleVersions.has(cached.metadata?.resourceVersion ?? ''))
      return { cluster: mine.cluster, staleVersions: mine.staleVersions };
    this.written.delete(name);
    return { cluster: cached, staleVersions: mine?.staleVersions ?? new Set() };
  }
}
