// Scale run of the reconciler: N Clusters (default 2,000) in a real kube-apiserver, all probing one loopback HTTP server
// (a path per Cluster, in a process of its own: target.ts), the compiled `cluster-probe reconcile` as a child process. Measures steady-state writes per
// minute (must be 0), the reconciler's RSS and CPU, then fails 10% at once and times until all of them are tainted,
// against the bound failureThreshold x period + 1 s (printed as a ratio; a figure, not an assertion). It also times,
// per failing Cluster, its taint from the moment the health server answered the failure that crossed the threshold:
// that part is the reconciler's (queue, rate limit, writes) and the apiserver's, not the probe semantics'.
// With --domains D (default 10) Cluster i is in region r<i mod D>, and the mass failure is one whole domain (r0, a
// D-th of the fleet: 10% by default), as a zone outage would be; --domains 0 gives no region and fails --fail-share
// spread over the fleet. Then the failing domain recovers, and every target fails at once (the server stops: the
// prober partitioned): the disruption guard must taint nothing and mark every Cluster Unknown/ProberDisrupted; the
// bench prints the time, the writes and the CPU, then restarts the server and times the heal (--no-partition skips it).
// --karmada runs the same on a real Karmada v1.18.2 (src/dev/karmada.ts, no members): the Clusters are created through
// karmada-apiserver in karmada-aggregated-apiserver, Pull mode with the probe in the annotation Karmada keeps
// (cluster.karmada.io/liveness-probe), the reconciler with --include-pull-clusters; karmada-controller-manager,
// -scheduler and -webhook run with their defaults. Pull, because Karmada health-checks every Push Cluster itself
// (a client, /readyz and a node and pod summary per member every 10 s): 10,000 Push Clusters need 10,000 answering
// members, and its status controller leaves Pull Clusters to their agent, so the objects, the aggregated apiserver,
// the cluster controller (lease monitor, taints, execution namespaces) and the scheduler are Karmada's and the member
// side is our loopback server. With --karmada the CPU and RSS of every Karmada process are reported beside ours.
// --shard I/S runs the reconciler as shard I of S (--shard-index/--shard-count): it owns a share of the Clusters but
// watches them all; the bench then waits for and fails only the Clusters it owns. --member-status writes into every
// Cluster's status what Karmada's status controller writes for a member (apiEnablements from the discovery of the
// control plane the bench runs, a kube-apiserver 1.35, with node and resource summaries): real Clusters' size.
// --cluster-profiles runs the ClusterProfile producer too (upstream's CRD applied from the chart's file,
// `--cluster-profile-namespace karmada-cluster`): the steady state then counts its writes per Cluster (must be 0) and
// the profiles' watch events, beside the reconciler's.
// --replicas N runs N reconcilers with Lease sharding (--sharding lease, docs/sharding.md), every one active: the bench
// judges the fleet as a whole and adds each replica's share, CPU, RSS, live heap and requests a second to the apiserver.
// Run: npm run build && npx tsx bench/reconciler/index.ts [--clusters 2000] [--period 10] [--steady 60]
//        [--domains 10] [--fail-share 0.1] [--karmada [--karmada-qps 400] [--karmada-settle 1800]] [--shard 0/10 | --replicas 3] [--member-status] [--startup-wait 900]
//        [--cluster-profiles] [--dist DIR]
//        [-- reconcile flags, e.g. --kube-api-qps 100 --write-concurrency 16]
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { PROBE_ANNOTATION } from '../../packages/schema/src/api/constants.js';
import { messageOf } from '../../packages/schema/src/api/index.js';
import { startKarmada } from '../../src/dev/karmada.js';
import { CLUSTER_LABEL } from '../../src/facts/metric-names.js';
import {
  CHART_CRD_FILE,
  DEFAULT_PROFILE_NAMESPACE,
  PROBE_CONDITION,
  PROFILE_API_VERSION,
  type ClusterProfile,
} from '../../src/profile/index.js';
import { Informer, KubeClient } from '../../src/kube/index.js';
import { shardOf } from '../../src/reconciler/shard.js';
import type { Cluster } from '../../packages/schema/src/schema/index.js';
import { startControlPlane } from '../../test/e2e/harness/controlplane.js';
import { startProbeTarget } from './target.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TAINT = 'cluster.karmada.io/unhealthy';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const N = arg('clusters', 2000);
const PERIOD = arg('period', 10);
const FAILURE_THRESHOLD = arg('failure-threshold', 3);
const STEADY_S = arg('steady', 60);
const FAIL_SHARE = arg('fail-share', 0.1);
const DOMAINS = arg('domains', 10);
const PARTITION = !process.argv.includes('--no-partition');
/**
 * How long the bench waits for every Cluster to be Healthy=True (seconds; default 900). A start-up that does not
 * finish is a result too: the steady window is then measured anyway (its writes broken down by Cluster and field, the
 * transitions by message), the mass failure is not (an unsettled fleet has no bound to time), and the exit code is 2.
 */
const STARTUP_WAIT_S = arg('startup-wait', 900);
const KARMADA = process.argv.includes('--karmada');
/** The compiled tree the reconciler runs from (another checkout's, to compare two versions); default ./dist. */
const DIST = process.argv.includes('--dist') ? process.argv[process.argv.indexOf('--dist') + 1]! : join(ROOT, 'dist');
/** Give every Cluster the status a member's agent or Karmada's status controller writes (API enablements, summaries). */
const MEMBER_STATUS = process.argv.includes('--member-status');
/** Run the ClusterProfile producer as well, and count its steady-state writes. */
const PROFILES = process.argv.includes('--cluster-profiles');
const PROFILES_PATH = `/apis/${PROFILE_API_VERSION}/namespaces/${DEFAULT_PROFILE_NAMESPACE}/clusterprofiles`;
/**
 * karmada-controller-manager's client rate limit (its --kube-api-qps, burst twice that); absent, Karmada's default
 * (40, burst 60). At 40 it admits 10,000 new Clusters (execution namespace, finalizer, taints, Ready) in well over
 * ten minutes: 7 min after they were created 6,401 namespaces, 6,214 not-ready taints and 166 finalizers were written.
 */
/**
 * How long after the replicas start the bench waits for Karmada's cluster controller to have written Ready=Unknown and
 * the unreachable taint on every (Pull) Cluster before it measures the steady state anyway (seconds; default 1,800).
 */
const KARMADA_SETTLE_S = process.argv.includes('--karmada-settle')
  ? Number(process.argv[process.argv.indexOf('--karmada-settle') + 1])
  : 1800;
const KARMADA_QPS = process.argv.includes('--karmada-qps')
  ? Number(process.argv[process.argv.indexOf('--karmada-qps') + 1])
  : undefined;
/**
 * Replicas of the reconciler with Lease sharding (`--sharding lease`): every one active, the Clusters spread over
 * them by rendezvous hashing of their member Leases (docs/sharding.md). The bench then judges the fleet as a whole
 * (every Cluster is some replica's) and reports each replica's CPU, RSS, share, and requests to the apiserver.
 */
const REPLICAS = arg('replicas', 1);
if (!Number.isInteger(REPLICAS) || REPLICAS < 1 || REPLICAS > 16)
  throw new Error('--replicas takes a whole number from 1 to 16');
const SHARD = ((): { index: number; count: number } | undefined => {
  const i = process.argv.indexOf('--shard');
  if (i < 0) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(process.argv[i + 1] ?? '');
  if (m === null || Number(m[1]) >= Number(m[2])) throw new Error('--shard takes I/S with I below S, e.g. 0/10');
  if (REPLICAS > 1) throw new Error('--shard and --replicas do not go together: --replicas shards by Leases');
  return { index: Number(m[1]), count: Number(m[2]) };
})();
/** Everything after a bare `--` goes to `cluster-probe reconcile` as is. */
const RECONCILE_ARGS = process.argv.includes('--') ? process.argv.slice(process.argv.indexOf('--') + 1) : [];

const log = (line: string): void => void process.stderr.write(`bench/reconciler: ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function binDir(): string {
  if (process.env.CLUSTER_PROBE_CONTROLPLANE_BIN) return process.env.CLUSTER_PROBE_CONTROLPLANE_BIN;
  log('finding or building the control plane (scripts/build-controlplane.mjs)');
  const out = execFileSync(process.execPath, [join(ROOT, 'scripts/build-controlplane.mjs')], { encoding: 'utf8' });
  return out.trim().split('\n').pop()!;
}

/** utime+stime in seconds and RSS in MiB of a process, from /proc. */
function usage(pid: number): { cpuS: number; rssMiB: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return { cpuS: ticks / 100, rssMiB: Number(rss) / 1024 };
}

/**
 * How long a scrape of a replica's /metrics may take: a replica of 10,000 Clusters writes its exposition in slices
 * between its other work, and at load 11 (30,000 over 3 replicas beside Karmada) that took more than 10 s.
 */
const SCRAPE_TIMEOUT_MS = 60_000;

async function metric(port: number, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (
    await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(SCRAPE_TIMEOUT_MS) })
  ).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (m === null || m[1] !== name) continue;
    if (Object.entries(labels).every(([k, v]) => (m[2] ?? '').includes(`${k}="${v}"`))) sum += Number(m[3]);
  }
  return sum;
}

/** writes_total of the reconciler by kind and outcome, `kind/outcome`. */
async function writesByKind(port: number): Promise<Record<string, number>> {
  const text = await (
    await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(SCRAPE_TIMEOUT_MS) })
  ).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(
    /^cluster_probe_reconciler_writes_total\{kind="([^"]+)",outcome="([^"]+)"\}\s+(\S+)$/gm,
  ))
    out[`${m[1]}/${m[2]}`] = Number(m[3]);
  return out;
}

/**
 * What /metrics costs at this scale: 10 scrapes one after another, their size (bytes, series, per-Cluster series),
 * the reconciler's CPU per scrape above its steady rate, and the wall time of each (median).
 */
async function measureScrapes(port: number, pid: number): Promise<Record<string, number>> {
  const idle0 = usage(pid);
  await sleep(5000);
  const idleRate = (usage(pid).cpuS - idle0.cpuS) / 5;
  const n = 10;
  const times: number[] = [];
  let text = '';
  const u0 = usage(pid);
  const t0 = Date.now();
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(30_000) })).text();
    times.push(performance.now() - s);
  }
  const wallS = (Date.now() - t0) / 1000;
  const u1 = usage(pid);
  const samples = text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  times.sort((a, b) => a - b);
  return {
    bytes: Buffer.byteLength(text),
    gzipBytes: gzipSync(text).length,
    series: samples.length,
    perClusterSeries: samples.filter((l) => l.includes(`${CLUSTER_LABEL}="`)).length,
    cpuMsPerScrape: Math.round(((u1.cpuS - u0.cpuS - idleRate * wallS) / n) * 1000),
    medianScrapeMs: Math.round(times[Math.floor(n / 2)]!),
    rssMiB: Math.round(u1.rssMiB),
  };
}

/** CPU seconds and RSS of each process of the control plane, by its command name (etcd, kube-apiserver, karmada-*). */
function processUsage(pids: number[]): Record<string, { cpuS: number; rssMiB: number }> {
  const out: Record<string, { cpuS: number; rssMiB: number }> = {};
  for (const pid of pids) {
    try {
      const name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      out[name] = usage(pid);
    } catch {
      // exited
    }
  }
  return out;
}

/** Per process: CPU in % of one core between two snapshots, and RSS at the second. */
function processLoad(
  a: Record<string, { cpuS: number; rssMiB: number }>,
  b: Record<string, { cpuS: number; rssMiB: number }>,
  seconds: number,
): Record<string, { cpuPercentOfOneCore: number; rssMiB: number }> {
  const out: Record<string, { cpuPercentOfOneCore: number; rssMiB: number }> = {};
  for (const [name, u] of Object.entries(b))
    out[name] = {
      cpuPercentOfOneCore: Math.round(((u.cpuS - (a[name]?.cpuS ?? u.cpuS)) / seconds) * 1000) / 10,
      rssMiB: Math.round(u.rssMiB),
    };
  return out;
}

/** The cumulative buckets of a histogram (le -> count). */
async function histogram(port: number, name: string): Promise<[number, number][]> {
  const text = await (
    await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(SCRAPE_TIMEOUT_MS) })
  ).text();
  const out: [number, number][] = [];
  for (const m of text.matchAll(new RegExp(`^${name}_bucket\\{le="([^"]+)"\\}\\s+(\\S+)$`, 'gm')))
    out.push([m[1] === '+Inf' ? Infinity : Number(m[1]), Number(m[2])]);
  return out.sort((x, y) => x[0] - y[0]);
}

/** The upper bound of the bucket holding the p-quantile of the observations between two snapshots. */
function bucketQuantile(a: [number, number][], b: [number, number][], p: number): number {
  const before = new Map(a);
  const total = (b.at(-1)?.[1] ?? 0) - (before.get(Infinity) ?? 0);
  if (total <= 0) return 0;
  for (const [le, n] of b) if (n - (before.get(le) ?? 0) >= p * total) return le;
  return Infinity;
}

/** What Karmada's status controller writes for a member, from a real discovery (the control plane this bench runs). */
async function memberStatus(client: KubeClient): Promise<Record<string, unknown>> {
  interface ResourceList {
    groupVersion: string;
    resources: { name: string; kind: string }[];
  }
  const groups = await client.request<{ groups: { preferredVersion: { groupVersion: string } }[] }>('GET', '/apis');
  const lists: ResourceList[] = [await client.request<ResourceList>('GET', '/api/v1')];
  for (const g of groups.groups)
    lists.push(await client.request<ResourceList>('GET', `/apis/${g.preferredVersion.groupVersion}`));
  return {
    kubernetesVersion: 'v1.35.4',
    apiEnablements: lists.map((l) => ({
      groupVersion: l.groupVersion,
      resources: l.resources.filter((r) => !r.name.includes('/')).map((r) => ({ name: r.name, kind: r.kind })),
    })),
    nodeSummary: { totalNum: 50, readyNum: 50 },
    resourceSummary: {
      allocatable: { cpu: '400', memory: '1600Gi', pods: '5500', 'ephemeral-storage': '5000Gi' },
      allocating: { cpu: '0', memory: '0', pods: '0' },
      allocated: { cpu: '210500m', memory: '804Gi', pods: '2710' },
    },
  };
}

/** A reconciler process: its metrics port (from its first log lines) and its live heap (from --trace-gc). */
interface Replica {
  proc: ReturnType<typeof spawn>;
  pid: number;
  port: number;
  liveHeapMiB: number;
}

/** The reconciler's requests to the apiserver (every verb, every outcome). */
const API_REQUESTS = 'cluster_probe_reconciler_api_requests_total';

interface Backend {
  kubeconfigPath: string;
  /** The control plane's processes (etcd, kube-apiserver, and with Karmada its components). */
  pids(): number[];
  /** The Cluster object for member i, its probe where this control plane keeps it. */
  cluster(i: number, probe: Record<string, unknown>): Record<string, unknown>;
  /** Flags the reconciler needs here. */
  reconcileArgs: string[];
  stop(): Promise<void>;
}

async function standIn(): Promise<Backend> {
  log('starting the stand-in control plane (kube-apiserver + etcd, the CRD)');
  const cp = await startControlPlane({ log: (l) => log(l) });
  try {
    await cp.applyCrd(join(ROOT, 'manifests/crd/cluster.karmada.io_clusters.yaml'));
  } catch (err) {
    await cp.stop();
    throw err;
  }
  return {
    kubeconfigPath: cp.kubeconfigPath,
    pids: () => cp.pids(),
    cluster: (i, probe) => ({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: `member-${i}` },
      spec: {
        syncMode: 'Push',
        ...(DOMAINS > 0 ? { region: `r${i % DOMAINS}` } : {}),
        apiEndpoint: 'https://127.0.0.1:6443',
        livenessProbe: probe,
      },
    }),
    reconcileArgs: [],
    stop: () => cp.stop(),
  };
}

/** Karmada's binaries, as the e2e suite has them: `$CLUSTER_PROBE_KARMADA_BIN`, else found or built (once, cached). */
function karmadaBinDir(): string {
  if (process.env.CLUSTER_PROBE_KARMADA_BIN) return process.env.CLUSTER_PROBE_KARMADA_BIN;
  log('finding or building Karmada v1.18.2 (scripts/build-karmada.mjs)');
  const out = execFileSync(process.execPath, [join(ROOT, 'scripts/build-karmada.mjs')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return out.trim().split('\n').at(-1)!;
}

async function karmada(): Promise<Backend> {
  process.env.CLUSTER_PROBE_KARMADA_BIN = karmadaBinDir();
  log(
    'starting Karmada v1.18.2 (karmada-apiserver, etcd, aggregated apiserver, controller manager, scheduler, webhook)',
  );
  const k = await startKarmada({
    members: 0,
    log: (l) => log(l),
    startTimeoutMs: 300_000,
    ...(KARMADA_QPS !== undefined
      ? { extraControllerManagerArgs: [`--kube-api-qps=${KARMADA_QPS}`, `--kube-api-burst=${2 * KARMADA_QPS}`] }
      : {}),
  });
  return {
    kubeconfigPath: k.host.kubeconfigPath,
    pids: () => k.host.pids(),
    cluster: (i, probe) => ({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: `member-${i}`, annotations: { [PROBE_ANNOTATION]: JSON.stringify(probe) } },
      spec: {
        syncMode: 'Pull',
        ...(DOMAINS > 0 ? { region: `r${i % DOMAINS}` } : {}),
        apiEndpoint: 'https://127.0.0.1:6443',
      },
    }),
    reconcileArgs: ['--include-pull-clusters'],
    stop: () => k.stop(),
  };
}

async function waitUntil(what: string, timeoutMs: number, check: () => boolean | Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await sleep(100);
  }
  return Date.now() - start;
}

/** What one Cluster's object looked like to the bench's watch: its conditions and taints, as short strings. */
function fieldsOf(c: Cluster): { conditions: Map<string, string>; taints: string[]; rv: string } {
  const conditions = new Map<string, string>();
  for (const k of c.status?.conditions ?? []) conditions.set(k.type, `${k.status}/${k.reason ?? ''}`);
  const taints = (c.spec.taints ?? []).map((t) => `${t.key}:${t.effect}`);
  return { conditions, taints, rv: c.metadata?.resourceVersion ?? '' };
}

/**
 * The steady window Cluster by Cluster (issue 50, item 2): each change the bench's watch saw (which condition moved,
 * which taint came or went) and each write a replica logged (`taints written`, `Healthy condition written`, `probe
 * transition`), so that a write of ours on a settled fleet is named with its Cluster, its field and what changed the
 * object before it; the Clusters written most get their managedFields read (who wrote last, with which operation).
 */
class SteadyLog {
  private readonly byCluster = new Map<string, string[]>();
  readonly changes = new Map<string, number>();
  readonly logs = new Map<string, number>();
  /** Transitions by their direction and the shape of the result's message (numbers as N): why verdicts changed. */
  readonly transitions = new Map<string, number>();

  private note(cluster: string, what: string): void {
    let list = this.byCluster.get(cluster);
    if (list === undefined) this.byCluster.set(cluster, (list = []));
    if (list.length < 20) list.push(what);
  }

  watched(before: Cluster, after: Cluster): void {
    const name = after.metadata?.name ?? '';
    const a = fieldsOf(before);
    const b = fieldsOf(after);
    const seen: string[] = [];
    for (const type of new Set([...a.conditions.keys(), ...b.conditions.keys()]))
      if (a.conditions.get(type) !== b.conditions.get(type))
        seen.push(`condition ${type} ${a.conditions.get(type) ?? '-'} -> ${b.conditions.get(type) ?? '-'}`);
    for (const t of b.taints) if (!a.taints.includes(t)) seen.push(`taint +${t}`);
    for (const t of a.taints) if (!b.taints.includes(t)) seen.push(`taint -${t}`);
    if (seen.length === 0) seen.push('other fields (neither a condition nor a taint)');
    for (const what of seen) {
      const kind = what.replace(/ \S+ -> \S+$/, '');
      this.changes.set(kind, (this.changes.get(kind) ?? 0) + 1);
      this.note(name, `watch rv ${b.rv}: ${what}`);
    }
  }

  logged(
    cluster: string,
    replica: number,
    rec: { msg?: string; to?: string; tainted?: boolean; condition?: string; reason?: string; message?: string },
  ): void {
    if (rec.msg === 'probe transition') {
      const shape = `to ${rec.to ?? ''}: ${(rec.message ?? '').replace(/\d+(\.\d+)?/g, 'N').slice(0, 160)}`;
      this.transitions.set(shape, (this.transitions.get(shape) ?? 0) + 1);
    }
    const what =
      rec.msg === 'taints written'
        ? `taints written (ours ${rec.tainted === true ? 'added' : 'removed'})`
        : rec.msg === 'Healthy condition written'
          ? `Healthy condition written (${rec.condition ?? ''}/${rec.reason ?? ''})`
          : rec.msg === 'probe transition'
            ? `probe transition to ${rec.to ?? ''}`
            : (rec.msg ?? '');
    this.logs.set(what, (this.logs.get(what) ?? 0) + 1);
    this.note(cluster, `replica ${replica}: ${what}`);
  }

  /** The Clusters with a write of ours logged, most written first. */
  written(): { cluster: string; events: string[] }[] {
    return [...this.byCluster]
      .filter(([, events]) => events.some((e) => / written /.test(e)))
      .map(([cluster, events]) => ({ cluster, events }))
      .sort((x, y) => y.events.length - x.events.length);
  }
}

/** Who wrote a Cluster, from its managedFields: manager, operation, subresource, time. */
function managersOf(c: Cluster): string[] {
  const entries = (c.metadata as { managedFields?: Record<string, unknown>[] } | undefined)?.managedFields ?? [];
  return entries.map(
    (e) =>
      `${String(e.manager)} ${String(e.operation)}${e.subresource !== undefined ? ` /${String(e.subresource)}` : ''} at ${String(e.time)}`,
  );
}

async function main(): Promise<void> {
  process.env.CLUSTER_PROBE_CONTROLPLANE_BIN = binDir();
  const failing = new Set<number>();
  // The members' side, in a process of its own (target.ts): it counts the probes and remembers, per failing Cluster,
  // when the failure that crossed the threshold was answered.
  const target = await startProbeTarget(FAILURE_THRESHOLD);
  const port = target.port;

  const cp = KARMADA ? await karmada() : await standIn();
  /** The Clusters this reconciler judges: all, or its shard's. */
  const owns = (i: number): boolean => SHARD === undefined || shardOf(`member-${i}`, SHARD.count) === SHARD.index;
  const ownedCount = Array.from({ length: N }, (_, i) => i).filter(owns).length;
  const ownsName = (name: string): boolean => owns(Number(name.slice('member-'.length)));
  const replicas: Replica[] = [];
  let watcher: Informer<Cluster> | undefined;
  let api: KubeClient | undefined;
  const results: Record<string, unknown> = {
    clusters: N,
    periodSeconds: PERIOD,
    failureThreshold: FAILURE_THRESHOLD,
    reconcileArgs: RECONCILE_ARGS,
    domains: DOMAINS,
    controlPlane: KARMADA
      ? 'karmada v1.18.2 (aggregated apiserver, Pull Clusters, probe in the annotation)'
      : 'stand-in',
    ...(KARMADA ? { karmadaControllerManagerQps: KARMADA_QPS ?? 'default (40)' } : {}),
    ...(SHARD !== undefined ? { shard: `${SHARD.index}/${SHARD.count}`, ownedClusters: ownedCount } : {}),
  };
  try {
    const kc = new KubeConfig();
    kc.loadFromFile(cp.kubeconfigPath);
    api = new KubeClient(kc, { qps: 0 });
    const client = api;
    log(`creating ${N} Clusters`);
    const t0 = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = next++; i < N; i = next++)
          await client.request('POST', '/apis/cluster.karmada.io/v1alpha1/clusters', {
            body: cp.cluster(i, {
              httpGet: { host: '127.0.0.1', port, path: `/c/${i}` },
              periodSeconds: PERIOD,
              failureThreshold: FAILURE_THRESHOLD,
            }),
          });
      }),
    );
    log(`created in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    if (MEMBER_STATUS) {
      const status = await memberStatus(client);
      results.memberStatusBytes = JSON.stringify(status).length;
      log(`writing a member's status (${results.memberStatusBytes} bytes) into every Cluster`);
      const t1 = Date.now();
      let n = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let i = n++; i < N; i = n++)
            await client.request('PATCH', `/apis/cluster.karmada.io/v1alpha1/clusters/member-${i}/status`, {
              body: { status },
              contentType: 'application/merge-patch+json',
            });
        }),
      );
      log(`written in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    }

    // Our own watch: every change of every Cluster, independent of the reconciler's metrics.
    let modified = 0;
    /** Set for the steady window: what each Cluster's changes and our replicas' writes were, Cluster by Cluster. */
    let steadyLog: SteadyLog | undefined;
    watcher = new Informer<Cluster>({
      api,
      path: '/apis/cluster.karmada.io/v1alpha1/clusters',
      resource: 'clusters',
      // What the bench reads (a name, the taints, the conditions): at 100,000 Clusters with a member's status the
      // whole objects would be gigabytes in this process.
      transform: (c) => ({
        apiVersion: c.apiVersion,
        kind: c.kind,
        metadata: { name: c.metadata?.name, resourceVersion: c.metadata?.resourceVersion },
        spec: { syncMode: c.spec.syncMode, ...(c.spec.taints !== undefined ? { taints: c.spec.taints } : {}) },
        ...(c.status?.conditions !== undefined ? { status: { conditions: c.status.conditions } } : {}),
      }),
    });
    watcher.addHandlers({
      onUpdate: (before, after) => {
        modified++;
        if (steadyLog !== undefined) steadyLog.watched(before, after);
      },
    });
    watcher.start();
    await watcher.waitForSync(60_000);
    const cache = watcher;
    const count = (pred: (c: Cluster) => boolean): number =>
      cache.list().filter((c) => ownsName(c.metadata?.name ?? '') && pred(c)).length;
    const healthy = (c: Cluster): boolean =>
      c.status?.conditions?.some((x) => x.type === 'Healthy' && x.status === 'True') === true;
    const tainted = (c: Cluster): boolean => (c.spec.taints ?? []).some((t) => t.key === TAINT);
    /** The owned Clusters not Healthy=True, by status/reason and their commonest messages: what a start-up waits on. */
    const notHealthy = (): string => {
      const by = new Map<string, { n: number; messages: Map<string, number> }>();
      for (const c of cache.list()) {
        if (!ownsName(c.metadata?.name ?? '') || healthy(c)) continue;
        const h = c.status?.conditions?.find((x) => x.type === 'Healthy');
        const key = h === undefined ? 'no Healthy condition' : `${h.status}/${h.reason ?? ''}`;
        let e = by.get(key);
        if (e === undefined) by.set(key, (e = { n: 0, messages: new Map() }));
        e.n++;
        // Numbers (ports, durations) vary per Cluster: the message's shape is what is counted.
        const shape = (h?.message ?? '').replace(/\d+(\.\d+)?/g, 'N').slice(0, 160);
        e.messages.set(shape, (e.messages.get(shape) ?? 0) + 1);
      }
      return [...by]
        .sort((a, b) => b[1].n - a[1].n)
        .map(([key, e]) => {
          const top = [...e.messages].sort((a, b) => b[1] - a[1]).slice(0, 2);
          return `${key} ${e.n}${top.length > 0 && top[0]![0] !== '' ? ` (${top.map(([m, n]) => `${n}: ${m}`).join('; ')})` : ''}`;
        })
        .join(', ');
    };

    let profileEvents = 0;
    let profileWatcher: Informer<ClusterProfile> | undefined;
    if (PROFILES) {
      log(`applying the ClusterProfile CRD (${CHART_CRD_FILE}) and namespace ${DEFAULT_PROFILE_NAMESPACE}`);
      const kubectl = (args: string[]): void => {
        execFileSync('kubectl', ['--kubeconfig', cp.kubeconfigPath, ...args], {
          stdio: ['ignore', 'ignore', 'inherit'],
        });
      };
      kubectl(['apply', '--server-side', '-f', join(ROOT, CHART_CRD_FILE)]);
      kubectl(['wait', '--for=condition=Established', '--timeout=60s', 'crd/clusterprofiles.multicluster.x-k8s.io']);
      try {
        kubectl(['create', 'namespace', DEFAULT_PROFILE_NAMESPACE]);
      } catch {
        // Karmada's playground has it already.
      }
      profileWatcher = new Informer<ClusterProfile>({ api, path: PROFILES_PATH, resource: 'clusterprofiles' });
      profileWatcher.addHandlers({ onUpdate: () => void profileEvents++, onAdd: () => void profileEvents++ });
      profileWatcher.start();
    }

    log(`starting ${REPLICAS > 1 ? `${REPLICAS} replicas of ` : ''}the reconciler (compiled, ${DIST})`);
    const script = `import { Command } from 'commander'; import { register } from '${join(DIST, 'src/cli/reconcile.js')}';
      const p = new Command('cluster-probe'); register(p); await p.parseAsync(process.argv.slice(1), { from: 'user' });`;
    // The reconciler's own log lines (its clock, the same machine's): when each Cluster's transition to failure was
    // seen and when its taint write returned, to split the time after the threshold into its parts.
    const transitionAt = new Map<string, number>();
    const taintWrittenAt = new Map<string, number>();
    const startReplica = (index: number): Replica => {
      const proc = spawn(
        process.execPath,
        [
          // V8 prints every collection; a mark-compact's "-> N MB" is the live heap, what RSS holds beyond garbage.
          '--trace-gc',
          '--input-type=module',
          '-e',
          script,
          '--',
          'reconcile',
          '--kubeconfig',
          cp.kubeconfigPath,
          '--metrics-port',
          '0',
          ...cp.reconcileArgs,
          ...(SHARD !== undefined ? ['--shard-index', String(SHARD.index), '--shard-count', String(SHARD.count)] : []),
          ...(REPLICAS > 1
            ? ['--sharding', 'lease', '--lease-namespace', 'default', '--identity', `bench-replica-${index}`]
            : []),
          ...(PROFILES ? ['--cluster-profile-namespace', DEFAULT_PROFILE_NAMESPACE] : []),
          ...RECONCILE_ARGS,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'], cwd: ROOT },
      );
      const r: Replica = { proc, pid: proc.pid!, port: 0, liveHeapMiB: 0 };
      let head = '';
      const lines = createInterface({ input: proc.stdout!.setEncoding('utf8') });
      lines.on('line', (line) => {
        const gc = /Mark-Compact(?: \(reduce\))? [\d.]+ \([\d.]+\) -> ([\d.]+) \(([\d.]+)\) MB/.exec(line);
        if (gc !== null) {
          r.liveHeapMiB = Number(gc[1]);
          return;
        }
        if (line.includes(': Scavenge ') || line.includes(': Mark-Compact ') || line.includes(': Mark-Sweep')) return;
        if (r.port === 0) {
          head += line;
          const m = /"address":"http:\/\/127\.0\.0\.1:(\d+)"/.exec(head);
          if (m) r.port = Number(m[1]);
        }
        if (!line.includes('"cluster":')) return;
        const rec = JSON.parse(line) as {
          time?: string;
          cluster?: string;
          to?: string;
          tainted?: boolean;
          condition?: string;
          reason?: string;
          msg?: string;
          message?: string;
        };
        const at = Date.parse(rec.time ?? '');
        if (rec.cluster === undefined || Number.isNaN(at)) return;
        if (steadyLog !== undefined) steadyLog.logged(rec.cluster, index, rec);
        if (rec.msg === 'probe transition' && rec.to === 'failure') transitionAt.set(rec.cluster, at);
        if (rec.msg === 'taints written' && rec.tainted === true) taintWrittenAt.set(rec.cluster, at);
      });
      return r;
    };
    for (let i = 0; i < REPLICAS; i++) replicas.push(startReplica(i));
    const pids = replicas.map((r) => r.pid);
    const ports = (): number[] => replicas.map((r) => r.port);
    /** The replicas' CPU summed, their RSS summed. */
    const usageAll = (): { cpuS: number; rssMiB: number } =>
      pids.map(usage).reduce((a, b) => ({ cpuS: a.cpuS + b.cpuS, rssMiB: a.rssMiB + b.rssMiB }));
    const metricAll = async (name: string, labels: Record<string, string> = {}): Promise<number> =>
      (await Promise.all(ports().map((p) => metric(p, name, labels)))).reduce((a, b) => a + b, 0);
    const writesAll = async (): Promise<Record<string, number>> => {
      const out: Record<string, number> = {};
      for (const w of await Promise.all(ports().map(writesByKind)))
        for (const [k, v] of Object.entries(w)) out[k] = (out[k] ?? 0) + v;
      return out;
    };
    const histogramAll = async (name: string): Promise<[number, number][]> => {
      const sum = new Map<number, number>();
      for (const h of await Promise.all(ports().map((p) => histogram(p, name))))
        for (const [le, n] of h) sum.set(le, (sum.get(le) ?? 0) + n);
      return [...sum.entries()].sort((x, y) => x[0] - y[0]);
    };
    const started = Date.now();
    await waitUntil('the metrics ports', 30_000, () => ports().every((p) => p !== 0));
    // Progress every 30 s (a start-up that does not finish says how far it got, and at what cost).
    let lastLog = Date.now();
    let lastUsage = usageAll();
    let startupUnfinished = false;
    const all = await waitUntil(`all ${ownedCount} Healthy=True`, STARTUP_WAIT_S * 1000 + 60_000, () => {
      const n = count(healthy);
      if (Date.now() - started > STARTUP_WAIT_S * 1000) {
        startupUnfinished = true;
        results.startupUnfinished = {
          healthy: n,
          of: ownedCount,
          afterS: (Date.now() - started) / 1000,
          notHealthy: notHealthy(),
        };
        log(
          `start-up not finished after ${STARTUP_WAIT_S} s (${n} of ${ownedCount} Healthy=True): measuring the steady ` +
            `state anyway, not the mass failure`,
        );
        return true;
      }
      if (Date.now() - lastLog >= 30_000) {
        const u = usageAll();
        const cpu = (100 * (u.cpuS - lastUsage.cpuS)) / ((Date.now() - lastLog) / 1000);
        log(
          `start-up: ${n} of ${ownedCount} Healthy=True after ${((Date.now() - started) / 1000).toFixed(0)} s; ` +
            `reconciler${REPLICAS > 1 ? 's' : ''} ${cpu.toFixed(0)}% of a core, RSS ${u.rssMiB} MiB; load ${loadavg()
              .map((l) => l.toFixed(1))
              .join(' ')}`,
        );
        if (n < ownedCount) log(`start-up: not Healthy=True: ${notHealthy()}`);
        lastLog = Date.now();
        lastUsage = u;
      }
      return n === ownedCount;
    });
    if (!startupUnfinished) {
      results.startToAllHealthyS = (Date.now() - started) / 1000;
      log(`all ${ownedCount} Healthy=True ${(all / 1000).toFixed(1)} s after start`);
    }
    if (KARMADA) {
      // Karmada's cluster controller writes every new Cluster four times: a not-ready taint, its finalizer, then, a
      // grace period on with no agent's status, Ready=Unknown (ClusterStatusNeverUpdated) and the unreachable taint.
      // Steady state begins once it has.
      const settled = (c: Cluster): boolean =>
        c.status?.conditions?.some((x) => x.type === 'Ready') === true &&
        (c.spec.taints ?? []).some((t) => t.key === 'cluster.karmada.io/unreachable');
      // At 30,000 Karmada's cluster controller takes many minutes (its monitor pass writes one Cluster at a time): say
      // how far it got every 30 s, so a run that times out still tells how fast Karmada was going.
      let lastSettledLog = Date.now();
      let n = 0;
      await waitUntil("Karmada's own writes on every Cluster", KARMADA_SETTLE_S * 1000, () => {
        n = count(settled);
        if (Date.now() - started > KARMADA_SETTLE_S * 1000) return true;
        if (Date.now() - lastSettledLog >= 30_000) {
          log(
            `Karmada's writes: ${n} of ${ownedCount} Clusters with Ready and the unreachable taint after ` +
              `${((Date.now() - started) / 1000).toFixed(0)} s; load ${loadavg()
                .map((l) => l.toFixed(1))
                .join(' ')}`,
          );
          lastSettledLog = Date.now();
        }
        return n === ownedCount;
      });
      if (n < ownedCount) {
        // Karmada's cluster controller writes its Clusters one at a time in each monitor pass: at 30,000 it takes longer
        // than a bench can wait. The steady state is then measured while it still writes (its writes are watch events
        // every replica handles, and must cost no write of ours).
        results.karmadaUnsettled = { settled: n, of: ownedCount, afterS: (Date.now() - started) / 1000 };
        log(
          `Karmada's own writes still under way after ${KARMADA_SETTLE_S} s (${n} of ${ownedCount} Clusters): measuring the steady state while it writes`,
        );
      } else {
        results.karmadaSettledS = (Date.now() - started) / 1000;
        log(`Karmada's Ready=Unknown and unreachable taint on every Cluster ${results.karmadaSettledS} s after start`);
      }
    }
    if (profileWatcher !== undefined) {
      const pw = profileWatcher;
      const done = (): boolean =>
        pw
          .list()
          .filter(
            (p) =>
              ownsName(p.metadata?.name ?? '') &&
              p.status?.conditions?.some((c) => c.type === PROBE_CONDITION && c.status === 'True') === true,
          ).length === ownedCount;
      await waitUntil(`a ClusterProfile for each of ${ownedCount} Clusters`, 15 * 60_000, done);
      results.allProfilesS = (Date.now() - started) / 1000;
      log(`a ClusterProfile for every Cluster ${results.allProfilesS} s after start`);
    }
    await sleep(PERIOD * 1000 + 2000);

    log(`steady state: measuring for ${STEADY_S} s`);
    const pw0 = await writesAll();
    const pe0 = profileEvents;
    const m0 = modified;
    const u0 = usageAll();
    const each0 = pids.map(usage);
    const req0 = await Promise.all(ports().map((p) => metric(p, API_REQUESTS)));
    const p0 = (await target.stats()).probes;
    const cp0 = processUsage(cp.pids());
    const late0 = await histogramAll('cluster_probe_reconciler_probe_start_lateness_seconds');
    let rssMax = u0.rssMiB;
    const steady = new SteadyLog();
    steadyLog = steady;
    const steadyStart = Date.now();
    while (Date.now() - steadyStart < STEADY_S * 1000) {
      await sleep(1000);
      rssMax = Math.max(rssMax, usageAll().rssMiB);
    }
    const elapsedS = (Date.now() - steadyStart) / 1000;
    const u1 = usageAll();
    const each1 = pids.map(usage);
    const req1 = await Promise.all(ports().map((p) => metric(p, API_REQUESTS)));
    const owned1 = await Promise.all(ports().map((p) => metric(p, 'cluster_probe_reconciler_shard_owned_clusters')));
    const pw1 = await writesAll();
    steadyLog = undefined;
    /** Writes of Clusters, Events and profiles (must be 0), and of Leases (leader election, the shard members). */
    const sumWrites = (w: Record<string, number>, lease: boolean): number =>
      Object.entries(w)
        .filter(([k]) => k.startsWith('lease/') === lease)
        .reduce((n, [, v]) => n + v, 0);
    const cp1 = processUsage(cp.pids());
    const late1 = await histogramAll('cluster_probe_reconciler_probe_start_lateness_seconds');
    results.steady = {
      seconds: elapsedS,
      writesPerMinute: ((sumWrites(pw1, false) - sumWrites(pw0, false)) / elapsedS) * 60,
      leaseWritesPerMinute: ((sumWrites(pw1, true) - sumWrites(pw0, true)) / elapsedS) * 60,
      clusterWatchEventsPerMinute: ((modified - m0) / elapsedS) * 60,
      // The writes by kind and outcome (a 409 is a request that wrote nothing), the changes the watch saw by field,
      // what the replicas logged, and the Clusters written most with their story and their managedFields.
      writes: Object.fromEntries(
        Object.keys(pw1)
          .filter((k) => !k.startsWith('lease/') && (pw1[k] ?? 0) !== (pw0[k] ?? 0))
          .map((k) => [k, (pw1[k] ?? 0) - (pw0[k] ?? 0)]),
      ),
      watchChanges: Object.fromEntries([...steady.changes].sort((x, y) => y[1] - x[1]).slice(0, 12)),
      logged: Object.fromEntries(steady.logs),
      transitionsByMessage: Object.fromEntries([...steady.transitions].sort((x, y) => y[1] - x[1]).slice(0, 12)),
      clustersWritten: steady.written().length,
      mostWritten: await Promise.all(
        steady
          .written()
          .slice(0, 3)
          .map(async ({ cluster, events }) => ({
            cluster,
            events,
            managedFields: managersOf(
              await api!
                .request<Cluster>('GET', `/apis/cluster.karmada.io/v1alpha1/clusters/${encodeURIComponent(cluster)}`)
                .catch(() => ({ spec: {} }) as Cluster),
            ),
          })),
      ),
      probesPerSecond: ((await target.stats()).probes - p0) / elapsedS,
      cpuPercentOfOneCore: ((u1.cpuS - u0.cpuS) / elapsedS) * 100,
      rssMiB: Math.round(u1.rssMiB),
      rssMaxMiB: Math.round(rssMax),
      liveHeapAfterLastMarkCompactMiB: replicas.reduce((n, r) => n + r.liveHeapMiB, 0),
      // Upper bounds of the histogram buckets holding the quantile (le 0.001, 0.01, 0.05, 0.1, 0.5, 1, 5).
      probeStartLatenessP50S: bucketQuantile(late0, late1, 0.5),
      probeStartLatenessP99S: bucketQuantile(late0, late1, 0.99),
      controlPlane: processLoad(cp0, cp1, elapsedS),
      ...(REPLICAS > 1
        ? {
            replicas: replicas.map((r, i) => ({
              ownedClusters: owned1[i],
              cpuPercentOfOneCore: Math.round(((each1[i]!.cpuS - each0[i]!.cpuS) / elapsedS) * 1000) / 10,
              rssMiB: Math.round(each1[i]!.rssMiB),
              liveHeapAfterLastMarkCompactMiB: r.liveHeapMiB,
              apiRequestsPerSecond: Math.round(((req1[i]! - req0[i]!) / elapsedS) * 100) / 100,
            })),
          }
        : { apiRequestsPerSecond: Math.round(((req1[0]! - req0[0]!) / elapsedS) * 100) / 100 }),
    };
    if (PROFILES) {
      const profileWrites = Object.entries(pw1)
        .filter(([k]) => k.startsWith('profile'))
        .reduce((n, [k, v]) => n + v - (pw0[k] ?? 0), 0);
      Object.assign(results.steady as object, {
        profileWrites,
        profileWritesPerCluster: profileWrites / ownedCount,
        profileWatchEvents: profileEvents - pe0,
      });
      await profileWatcher?.stop();
    }
    log(`steady: ${JSON.stringify(results.steady)}`);
    // One replica's /metrics (with replicas, its share of the per-Cluster series).
    // A scrape that does not finish is a figure too (at 30,000 on Karmada, load 11, one took more than 30 s): noted,
    // and the mass failure is still measured.
    results.scrape = await measureScrapes(replicas[0]!.port, replicas[0]!.pid).catch((err: unknown) => ({
      failed: messageOf(err),
    }));
    log(`scrape: ${JSON.stringify(results.scrape)}`);
    if (startupUnfinished) {
      process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
      process.exitCode = 2;
      return;
    }

    const k = DOMAINS > 0 ? Math.ceil(N / DOMAINS) : Math.round(N * FAIL_SHARE);
    // One whole domain (r0: i mod D = 0) with domains, else spread over the fleet.
    const stride = DOMAINS > 0 ? DOMAINS : Math.max(1, Math.floor(N / k));
    const writesBefore = await writesAll();
    const reqF0 = await metricAll(API_REQUESTS);
    const taintedAt: number[] = [];
    /** Per failing Cluster, when our watch saw its taint. */
    const taintSeenAt = new Map<number, number>();
    const seen = new Set<string>();
    let failedAt = 0;
    watcher.addHandlers({
      onUpdate: (_o, c) => {
        const name = c.metadata?.name ?? '';
        if (failedAt === 0 || !tainted(c) || seen.has(name)) return;
        seen.add(name);
        const now = Date.now();
        taintedAt.push(now - failedAt);
        taintSeenAt.set(Number(name.slice('member-'.length)), now);
      },
    });
    failedAt = Date.now();
    for (let i = 0; i < k; i++) if (owns(i * stride)) failing.add(i * stride);
    const kOwned = failing.size;
    await target.setFailing(failing);
    log(`${kOwned} Clusters fail at once`);
    const u2 = usageAll();
    const cp2 = processUsage(cp.pids());
    await waitUntil(`all ${kOwned} tainted`, 5 * 60_000, () => seen.size >= kOwned);
    const allMs = Date.now() - failedAt;
    const u3 = usageAll();
    const cp3 = processUsage(cp.pids());
    // The conditions and Events that follow the taints.
    await sleep(3000);
    const writesAfter = await writesAll();
    const reqF1 = await metricAll(API_REQUESTS);
    const { thresholdAt } = await target.stats();
    /** Per failing Cluster: from the threshold-crossing failure answered to the taint seen by our watch. */
    const afterThreshold: number[] = [];
    for (const [i, seenAt] of taintSeenAt) {
      const at = thresholdAt.get(i);
      if (at !== undefined) afterThreshold.push(seenAt - at);
    }
    taintedAt.sort((a, b) => a - b);
    afterThreshold.sort((a, b) => a - b);
    const boundS = FAILURE_THRESHOLD * PERIOD + 1;
    const q = (xs: number[], p: number): number => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))]! / 1000;
    // Per failing Cluster, from the reconciler's log: threshold answered -> transition, transition -> taint written.
    const toTransition: number[] = [];
    const toWritten: number[] = [];
    for (const [i, at] of thresholdAt) {
      const name = `member-${i}`;
      const t = transitionAt.get(name);
      const w = taintWrittenAt.get(name);
      if (t !== undefined) toTransition.push(t - at);
      if (t !== undefined && w !== undefined) toWritten.push(w - t);
    }
    toTransition.sort((a, b) => a - b);
    toWritten.sort((a, b) => a - b);
    const writes: Record<string, number> = {};
    for (const [kind, n] of Object.entries(writesAfter)) writes[kind] = n - (writesBefore[kind] ?? 0);
    results.failover = {
      failing: kOwned,
      boundS,
      allTaintedS: allMs / 1000,
      allTaintedOverBound: Math.round((allMs / 1000 / boundS) * 1000) / 1000,
      firstTaintedS: taintedAt[0]! / 1000,
      medianTaintedS: q(taintedAt, 0.5),
      // The reconciler's and apiserver's part: threshold-crossing failure answered -> taint seen in a watch.
      taintAfterThresholdS: {
        median: q(afterThreshold, 0.5),
        p90: q(afterThreshold, 0.9),
        p99: q(afterThreshold, 0.99),
        max: q(afterThreshold, 1),
      },
      // ... of which, from the reconciler's log lines (millisecond clock of the same machine):
      thresholdToTransitionS: { median: q(toTransition, 0.5), p90: q(toTransition, 0.9), max: q(toTransition, 1) },
      transitionToTaintWrittenS: { median: q(toWritten, 0.5), p90: q(toWritten, 0.9), max: q(toWritten, 1) },
      wronglyTainted: count(tainted) - kOwned,
      cpuSeconds: Math.round((u3.cpuS - u2.cpuS) * 10) / 10,
      // To the apiserver, all replicas, from the failure until 3 s after the last taint (the conditions and Events).
      apiRequestsPerSecond: Math.round(((reqF1 - reqF0) / (allMs / 1000 + 3)) * 10) / 10,
      controlPlane: processLoad(cp2, cp3, allMs / 1000),
      writes,
      conflicts: await metricAll('cluster_probe_reconciler_writes_total', { outcome: 'conflict' }),
    };
    log(`failover: ${JSON.stringify(results.failover)}`);
    log(
      `all ${kOwned} tainted after ${(allMs / 1000).toFixed(1)} s = ${(allMs / 1000 / boundS).toFixed(3)} of the bound ` +
        `${FAILURE_THRESHOLD} x ${PERIOD} s + 1 s = ${boundS} s (${allMs / 1000 <= boundS ? 'within' : 'OVER'} it)`,
    );

    if (PARTITION) {
      log('the failing domain recovers');
      failing.clear();
      await target.setFailing(failing);
      const recovered = await waitUntil('every Cluster untainted and Healthy=True', 5 * 60_000, () => {
        return count(tainted) === 0 && count(healthy) === ownedCount;
      });
      log(`recovered in ${(recovered / 1000).toFixed(1)} s`);
      await sleep(2000);
      // The prober partitioned: every target stops answering at once (connections refused).
      const writesBeforeCut = await writesAll();
      let taintsSeen = 0;
      watcher.addHandlers({ onUpdate: (_o, c) => void (tainted(c) && taintsSeen++) });
      const withheld = (c: Cluster): boolean =>
        c.status?.conditions?.some((x) => x.type === 'Healthy' && x.reason === 'ProberDisrupted') === true;
      const u4 = usageAll();
      const cutAt = Date.now();
      await target.close();
      log(`every target stops answering (the server is closed): ${ownedCount} Clusters failing at once`);
      await waitUntil('the first Cluster withheld', 5 * 60_000, () => count(withheld) > 0);
      const firstWithheld = Date.now() - cutAt;
      await waitUntil(`all ${ownedCount} Unknown/ProberDisrupted`, 15 * 60_000, () => count(withheld) === ownedCount);
      const allWithheld = Date.now() - cutAt;
      const u5 = usageAll();
      await sleep(3000);
      const writesAfterCut = await writesAll();
      const cutWrites: Record<string, number> = {};
      for (const [kind, n] of Object.entries(writesAfterCut)) cutWrites[kind] = n - (writesBeforeCut[kind] ?? 0);
      const holdFor = 3 * PERIOD * 1000;
      await sleep(holdFor);
      const stillWithheld = count(withheld);
      const taintedDuring = count(tainted);
      log('the targets answer again');
      await target.listen();
      const healed = await waitUntil(
        `all ${ownedCount} Healthy=True again`,
        15 * 60_000,
        () => count(healthy) === ownedCount,
      );
      const u6 = usageAll();
      results.partition = {
        failing: ownedCount,
        firstWithheldS: firstWithheld / 1000,
        allWithheldS: allWithheld / 1000,
        cpuSecondsUntilAllWithheld: Math.round((u5.cpuS - u4.cpuS) * 10) / 10,
        writesUntilAllWithheld: cutWrites,
        withheldAfterHolding: { seconds: holdFor / 1000, clusters: stillWithheld },
        taintsSeenDuringPartition: taintsSeen,
        taintedAtEnd: taintedDuring,
        healToAllHealthyS: healed / 1000,
        cpuSecondsHealing: Math.round((u6.cpuS - u5.cpuS) * 10) / 10,
      };
      log(`partition: ${JSON.stringify(results.partition)}`);
    }
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await watcher?.stop();
    api?.close();
    await Promise.all(
      replicas.map(async ({ proc }) => {
        if (proc.exitCode !== null) return;
        proc.kill('SIGTERM');
        await Promise.race([new Promise((r) => proc.once('exit', r)), sleep(20_000)]);
        if (proc.exitCode === null) proc.kill('SIGKILL');
      }),
    );
    target.stop();
    await cp.stop();
  }
}

main().catch((err: unknown) => {
  log(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
