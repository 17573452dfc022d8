// Faults of the control plane itself, on a real Karmada v1.18.2 (src/dev/karmada.ts): one reconciler replica (the
// compiled CLI, --leader-elect with a short lease) judging 24 Pull Clusters in 4 regions, each probing a loopback HTTP
// server of this test (a path per Cluster), while karmada-apiserver, karmada-aggregated-apiserver and etcd are
// restarted, a watch is made to expire (410 Gone), and the leader is cut off from karmada-apiserver (a TCP forwarder
// between them) but not from its targets. Each case holds, and records in its figures:
// - no wrong taint: a Cluster whose target answered throughout the case is never seen tainted (a poller of our own
//   reading karmada-apiserver directly, and every "taints written" line of every replica);
// - no lost verdict: every Cluster whose target fails is tainted (and Healthy=False) within failureThreshold x period
//   + SLACK_S, counted from when the control plane is back (Clusters readable again; for the cut: healed);
// - no crash loop: the reconciler process never exits;
// - the state in metrics: watch_restarts_total by reason, writes_total by outcome, the leader gauge.
// CLUSTER_PROBE_FAULTS_FIGURES=<file> writes the figures as JSON (docs/controlplane-faults.md is made from them).
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../../src/kube/index.js';
import { FLEET_METRICS } from '../../src/facts/metric-names.js';
import { HEALTHY_CONDITION } from '../../src/facts/conditions.js';
import { PROBE_ANNOTATION } from '../../packages/schema/src/api/index.js';
import { UNHEALTHY_TAINT_KEY, type Cluster } from '../../packages/schema/src/schema/index.js';
import { startKarmada, type KarmadaComponent, type KarmadaControlPlane } from '../../src/dev/karmada.js';
import { startForwarder, type FaultsForwarder } from './support/faults-forwarder.js';
import { startCompiledReconciler, type CompiledReconciler } from './support/faults-reconciler.js';
import { sleep, waitFor } from './support/reconciler-env.js';

const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';
const PERIOD_S = 1;
const FAILURE_THRESHOLD = 2;
const REGIONS = 4;
const PER_REGION = 6;
/** Leader election: short, so that a cut leader gives up (renew deadline) and a follower takes over (lease) quickly. */
const LEASE_S = 4;
const RENEW_DEADLINE_S = 3;
const RETRY_PERIOD_S = 0.5;
/**
 * What a verdict may take beyond failureThreshold x period once the control plane is back: the leader's retry period,
 * a relist, the write queue's retry backoff and a busy 2-core machine. A figure above it is a lost verdict.
 */
const SLACK_S = 8;
/**
 * SIGTERM, then SIGKILL after this long, as a Pod's termination grace period: each of the three drains its watches
 * for 7-10 s after SIGTERM (it stops serving at once), which only made the file slower.
 */
const STOP_GRACE_MS = 3_000;
const BOUND_MS = (FAILURE_THRESHOLD * PERIOD_S + SLACK_S) * 1000;

const clusterName = (region: number, i: number): string => `faults-r${region}-${i}`;
const regionClusters = (region: number): string[] =>
  Array.from({ length: PER_REGION }, (_, i) => clusterName(region, i));
const ALL = Array.from({ length: REGIONS }, (_, r) => regionClusters(r)).flat();

interface Seen {
  tainted: boolean;
  healthy: string | undefined;
}

interface CaseFigures {
  case: string;
  fault: string;
  moment: 'steady' | 'mass failure';
  /** From the stop signal (or the cut) to Clusters readable again (or the heal), seconds. */
  downS: number;
  failing: number;
  /** Latest taint of a failing Cluster after the control plane was back, seconds (0: written before it went down). */
  lastTaintAfterBackS: number | undefined;
  boundS: number;
  wrongTaints: number;
  /** Taints of failing Clusters lifted while their targets still failed (and written again later). */
  flapped: number;
  /** Every failing Cluster Healthy=True and untainted again after its target answered, seconds. */
  recoveredS: number | undefined;
  writes: Record<string, number>;
  watchRestarts: Record<string, number>;
  leadershipLost: number;
  leadershipAcquired: number;
  /** Scrapes of the leader gauge (every 250 ms) that read 0 during the case. */
  leaderZeroScrapes: number;
  leaderAtEnd: number;
  reconcilerExits: number;
  notes?: string;
}

/** The counters a case reads before and after: writes by kind/outcome, watch restarts by resource/reason, leader. */
function counters(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)\{([^}]*)\}\s+(\S+)$/.exec(line) ?? /^([a-z_]+)()\s+(\S+)$/.exec(line);
    if (m === null) continue;
    const [, name, labels, value] = m;
    if (name === FLEET_METRICS.writes) {
      const kind = /kind="([^"]+)"/.exec(labels!)?.[1];
      const outcome = /outcome="([^"]+)"/.exec(labels!)?.[1];
      out[`writes ${kind}/${outcome}`] = Number(value);
    } else if (name === FLEET_METRICS.watchRestarts) {
      const resource = /resource="([^"]+)"/.exec(labels!)?.[1];
      const reason = /reason="([^"]+)"/.exec(labels!)?.[1];
      out[`watch ${resource}/${reason}`] = Number(value);
    } else if (name === FLEET_METRICS.leader) out.leader = Number(value);
  }
  return out;
}

function delta(a: Record<string, number>, b: Record<string, number>, prefix: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(b))
    if (k.startsWith(prefix) && v - (a[k] ?? 0) !== 0) out[k.slice(prefix.length)] = v - (a[k] ?? 0);
  return out;
}

describe('Karmada v1.18.2: faults of the control plane (e2e)', function () {
  this.timeout(15 * 60_000);
  let karmada: KarmadaControlPlane | undefined;
  let api: KubeClient;
  let server: Server | undefined;
  let forwarder: FaultsForwarder | undefined;
  let leader: CompiledReconciler | undefined;
  let second: CompiledReconciler | undefined;
  /** Replicas stopped during the run, for their logs. */
  const stoppedReplicas: CompiledReconciler[] = [];
  const failing = new Set<string>();
  /** The latest state the poller read, and every time it saw our taint on a Cluster. */
  const seen = new Map<string, Seen>();
  const taintsSeen: { name: string; at: number }[] = [];
  const leaderSamples: { at: number; value: number }[] = [];
  let polling = true;
  let poller: Promise<void> | undefined;
  const figures: CaseFigures[] = [];
  let nextRegion = 0;

  const reconcileArgs = [
    '--include-pull-clusters',
    '--leader-elect',
    '--lease-namespace',
    'default',
    '--lease-duration',
    String(LEASE_S),
    '--renew-deadline',
    String(RENEW_DEADLINE_S),
    '--retry-period',
    String(RETRY_PERIOD_S),
    '--kube-api-qps',
    '100',
  ];

  const replicas = (): CompiledReconciler[] => [leader!, ...(second !== undefined ? [second] : [])];
  const taintWrites = (since: number, until = Infinity) =>
    replicas().flatMap((r) =>
      r.logs
        .filter((l) => l.msg === 'taints written' && l.tainted === true && l.at >= since && l.at <= until)
        .map((l) => ({ replica: r.name, name: String(l.cluster), at: l.at })),
    );
  const logCount = (r: CompiledReconciler, msg: string, since: number): number =>
    r.logs.filter((l) => l.msg === msg && l.at >= since).length;

  const allSettled = (names: readonly string[], tainted: boolean): boolean =>
    names.every((n) => {
      const s = seen.get(n);
      return s !== undefined && s.tainted === tainted && s.healthy === (tainted ? 'False' : 'True');
    });

  /** Waits until the poller has read the whole fleet at least once more (a fresh view, not one from before). */
  const freshRead = async (): Promise<void> => {
    const since = Date.now();
    await waitFor('a fresh read of the Clusters', 60_000, () => lastReadAt > since);
  };
  let lastReadAt = 0;

  async function poll(): Promise<void> {
    while (polling) {
      try {
        const list = await api.request<{ items: Cluster[] }>('GET', CLUSTERS, { timeoutMs: 2_000 });
        const at = Date.now();
        for (const c of list.items) {
          const name = c.metadata?.name ?? '';
          const tainted = (c.spec.taints ?? []).some((t) => t.key === UNHEALTHY_TAINT_KEY);
          if (tainted) taintsSeen.push({ name, at });
          seen.set(name, {
            tainted,
            healthy: c.status?.conditions?.find((x) => x.type === HEALTHY_CONDITION)?.status,
          });
        }
        lastReadAt = at;
      } catch {
        // The control plane is down: that is the point.
      }
      // The first replica's leader gauge as a scrape sees it (its /metrics, not through the control plane).
      try {
        leaderSamples.push({ at: Date.now(), value: await leader!.metric(FLEET_METRICS.leader) });
      } catch {
        // Not serving yet, or gone: the case's own checks say so.
      }
      await sleep(250);
    }
  }

  /** Until the first replica's write counters stay the same for a second. */
  async function quiet(): Promise<void> {
    // The Lease is renewed every retry period: everything but it.
    const writes = async (): Promise<string> =>
      JSON.stringify(
        Object.entries(delta({}, counters(await leader!.metrics()), 'writes ')).filter(
          ([k]) => !k.startsWith('lease/'),
        ),
      );
    let before = await writes();
    await waitFor('the reconciler done writing', 30_000, async () => {
      await sleep(1_000);
      const now = await writes();
      const same = now === before;
      before = now;
      return same;
    });
  }

  async function settleHealthy(what: string): Promise<number> {
    const t0 = Date.now();
    await waitFor(`every Cluster Healthy=True and untainted (${what})`, 90_000, async () => {
      await freshRead();
      return allSettled(ALL, false);
    });
    return (Date.now() - t0) / 1000;
  }

  /**
   * One case: `fault` runs (it may fail a region first through `failRegion`) and resolves with when the control plane
   * went and came back; then the failing Clusters must be tainted within the bound, nothing else tainted, and the
   * fleet recover once their targets answer.
   */
  async function runCase(
    name: string,
    faultName: string,
    moment: 'steady' | 'mass failure',
    fault: (failRegion: () => string[]) => Promise<{ downAt: number; backAt: number }>,
    notes?: string,
  ): Promise<CaseFigures> {
    expect(leader!.exit, 'the reconciler exited before the case').to.equal(undefined);
    // The writes of what came before (an Event follows its condition) are done: the case counts only its own.
    await quiet();
    const start = Date.now();
    const m0 = counters(await leader!.metrics());
    let failed: string[] = [];
    const failRegion = (): string[] => {
      failed = regionClusters(nextRegion++ % REGIONS);
      for (const n of failed) failing.add(n);
      return failed;
    };
    const { downAt, backAt } = await fault(failRegion);
    let lastTaintAfterBackS: number | undefined;
    if (failed.length > 0) {
      await waitFor(`${name}: ${failed.length} failing Clusters tainted and Healthy=False`, 120_000, async () => {
        await freshRead();
        return allSettled(failed, true);
      });
      const writes = taintWrites(start);
      const after = failed.map((n) => {
        // The verdict stands from its last taint write (an earlier one may have been lifted since: a flap).
        const w = writes.filter((x) => x.name === n).at(-1);
        // A taint the poller saw and no log line told of (written by a request that returned after it was given up).
        const at = w?.at ?? taintsSeen.find((x) => x.name === n && x.at >= start)?.at ?? Date.now();
        return Math.max(0, at - backAt);
      });
      lastTaintAfterBackS = Math.max(...after) / 1000;
    } else {
      // Steady: a few periods after the control plane is back, nothing may have been written but the Lease.
      await waitFor(
        `${name}: the reconciler leading again`,
        60_000,
        async () => (await leader!.metric(FLEET_METRICS.leader)) === 1,
      );
      await sleep(2 * FAILURE_THRESHOLD * PERIOD_S * 1000);
      await freshRead();
    }
    const others = ALL.filter((n) => !failed.includes(n));
    const wrong = [
      ...taintsSeen.filter((x) => x.at >= start && others.includes(x.name)).map((x) => `seen ${x.name}`),
      ...taintWrites(start)
        .filter((x) => others.includes(x.name))
        .map((x) => `${x.replica} wrote ${x.name}`),
    ];
    // A failing Cluster's taint lifted while its target still failed: a verdict lost for a while, then written again.
    const flapped = replicas().flatMap((r) =>
      r.logs
        .filter((l) => l.msg === 'taints written' && l.tainted === false && l.at >= start)
        .filter((l) => failed.includes(String(l.cluster)))
        .map((l) => `${r.name} lifted ${String(l.cluster)} at +${((l.at - backAt) / 1000).toFixed(1)} s`),
    );
    const m1 = counters(await leader!.metrics());
    let recoveredS: number | undefined;
    if (failed.length > 0) {
      for (const n of failed) failing.delete(n);
      recoveredS = await settleHealthy(`${name}, recovered`);
    }
    const f: CaseFigures = {
      case: name,
      fault: faultName,
      moment,
      downS: (backAt - downAt) / 1000,
      failing: failed.length,
      lastTaintAfterBackS,
      boundS: BOUND_MS / 1000,
      wrongTaints: new Set(wrong).size,
      flapped: flapped.length,
      recoveredS,
      writes: delta(m0, m1, 'writes '),
      watchRestarts: delta(m0, m1, 'watch '),
      leadershipLost: logCount(leader!, 'leadership lost', start),
      leadershipAcquired: logCount(leader!, 'leadership acquired', start),
      leaderZeroScrapes: leaderSamples.filter((x) => x.at >= start && x.value === 0).length,
      leaderAtEnd: m1.leader ?? -1,
      reconcilerExits: leader!.exit === undefined ? 0 : 1,
      ...(notes !== undefined ? { notes } : {}),
    };
    figures.push(f);
    process.stderr.write(`      ${JSON.stringify(f)}\n`);
    expect(leader!.exit, `the reconciler exited: ${leader!.stderr().slice(-2000)}`).to.equal(undefined);
    expect(wrong, 'Clusters whose target answered were tainted').to.deep.equal([]);
    expect(flapped, 'failing Clusters whose taint was lifted while their target still failed').to.deep.equal([]);
    if (failed.length > 0)
      expect(
        lastTaintAfterBackS! * 1000,
        'the last failing Cluster tainted after the control plane was back',
      ).to.be.at.most(BOUND_MS);
    else {
      const verdictWrites = Object.entries(f.writes).filter(([k]) => !k.startsWith('lease/'));
      expect(verdictWrites, 'writes other than the Lease in a steady state').to.deep.equal([]);
    }
    expect(m1.leader, 'the leader gauge at the end of the case').to.equal(1);
    // The fault shows in the metrics: leadership lost shows in the gauge, a broken watch in watch_restarts_total.
    if (f.leadershipLost > 0) expect(f.leaderZeroScrapes, 'scrapes of the leader gauge reading 0').to.be.above(0);
    else
      expect(
        Object.keys(f.watchRestarts),
        'watch_restarts_total after a fault that kept the lease',
      ).to.have.length.above(0);
    return f;
  }

  const restart =
    (component: KarmadaComponent, massFailure: boolean) =>
    async (failRegion: () => string[]): Promise<{ downAt: number; backAt: number }> => {
      if (massFailure) failRegion();
      return karmada!.restartComponent(component, { downMs: 1_000, graceMs: STOP_GRACE_MS });
    };

  before(async function () {
    server = createServer((req, res) => {
      const name = /^\/c\/([^/?]+)/.exec(req.url ?? '')?.[1] ?? '';
      res.writeHead(failing.has(name) ? 500 : 200).end();
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const targetPort = (server.address() as AddressInfo).port;
    karmada = await startKarmada({ members: 0, startTimeoutMs: 300_000 });
    const kc = new KubeConfig();
    kc.loadFromFile(karmada.host.kubeconfigPath);
    api = new KubeClient(kc, { qps: 0 });
    for (const [i, name] of ALL.entries()) {
      const probe = {
        httpGet: { host: '127.0.0.1', port: targetPort, path: `/c/${name}` },
        periodSeconds: PERIOD_S,
        failureThreshold: FAILURE_THRESHOLD,
      };
      await api.request('POST', CLUSTERS, {
        body: {
          apiVersion: 'cluster.karmada.io/v1alpha1',
          kind: 'Cluster',
          metadata: { name, annotations: { [PROBE_ANNOTATION]: JSON.stringify(probe) } },
          spec: { syncMode: 'Pull', region: `r${Math.floor(i / PER_REGION)}`, apiEndpoint: 'https://127.0.0.1:6443' },
        },
      });
    }
    // The leader reaches karmada-apiserver through a forwarder the last case cuts; the probes' targets directly.
    forwarder = await startForwarder(karmada.host.ports.apiserver);
    const raw = JSON.parse(readFileSync(karmada.host.kubeconfigPath, 'utf8')) as {
      clusters: { cluster: { server: string } }[];
    };
    for (const c of raw.clusters) c.cluster.server = `https://127.0.0.1:${forwarder.port}`;
    const forwardedKubeconfig = join(karmada.host.dir, 'kubeconfig.forwarded');
    writeFileSync(forwardedKubeconfig, JSON.stringify(raw), { mode: 0o600 });
    leader = await startCompiledReconciler('faults-r1', forwardedKubeconfig, reconcileArgs);
    poller = poll();
    await settleHealthy('start');
  });

  after(async function () {
    polling = false;
    await poller;
    await second?.kill('SIGTERM');
    await leader?.kill('SIGTERM');
    await forwarder?.close();
    await karmada?.stop();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server?.closeAllConnections();
    // The replicas' own log lines, for reading a case afterwards.
    const logDir = process.env.CLUSTER_PROBE_FAULTS_LOGS;
    if (logDir !== undefined)
      for (const r of [leader, second, ...stoppedReplicas])
        if (r !== undefined)
          writeFileSync(join(logDir, `${r.name}.log`), r.logs.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const file = process.env.CLUSTER_PROBE_FAULTS_FIGURES;
    if (file !== undefined && figures.length > 0) writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  });

  for (const [letter, component] of [
    ['a', 'karmada-apiserver'],
    ['b', 'karmada-aggregated-apiserver'],
    ['c', 'etcd'],
  ] as const) {
    it(`${letter}. ${component} restarted in a steady state: nothing written but the Lease, leading again`, async function () {
      await runCase(`${letter} steady`, `${component} restarted`, 'steady', restart(component, false));
    });
    it(`${letter}. ${component} restarted just after a region's targets fail: the region tainted within the bound once it is back, nothing else`, async function () {
      await runCase(`${letter} mass failure`, `${component} restarted`, 'mass failure', restart(component, true));
    });
  }

  it('d. a watch expires (410 Gone) in the middle of a mass failure: the reconciler relists, no verdict lost', async function () {
    const f = await runCase(
      'd',
      'etcd compacted while karmada-aggregated-apiserver is down',
      'mass failure',
      async (failRegion) => {
        failRegion();
        const stopped = await karmada!.stopComponent('karmada-aggregated-apiserver', { graceMs: STOP_GRACE_MS });
        // The region's transitions happen while the reconciler's watch is down and behind; writes elsewhere move etcd's
        // revision on, and the compaction makes the watch's resourceVersion history.
        await sleep((FAILURE_THRESHOLD + 1) * PERIOD_S * 1000);
        for (let i = 0; i < 5; i++)
          await api.request('POST', '/api/v1/namespaces/default/configmaps', {
            body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'faults-' } },
          });
        await karmada!.compactEtcd();
        const backAt = await stopped.start();
        return { downAt: stopped.signalledAt, backAt };
      },
    );
    expect(
      f.watchRestarts['clusters/gone'] ?? 0,
      'watch_restarts_total{resource="clusters",reason="gone"}',
    ).to.be.at.least(1);
  });

  it('e. the leader cut off from karmada-apiserver (not from its targets) in a mass failure: it stops leading, writes nothing, and leads and judges again once healed', async function () {
    let lostAt = 0;
    let cutAtAlone = 0;
    let writesAtLoss: Record<string, number> = {};
    const f = await runCase('e alone', 'leader cut off from karmada-apiserver', 'mass failure', async (failRegion) => {
      const since = Date.now();
      forwarder!.cut();
      const cutAt = Date.now();
      cutAtAlone = cutAt;
      failRegion();
      const lost = await waitFor('the cut leader to give up', 60_000, () =>
        leader!.logs.find((l) => l.msg === 'leadership lost' && l.at >= since),
      );
      lostAt = lost.at;
      writesAtLoss = counters(await leader!.metrics());
      // Past the lease: anyone could have taken over by now; nobody can, but the leader must not act as if it led.
      await sleep((LEASE_S + 2) * 1000);
      expect(counters(await leader!.metrics()), 'writes of the cut leader after it gave up').to.deep.include(
        Object.fromEntries(Object.entries(writesAtLoss).filter(([k]) => k.startsWith('writes '))),
      );
      forwarder!.heal();
      return { downAt: cutAt, backAt: Date.now() };
    });
    process.stderr.write(`      the cut leader gave up ${((lostAt - cutAtAlone) / 1000).toFixed(1)} s after the cut\n`);
    expect(f.leadershipLost).to.be.at.least(1);
    expect(f.leadershipAcquired).to.be.at.least(1);
  });

  it('e. the leader cut off while a second replica reaches karmada-apiserver: the second takes the lease and taints the failing region; the first writes nothing once healed', async function () {
    second = await startCompiledReconciler('faults-r2', karmada!.host.kubeconfigPath, reconcileArgs);
    await waitFor(
      'the second replica standing by',
      30_000,
      async () =>
        (await second!.metric(FLEET_METRICS.leader)) === 0 && second!.logs.some((l) => l.msg === 'reconciler starting'),
    );
    const start = Date.now();
    const r1Before = counters(await leader!.metrics());
    forwarder!.cut();
    const cutAt = Date.now();
    const failed = regionClusters(nextRegion++ % REGIONS);
    for (const n of failed) failing.add(n);
    const lost = await waitFor('the cut leader to give up', 60_000, () =>
      leader!.logs.find((l) => l.msg === 'leadership lost' && l.at >= start),
    );
    const r1AtLoss = counters(await leader!.metrics());
    const acquired = await waitFor('the second replica to take the lease', 60_000, () =>
      second!.logs.find((l) => l.msg === 'leadership acquired' && l.at >= start),
    );
    await waitFor(`${failed.length} failing Clusters tainted by the second replica`, 120_000, async () => {
      await freshRead();
      return allSettled(failed, true);
    });
    const bySecond = taintWrites(start).filter((w) => w.replica === second!.name);
    const lastTaint = Math.max(...failed.map((n) => bySecond.filter((w) => w.name === n).at(-1)?.at ?? Infinity));
    // The region answers again while the first replica is still cut: the second lifts the taints.
    for (const n of failed) failing.delete(n);
    await settleHealthy('the region recovered, the first replica still cut');
    const healAt = Date.now();
    forwarder!.heal();
    // Whatever the first replica sent before it gave up now reaches karmada-apiserver, late: it must change nothing.
    await sleep((LEASE_S + 2 * FAILURE_THRESHOLD * PERIOD_S) * 1000);
    await freshRead();
    const lateTaints = taintsSeen.filter((x) => x.at >= healAt).map((x) => x.name);
    const r1Healed = counters(await leader!.metrics());
    const r1LeaderHealed = r1Healed.leader;
    const r2LeaderHealed = await second!.metric(FLEET_METRICS.leader);
    // The second stops (its Lease released): the first leads again and every verdict is right.
    await second!.kill('SIGTERM');
    const handBack = Date.now();
    await waitFor(
      'the first replica leading again',
      60_000,
      async () => (await leader!.metric(FLEET_METRICS.leader)) === 1,
    );
    const leadsAgainS = (Date.now() - handBack) / 1000;
    await sleep(2 * FAILURE_THRESHOLD * PERIOD_S * 1000);
    await settleHealthy('the first replica leading again');
    const r1End = counters(await leader!.metrics());
    // Every taint the first replica wrote after it gave up (requests it sent before, arriving after the heal, and what
    // it did with their answers), up to the hand-back.
    const byFirst = taintWrites(start, handBack).filter((w) => w.replica === leader!.name);
    const f: CaseFigures = {
      case: 'e two replicas',
      fault: 'leader cut off from karmada-apiserver, a second replica connected directly',
      moment: 'mass failure',
      downS: (healAt - cutAt) / 1000,
      failing: failed.length,
      lastTaintAfterBackS: (lastTaint - acquired.at) / 1000,
      boundS: BOUND_MS / 1000,
      wrongTaints: lateTaints.length,
      flapped: 0,
      recoveredS: undefined,
      writes: delta(r1AtLoss, r1End, 'writes '),
      watchRestarts: delta(r1Before, r1End, 'watch '),
      leadershipLost: logCount(leader!, 'leadership lost', start),
      leadershipAcquired: logCount(leader!, 'leadership acquired', start),
      leaderZeroScrapes: leaderSamples.filter((x) => x.at >= start && x.value === 0).length,
      leaderAtEnd: r1End.leader ?? -1,
      reconcilerExits: leader!.exit === undefined ? 0 : 1,
      notes:
        `first replica gave up ${((lost.at - cutAt) / 1000).toFixed(1)} s after the cut (renew deadline ${RENEW_DEADLINE_S} s); ` +
        `second took the lease ${((acquired.at - cutAt) / 1000).toFixed(1)} s after the cut (lease ${LEASE_S} s); ` +
        `taints written by the first after it gave up: ${byFirst.filter((w) => w.at > lost.at).length}, by the second: ${bySecond.length}; ` +
        `after the heal the first led=${r1LeaderHealed}, the second led=${r2LeaderHealed}; ` +
        `the first led again ${leadsAgainS.toFixed(1)} s after the second stopped`,
    };
    stoppedReplicas.push(second!);
    second = undefined;
    figures.push(f);
    process.stderr.write(`      ${JSON.stringify(f)}\n`);
    expect(leader!.exit, 'the first replica exited').to.equal(undefined);
    expect(
      byFirst.filter((w) => w.at > lost.at),
      'taints written by the first replica after it gave up',
    ).to.deep.equal([]);
    expect(lateTaints, 'taints seen after the heal, every target answering').to.deep.equal([]);
    const late = delta(r1AtLoss, r1Healed, 'writes ');
    expect(
      (late['taints/ok'] ?? 0) + (late['status/ok'] ?? 0),
      `verdict writes of the first replica after it gave up (${JSON.stringify(late)})`,
    ).to.equal(0);
    expect(r1LeaderHealed, 'the first replica leading while the second holds the Lease').to.equal(0);
    expect(lastTaint - acquired.at, 'the region tainted after the second replica took over').to.be.at.most(BOUND_MS);
    expect(r1End.leader).to.equal(1);
  });
});
