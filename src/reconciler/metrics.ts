// The reconciler's Prometheus metrics, in a registry of its own (so two reconcilers in one process, as in tests, do not
// collide): probe results and durations, transitions, API writes, watch restarts, workers, leadership, and the
// per-Cluster series (cluster-metrics.ts). The names are src/facts/metric-names.ts's. Depends on prom-client only.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { FLEET_METRICS as N, METRIC_PREFIX } from '../facts/metric-names.js';
import { ClusterFamily, ClusterMetrics } from './cluster-metrics.js';

export interface ReconcilerMetrics {
  registry: Registry;
  probeResults: Counter<'result'>;
  probeDuration: Histogram<'handler'>;
  probeLateness: Histogram;
  transitions: Counter<'to'>;
  writes: Counter<'kind' | 'outcome'>;
  watchRestarts: Counter<'resource' | 'reason'>;
  apiRequests: Counter<'method' | 'code'>;
  workers: Gauge;
  invalidProbes: Gauge<'source'>;
  workersStopped: Counter<'reason'>;
  clusters: Gauge;
  leader: Gauge;
  queueDepth: Gauge;
  proberDisrupted: Gauge;
  domainState: Gauge<'domain' | 'state'>;
  verdictsWithheld: Gauge<'reason'>;
  sentinelUp: Gauge<'sentinel'>;
  /** The per-Cluster series (label member_cluster, Karmada's own). */
  perCluster: ClusterMetrics;
  /** Lease sharding (docs/sharding.md): the gauges are read from `shardSource` when scraped, never per event. */
  shardMembers: Gauge;
  shardOwned: Gauge;
  shardAssignable: Gauge;
  shardFenced: Gauge;
  shardRebalances: Counter;
  /** Set by the Manager with `--sharding lease`; absent, the shard gauges stay 0. */
  shardSource?: () => ShardFigures;
}

/** What the shard gauges report, as this replica sees it. */
export interface ShardFigures {
  members: number;
  owned: number;
  assignable: number;
  fenced: number;
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): ReconcilerMetrics {
  const registry = new Registry();
  if (options.defaultMetrics === true) collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });
  const registers = [registry];
  // Computed at scrape time: a pass over the cache every scrape, nothing per probe or watch event.
  const shardGauge = (name: string, help: string, field: keyof ShardFigures): Gauge =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const figures = metrics.shardSource?.();
        if (figures !== undefined) this.set(figures[field]);
      },
    });
  const metrics: ReconcilerMetrics = {
    registry,
    probeResults: new Counter({
      name: N.probeResults,
      help: 'Probe runs by result (success, failure, error: cannot run as configured, errored: the answer could not be read in 3 attempts, not counted toward a threshold).',
      labelNames: ['result'],
      registers,
    }),
    probeDuration: new Histogram({
      name: N.probeDuration,
      help: 'Duration of probe runs by handler.',
      labelNames: ['handler'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    probeLateness: new Histogram({
      name: N.probeLateness,
      help: 'How late probe runs start against their due time (scheduler saturation).',
      buckets: [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers,
    }),
    transitions: new Counter({
      name: N.transitions,
      help: 'Probe state transitions (thresholds reached) by the new state.',
      labelNames: ['to'],
      registers,
    }),
    writes: new Counter({
      name: N.writes,
      help: 'Writes to the Kubernetes API by kind (status, taints, event, lease) and outcome (ok, conflict, error).',
      labelNames: ['kind', 'outcome'],
      registers,
    }),
    watchRestarts: new Counter({
      name: N.watchRestarts,
      help: 'Watch restarts by resource and reason (error, gone, resync).',
      labelNames: ['resource', 'reason'],
      registers,
    }),
    apiRequests: new Counter({
      name: N.apiRequests,
      help: 'Requests to the apiserver by method (WATCH for a watch started) and HTTP code, or error when none came.',
      labelNames: ['method', 'code'],
      registers,
    }),
    workers: new Gauge({
      name: N.workers,
      help: 'Probe workers running (one per Cluster with a probe, in this shard).',
      registers,
    }),
    invalidProbes: new Gauge({
      name: N.invalidProbes,
      help: 'Clusters whose probe fails validation and is therefore not run, by where the probe is (field, annotation, legacy).',
      labelNames: ['source'],
      registers,
    }),
    workersStopped: new Counter({
      name: N.workersStopped,
      help: 'Probe workers stopped, by reason (deleted, probe-removed, probe-invalid, not-owned, shutdown).',
      labelNames: ['reason'],
      registers,
    }),
    clusters: new Gauge({
      name: N.clusters,
      help: 'Clusters in the informer cache.',
      registers,
    }),
    leader: new Gauge({
      name: N.leader,
      help: '1 while this replica holds the lease (or runs without leader election), else 0.',
      registers,
    }),
    queueDepth: new Gauge({
      name: N.queueDepth,
      help: 'Clusters waiting to be reconciled.',
      registers,
    }),
    proberDisrupted: new Gauge({
      name: N.proberDisrupted,
      help: '1 while the disruption guard blames the prober itself (every judged Cluster failing, or a sentinel failing) and withholds every failure verdict.',
      registers,
    }),
    domainState: new Gauge({
      name: N.domainState,
      help: 'State of each failure domain (Normal, PartialDisruption, FullDisruption): 1 for the current one.',
      labelNames: ['domain', 'state'],
      registers,
    }),
    verdictsWithheld: new Gauge({
      name: N.verdictsWithheld,
      help: 'Failing Clusters whose verdict (condition False and taint) the disruption guard withholds, by reason.',
      labelNames: ['reason'],
      registers,
    }),
    sentinelUp: new Gauge({
      name: N.sentinelUp,
      help: 'Latest result of each sentinel (--sentinel): 1 answered, 0 failed or not yet probed.',
      labelNames: ['sentinel'],
      registers,
    }),
    perCluster: new ClusterMetrics(registry),
    shardMembers: shardGauge(
      N.shardMembers,
      "Live members of the shard group in this replica's view, itself included (--sharding lease).",
      'members',
    ),
    shardOwned: shardGauge(N.shardOwned, 'Clusters this replica probes and writes now (--sharding lease).', 'owned'),
    shardAssignable: shardGauge(
      N.shardAssignable,
      "Clusters some replica should probe (Push, and Pull with --include-pull-clusters), as this replica's cache sees them (--sharding lease). Owned by nobody: max(this) - sum(shard_owned_clusters).",
      'assignable',
    ),
    shardFenced: shardGauge(
      N.shardFenced,
      "Clusters this replica owns in its view but does not start yet, because another live member's published view still claims them (--sharding lease).",
      'fenced',
    ),
    shardRebalances: new Counter({
      name: N.shardRebalances,
      help: 'Changes of the view (the live members) this replica acts on and publishes (--sharding lease).',
      registers,
    }),
  };
  return metrics;
}

/** Clusters a slice of a scrape holds at most (about 1,000 lines of one family): what one write is given. */
export const EXPOSITION_CLUSTERS_PER_CHUNK = 500;

/**
 * How long a scrape writes before it lets the event loop run: the time other work (probes in flight) may wait for it.
 * A slice boundary is checked; a scrape cheaper than this runs in one go. Yielding after every slice instead (issue
 * 39) cost a loop turn each, 160 turns at 10,000 Clusters, and under load a turn waits behind every callback ready:
 * 7-11 s a scrape at load 10 (bench/scrape, docs/monitoring.md).
 */
export const EXPOSITION_SLICE_MS = 20;

export interface ExpositionOptions {
  /** The scrape stops when this says so (the client went away). */
  stopped?: () => boolean;
  /** Milliseconds, for the slice budget; performance.now() by default. */
  now?: () => number;
  /** Yields to the event loop; setImmediate by default. */
  yieldLoop?: () => Promise<void>;
}

/**
 * The registry's exposition, byte for byte what `registry.metrics()` returns, handed to `write` in pieces: each
 * fleet metric as prom-client writes it, the per-Cluster families a slice of EXPOSITION_CLUSTERS_PER_CHUNK Clusters
 * at a time (each Cluster's lines kept encoded between scrapes, re-encoded only when they changed), and the event
 * loop let run once EXPOSITION_SLICE_MS have gone by since it last ran, so nothing the size of the whole scrape is
 * held and probes wait at most about that long. Clusters are those there when the scrape began, less any removed
 * since. `write` may return a promise (back-pressure); the scrape stops when `stopped()` says so.
 */
export async function writeExposition(
  metrics: ReconcilerMetrics,
  write: (chunk: string) => void | Promise<void>,
  options: ExpositionOptions | (() => boolean) = {},
): Promise<void> {
  const opts: ExpositionOptions = typeof options === 'function' ? { stopped: options } : options;
  const stopped = opts.stopped ?? (() => false);
  const now = opts.now ?? (() => performance.now());
  const yieldLoop = opts.yieldLoop ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
  const registry = metrics.registry;
  const records = metrics.perCluster.snapshot();
  let ranAt = now();
  const put = async (chunk: string): Promise<void> => {
    const pending = write(chunk);
    if (pending !== undefined) {
      await pending;
      ranAt = now(); // waiting for the socket let the loop run
    }
  };
  let first = true;
  for (const m of registry.getMetricsAsArray()) {
    const metric = m as unknown;
    if (stopped()) return;
    if (!first) await put('\n\n');
    first = false;
    if (metric instanceof ClusterFamily) {
      await put(metric.header);
      for (let from = 0; from < records.length; from += EXPOSITION_CLUSTERS_PER_CHUNK) {
        const chunk = metrics.perCluster.writeFamily(
          metric,
          records,
          from,
          Math.min(records.length, from + EXPOSITION_CLUSTERS_PER_CHUNK),
        );
        if (chunk !== '') await put(chunk);
        if (now() - ranAt >= EXPOSITION_SLICE_MS) {
          await yieldLoop();
          ranAt = now();
        }
        if (stopped()) return;
      }
    } else {
      await put(await registry.getSingleMetricAsString(m.name));
    }
  }
  await put('\n');
}
