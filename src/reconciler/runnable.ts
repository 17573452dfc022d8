// What the Manager runs, as controller-runtime's manager.Runnable and LeaderElectionRunnable: a piece of the process
// that starts and stops, and says whether it needs leadership (or, with Lease shards, ownership) to run. The Cluster
// controller needs it (made afresh on each gain, fenced and stopped on each loss); the ClusterProfile producer, the
// health and metrics server do not (they run from the Manager's start to its stop, asking the Manager what they may
// write or report).
export interface Runnable {
  /** For logs. */
  readonly name: string;
  /**
   * true: started when this replica gains leadership or ownership, fenced then stopped when it loses it, and started
   * again when it regains it; false: started with the Manager, stopped with it (last added, first stopped).
   */
  readonly needLeaderElection: boolean;
  /**
   * A server (health, metrics): started before every other runnable and stopped after all of them and after the Lease
   * is released, so that /readyz and /metrics answer through a stop (controller-runtime's HTTP servers group).
   */
  readonly server?: boolean;
  /** Starts; may wait (a server binding its port). */
  start(): void | Promise<void>;
  /** No write from now on; the stop follows. Called at once when leadership or the member Lease is lost. */
  fence?(): void;
  /** Stops, every write in flight done. */
  stop(): Promise<void>;
}
