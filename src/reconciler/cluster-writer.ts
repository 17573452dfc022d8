// Writes the difference between what a Cluster carries and what it should: our taint through the main resource first
// (it is what stops karmada-scheduler), then the Healthy condition through the status subresource, each a JSON merge
// patch guarded by metadata.resourceVersion (optimistic concurrency); on 409 it re-reads and re-plans. An Event is
// recorded for a condition change it wrote, and, on its own, for an errored probe (recordErrored).
import {
  API_VERSION,
  GROUP,
  KIND,
  PLURAL,
  UNHEALTHY_TAINT_KEY,
  VERSION,
  type Cluster,
} from '@karmada-cluster-probe/schema';
import {
  erroredEventFor,
  eventFor,
  planCluster,
  rfc3339,
  type Desired,
  type TaintEffectOption,
} from './desired-state.js';
import { isStatus, type KubeApi } from '../kube/client.js';
import type { ReconcilerMetrics } from './metrics.js';
import { backgroundClock, messageOf, type Clock } from '@karmada-cluster-probe/schema/api';

export const CLUSTERS_PATH = `/apis/${GROUP}/${VERSION}/${PLURAL}`;
export const FIELD_MANAGER = 'cluster-probe-reconciler';

export interface WriterLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface ClusterWriterOptions {
  api: KubeApi;
  taintEffect: TaintEffectOption;
  metrics: ReconcilerMetrics;
  log: WriterLog;
  /** The replica's identity: the Events' reportingInstance. */
  identity: string;
  /** Where Events go: the apiserver takes Events on a cluster-scoped object only in `default`. */
  eventNamespace: string;
  maxConflictRetries?: number;
  /** The clock of the timestamps written (lastTransitionTime, an Event's time): its wallNow() (default the real one). */
  clock?: Clock;
  /**
   * The fence: asked before every write of a Cluster (the taint, the condition, its Event, and again after a 409
   * re-read). False once this replica may no longer write it: the Cluster controller stopped (the lease lost), or the
   * Cluster released to another replica (Lease sharding). A write the apiserver held while we were cut off comes back
   * as a 409 when it lands; it is never re-planned into a write of a verdict we no longer own.
   */
  mayWrite?: (name: string) => boolean;
  /**
   * Aborted when every write stops at once (the fence): a request still waiting for the client's rate limit is never
   * sent, and what it would have written is left as fenced.
   */
  signal?: AbortSignal;
}

export interface WriteOutcome {
  wrote: { status: boolean; taints: boolean; event: boolean };
  /** The Cluster as the last write returned it. */
  cluster?: Cluster;
  /** resourceVersions that writes replaced: a cache still holding one of them is behind our own write. */
  staleVersions: string[];
  /** Stopped by the fence (mayWrite said no): what is left unwritten is no longer this replica's to write. */
  fenced?: boolean;
}

export class ClusterWriter {
  private readonly clock: Clock;

  constructor(private readonly options: ClusterWriterOptions) {
    this.clock = options.clock ?? backgroundClock;
  }

  private clusterPath(name: string): string {
    return `${CLUSTERS_PATH}/${encodeURIComponent(name)}`;
  }

  private async patch(name: string, subresource: '' | '/status', body: object, kind: string): Promise<Cluster> {
    try {
      const out = await this.options.api.request<Cluster>('PATCH', `${this.clusterPath(name)}${subresource}`, {
        body,
        query: { fieldManager: FIELD_MANAGER },
        signal: this.options.signal,
        // The verdict Karmada acts on (the taint; the condition in condition-only mode, where a ClusterTaintPolicy
        // taints from it) goes ahead of every other waiting request in the client's rate limit.
        priority: kind === 'taints' || this.options.taintEffect === 'none' ? 'high' : 'normal',
      });
      this.options.metrics.writes.inc({ kind, outcome: 'ok' });
      return out;
    } catch (err) {
      this.options.metrics.writes.inc({ kind, outcome: isStatus(err, 409) ? 'conflict' : 'error' });
      throw err;
    }
  }

  /**
   * Brings `cluster` (the cached copy; re-read on conflict) to `desired`: the taints first (the taint is what keeps
   * karmada-scheduler off a failing cluster, so it must not wait for anything), then the condition, then its Event.
   * Resolves with what was written; rejects on an error other than a conflict or a Cluster gone (the work queue
   * retries it with backoff). With `taintsOnly`, a taint write that was needed is the only write (the caller comes back
   * for the condition); without a taint to write, the condition and its Event are written as usual.
   */
  async apply(cluster: Cluster, desired: Desired, options: { taintsOnly?: boolean } = {}): Promise<WriteOutcome> {
    const wrote = { status: false, taints: false, event: false };
    const staleVersions: string[] = [];
    const retries = this.options.maxConflictRetries ?? 5;
    let current: Cluster = cluster;
    const name = cluster.metadata?.name ?? '';
    const mayWrite = this.options.mayWrite;
    const fenced = (): WriteOutcome => {
      this.options.log.info({ cluster: name }, 'write fenced: no longer ours to write');
      return { wrote, cluster: current, staleVersions, fenced: true };
    };
    for (let attempt = 0; ; attempt++) {
      try {
        const plan = planCluster(current, desired, this.options.taintEffect, this.clock.wallNow());
        if (plan.taints !== undefined) {
          if (mayWrite?.(name) === false) return fenced();
          staleVersions.push(current.metadata?.resourceVersion ?? '');
          current = await this.patch(
            name,
            '',
            { metadata: { resourceVersion: current.metadata?.resourceVersion }, spec: { taints: plan.taints } },
            'taints',
          );
          wrote.taints = true;
          this.options.log.info(
            { cluster: name, tainted: plan.taints.some((t) => t.key === UNHEALTHY_TAINT_KEY) },
            'taints written',
          );
          if (options.taintsOnly === true) break;
        }
        // The conditions do not depend on the taints: the plan stands, on the object the taint write returned.
        if (plan.status !== undefined) {
          if (mayWrite?.(name) === false) return fenced();
          staleVersions.push(current.metadata?.resourceVersion ?? '');
          current = await this.patch(
            name,
            '/status',
            {
              metadata: { resourceVersion: current.metadata?.resourceVersion },
              status: { conditions: plan.status.conditions },
            },
            'status',
          );
          wrote.status = true;
          this.options.log.info(
            {
              cluster: name,
              condition: plan.status.change?.to.status ?? 'removed',
              reason: plan.status.change?.to.reason,
            },
            'Healthy condition written',
          );
          // Told right after the condition it tells of: a retry finds the condition written and no change to tell.
          if (plan.status.change !== undefined)
            wrote.event = await this.recordEvent(current, eventFor(plan.status.change));
        }
        break;
      } catch (err) {
        if (isStatus(err, 404)) return { wrote, staleVersions };
        if (this.options.signal?.aborted === true) return fenced();
        if (!isStatus(err, 409) || attempt >= retries) throw err;
        if (mayWrite?.(name) === false) return fenced();
        current = await this.options.api.request<Cluster>('GET', this.clusterPath(name), {
          priority: 'high',
          signal: this.options.signal,
        });
      }
    }
    return { wrote, cluster: current, staleVersions };
  }

  /**
   * The Warning Event of an errored probe, which writes nothing else (no condition, no taint). The caller tells it
   * once per probe state, never once a period. Best effort, as every Event.
   */
  recordErrored(cluster: Cluster, message: string, attempts: number | undefined): Promise<boolean> {
    if (this.options.mayWrite?.(cluster.metadata?.name ?? '') === false) return Promise.resolve(false);
    return this.recordEvent(cluster, erroredEventFor(message, attempts));
  }

  /** Best effort, as client-go's recorder: a lost Event is logged, never retried into a duplicate. */
  private async recordEvent(cluster: Cluster, e: ReturnType<typeof eventFor>): Promise<boolean> {
    const name = cluster.metadata?.name ?? '';
    const ts = rfc3339(this.clock.wallNow());
    try {
      await this.options.api.request('POST', `/api/v1/namespaces/${this.options.eventNamespace}/events`, {
        body: {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { generateName: `${name}.`, namespace: this.options.eventNamespace },
          involvedObject: {
            apiVersion: API_VERSION,
            kind: KIND,
            name,
            uid: cluster.metadata?.uid,
            resourceVersion: cluster.metadata?.resourceVersion,
          },
          reason: e.reason,
          message: e.message,
          type: e.type,
          source: { component: FIELD_MANAGER, host: this.options.identity },
          firstTimestamp: ts,
          lastTimestamp: ts,
          count: 1,
          reportingComponent: FIELD_MANAGER,
          reportingInstance: this.options.identity,
        },
        signal: this.options.signal,
      });
      this.options.metrics.writes.inc({ kind: 'event', outcome: 'ok' });
      return true;
    } catch (err) {
      this.options.metrics.writes.inc({ kind: 'event', outcome: 'error' });
      this.options.log.warn({ cluster: name, reason: e.reason, err: messageOf(err) }, 'could not record Event');
      return false;
    }
  }
}
