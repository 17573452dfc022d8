// Who acts, and on which Clusters: the Manager's Ownership strategy (issue 40). Three implementations, one file each:
// a single leader (single-leader.ts: every Cluster, or Pull mode's one; elected through a Lease or alone), static
// shards (static-shards.ts: a hash of the name, a leader per shard) and Lease shards (lease-shards.ts: every replica
// active, the Clusters spread over the live member Leases, the view protocol and its fence). The Manager asks an
// Ownership when to start and stop the runnables that need it; the controller asks it which Clusters are its own.
import type { Shard, LeaseAssignment } from '../shard.js';

/** What an Ownership starts and stops: the Manager's runnables that need leadership or ownership. */
export interface OwnedWork {
  /** Starts them (nothing when they run). */
  start(): void;
  /** Fences them at once (no write from now on) and stops them in the background. */
  stop(): void;
  /** Whether they run. */
  readonly running: boolean;
  /** Resolves once every stop asked for so far has finished (every write done). */
  stopped(): Promise<void>;
  /** Lease shards: stops the Clusters no longer ours and waits for their writes. */
  release(): Promise<string[]>;
  /** Lease shards: queues every Cluster whose state differs from the view. */
  reassign(): void;
  /** Lease shards: whether the running controller probes and writes the Cluster now. */
  holds(name: string): boolean;
  /** Lease shards: the shard gauges' figures, as the running controller sees them. */
  shardCounts(): { assignable: number; owned: number; fenced: number };
}

/** Which Clusters the controller takes: the Pull-mode Cluster, a static shard, or a Lease assignment. */
export interface OwnershipScope {
  clusterName?: string;
  shard?: Shard;
  assignment?: LeaseAssignment;
}

export interface Ownership {
  readonly mode: 'single-leader' | 'static-shards' | 'lease-shards';
  /** What the controller is built with. */
  readonly scope: OwnershipScope;
  /** Whether this replica may run the owned work now: leading, a member whose Lease is renewed, or alone. */
  readonly active: boolean;
  /** Ready for /readyz: a follower standing by is; otherwise the running controller's own readiness decides. */
  ready(controllerReady: boolean | undefined): boolean;
  /** Whether this replica probes and writes the Cluster now (the ClusterProfile producer asks). */
  ownsNow(name: string): boolean;
  /** Changes whenever ownsNow may answer differently (Lease shards), for those that cache it. */
  readonly epoch: number;
  /** Begins electing or joining; starts and stops `work` as ownership comes and goes. */
  start(work: OwnedWork): void;
  /** Marks the Manager stopping: no further start of the owned work. */
  stopping(): void;
  /** After the owned work stopped: releases the Lease (a follower, or the others, take over at once). */
  stop(): Promise<void>;
  /** For the start-up log line. */
  describe(): Record<string, unknown>;
}

export interface OwnershipLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}
