// Lease sharding end to end (docs/sharding.md): replicas in-process on one in-memory apiserver with Leases, real probe
// targets on 127.0.0.1, the Leases' time on one fake clock (the apiserver's and every replica's: "on the others'
// clocks" is that clock, moved by the test). Every Cluster write is checked when the apiserver takes it (fenceCheck
// below): the writer's Lease is live and claims the Cluster, and no earlier writer still claims it.
// Covered: 2 and 3 replicas share with no overlap and no gap; a clean stop hands over at once; a killed replica only
// after the lease duration; a joining replica takes about 1/N, each Cluster released before it is started; a replica
// that cannot renew stops before its Lease expires; a partition of one replica (all its targets fail) taints nothing.
import http from 'node:http';
import { expect } from 'chai';
import { Manager, createMetrics, type ReconcilerMetrics } from '../../../src/reconciler/index.js';
import { claims, decodeView, rendezvousOwner } from '../../../src/reconciler/shard.js';
import { SHARD_VIEW_ANNOTATION } from '../../../src/kube/membership.js';
import { FLEET_METRICS } from '../../../src/facts/metric-names.js';
import { close, listen } from '../probe/servers.js';
import { FakeClock } from '../../support/fake-clock.js';
import { CLUSTERS, FakeApiServer, type FakeClient } from '../../support/fake-apiserver.js';
import { aCluster, httpProbe, isTainted } from '../../support/cluster.js';
import { runProbe } from '../../../packages/probe/src/index.js';
import { HANG_MS, until } from './until.js';

const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined };
/** Lease timing on the fake clock: a duration, a renew deadline about 2/3 of it, a retry period of duration / 20 (whole seconds: a Lease says leaseDurationSeconds). */
const LEASE = { leaseDurationMs: 2_000, renewDeadlineMs: 1_300, retryPeriodMs: 100 };
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Replica {
  id: string;
  api: FakeClient;
  manager: Manager;
  metrics: ReconcilerMetrics;
  stopped: boolean;
}

/**
 * The fence, checked when the apiserver takes each Cluster write, against the Leases as it holds them on its clock:
 * the writer's own Lease is live and claims the Cluster, and no replica that wrote it before still claims it with a
 * live Lease (two writers never overlap). Returns the writes that broke it, explained.
 */
function fenceCheck(kube: FakeApiServer): string[] {
  const violations: string[] = [];
  const claimsNow = (identity: string, cluster: string): boolean =>
    kube
      .liveLeases()
      .some(
        (l) =>
          l.spec?.holderIdentity === identity &&
          claims(identity, decodeView(l.metadata?.annotations?.[SHARD_VIEW_ANNOTATION]), cluster),
      );
  kube.before(({ method, path, target, writer }) => {
    if (method !== 'PATCH' || !path.startsWith(`${CLUSTERS}/`)) return;
    const cluster = target.name!;
    const at = kube.clock.now();
    if (!claimsNow(writer, cluster))
      violations.push(`${writer} wrote ${cluster} at ${at} without a live Lease claiming it`);
    const before = new Set(
      kube.clusterWrites.filter((w) => w.cluster === cluster && w.writer !== writer).map((w) => w.writer),
    );
    for (const other of before)
      if (claimsNow(other, cluster))
        violations.push(`${writer} wrote ${cluster} at ${at} while ${other}, who wrote it before, still claims it`);
  });
  return violations;
}

describe('Lease sharding (in-memory apiserver with Leases, fake lease clock, real probe targets)', function () {
  this.timeout(8 * HANG_MS); // catches a hang only: each wait below has a HANG_MS deadline of its own
  let server: http.Server;
  let port = 0;
  let closedPort = 0;
  let kube: FakeApiServer;
  let violations: string[];
  let clock: FakeClock;
  let replicas: Replica[] = [];

  before(async () => {
    // /flap answers 200 and 500 by turns of 300 ms: Clusters whose verdicts change all the time, so that writes go on
    // through every hand-over; /ok always answers; /down never does.
    server = http.createServer((req, res) => {
      if (req.url?.startsWith('/flap')) res.writeHead(Math.floor(Date.now() / 300) % 2 === 0 ? 200 : 500);
      else if (req.url?.startsWith('/down')) res.writeHead(503);
      else res.writeHead(200);
      res.end();
    });
    port = await listen(server);
    // A port that was just listened on and closed: nothing answers there.
    const gone = http.createServer();
    closedPort = await listen(gone);
    await close(gone);
  });
  after(() => close(server));

  beforeEach(() => {
    clock = new FakeClock(1_000_000);
    kube = new FakeApiServer({ clock });
    violations = fenceCheck(kube);
    replicas = [];
  });
  afterEach(async () => {
    for (const r of replicas) r.api.link = 'up';
    // The fake clock keeps moving while they stop: a renewal's timeout is on it, and must not hold a stop for ever.
    let stopping = true;
    const stops = Promise.all(replicas.filter((r) => !r.stopped).map((r) => r.manager.stop())).finally(
      () => (stopping = false),
    );
    while (stopping) await step();
    await stops;
    expect(violations, 'fence violations').to.deep.equal([]);
  });

  function putCluster(name: string, path: string): void {
    kube.putCluster(
      aCluster(name, {
        probe: httpProbe(port, `${path}/${name}`, { periodSeconds: 1, failureThreshold: 1, successThreshold: 1 }),
      }),
    );
  }

  function startReplica(id: string, options: { guard?: boolean; partitioned?: boolean } = {}): Replica {
    const api = kube.client(id);
    const metrics = createMetrics();
    const manager = new Manager({
      api,
      taintEffect: 'NoSchedule',
      identity: id,
      log: quiet,
      metrics,
      // Cut off from every member: the real engine probes a port nothing listens on (connection refused).
      ...(options.partitioned === true
        ? { runProbe: (probe, ctx) => runProbe({ ...probe, httpGet: { ...probe.httpGet!, port: closedPort } }, ctx) }
        : {}),
      disruption: options.guard === true ? { tickMs: 100 } : false,
      sharding: { namespace: 'karmada-system', group: 'cluster-probe-reconciler', clock, ...LEASE },
    });
    // Nothing to wait for here (it waits for added runnables; there are none); a rejection fails the test unhandled.
    void manager.start();
    const r: Replica = { id, api, manager, metrics, stopped: false };
    replicas.push(r);
    return r;
  }

  /** Lets the fake clock run one retry period, then real time a little (watch events, reconciles, GETs). */
  async function step(ms = LEASE.retryPeriodMs): Promise<void> {
    await clock.advance(ms);
    await sleep(10);
  }

  /** Steps the fake clock until `check` holds; the deadline only catches a hang. */
  async function stepUntil<T>(what: string, check: () => T | undefined | Promise<T | undefined>): Promise<T> {
    return until(what, async () => {
      await step();
      return check();
    });
  }

  const names = (n: number, prefix = 'member'): string[] => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

  /** Who holds each Cluster now: names with no holder or two are what the tests look for. */
  function holders(clusters: string[], among = replicas): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const c of clusters)
      out.set(
        c,
        among.filter((r) => !r.stopped && r.manager.ownsNow(c)).map((r) => r.id),
      );
    return out;
  }

  /** Every Cluster held by exactly one of `live`, and each by the owner rendezvous hashing gives it among them. */
  function settledOn(clusters: string[], live: Replica[]): boolean {
    const ids = live.map((r) => r.id);
    for (const [c, h] of holders(clusters)) if (h.length !== 1 || h[0] !== rendezvousOwner(c, ids)) return false;
    return true;
  }

  function overlaps(clusters: string[]): string[] {
    return [...holders(clusters)].filter(([, h]) => h.length > 1).map(([c, h]) => `${c}: ${h.join(', ')}`);
  }

  async function gauge(r: Replica, name: string): Promise<number | undefined> {
    const line = (await r.metrics.registry.metrics()).split('\n').find((l) => l.startsWith(`${name} `));
    return line === undefined ? undefined : Number(line.split(' ')[1]);
  }

  it('spreads the Clusters over 2, then 3 replicas with no overlap and no gap, and reports it in the shard metrics', async () => {
    const clusters = names(30);
    for (const c of clusters) putCluster(c, '/ok');
    const a = startReplica('replica-a');
    const b = startReplica('replica-b');
    await stepUntil('2 replicas settled', () => (settledOn(clusters, [a, b]) ? true : undefined));
    const c = startReplica('replica-c');
    await stepUntil('3 replicas settled', async () => {
      expect(overlaps(clusters), 'a Cluster held by two replicas').to.deep.equal([]);
      return settledOn(clusters, [a, b, c]) ? true : undefined;
    });
    let owned = 0;
    for (const r of [a, b, c]) {
      expect(await gauge(r, FLEET_METRICS.shardMembers), r.id).to.equal(3);
      expect(await gauge(r, FLEET_METRICS.shardAssignable), r.id).to.equal(30);
      expect(await gauge(r, FLEET_METRICS.shardFenced), r.id).to.equal(0);
      owned += (await gauge(r, FLEET_METRICS.shardOwned)) ?? 0;
      expect(await gauge(r, FLEET_METRICS.shardRebalances), r.id).to.be.at.least(1);
    }
    expect(owned, 'owned by nobody: assignable - sum(owned)').to.equal(30);
    // Every member Lease carries its group label and the view it acts on.
    const views = kube.leases().map((l) => l.metadata?.annotations?.['cluster-probe.karmada.io/shard-view']);
    expect(views).to.deep.equal(Array(3).fill('replica-a\nreplica-b\nreplica-c'));
  });

  it('a joining replica takes about 1/N, and every Cluster that moves is released before it is started (writes checked)', async () => {
    const clusters = names(60);
    for (const c of clusters) putCluster(c, '/flap');
    const a = startReplica('replica-a');
    const b = startReplica('replica-b');
    await stepUntil('2 replicas settled', () => (settledOn(clusters, [a, b]) ? true : undefined));
    // Writes go on (the targets flap) while the third joins.
    await until('writes from both', () =>
      new Set(kube.clusterWrites.map((w) => w.writer)).size === 2 ? true : undefined,
    );
    const before = holders(clusters);
    // The old replicas hear of the new one late (a slow watch): the new one publishes its view long before they let
    // its share go, and must wait for them.
    a.api.leaseEventDelayMs = b.api.leaseEventDelayMs = 10 * LEASE.retryPeriodMs;
    // Writes take a while on the way: a view change finds some in flight, and they must land before it is published.
    a.api.clusterWriteDelayMs = b.api.clusterWriteDelayMs = 40;
    const c = startReplica('replica-c');
    c.api.clusterWriteDelayMs = 40;
    await stepUntil('3 replicas settled', () => {
      // Sampled at every step: never two holders (the apiserver checks every write besides).
      expect(overlaps(clusters), 'a Cluster held by two replicas').to.deep.equal([]);
      return settledOn(clusters, [a, b, c]) ? true : undefined;
    });
    const after = holders(clusters);
    const moved = clusters.filter((n) => before.get(n)![0] !== after.get(n)![0]);
    // Only the new replica's share moved, none between the two old ones.
    expect(
      moved.every((n) => after.get(n)![0] === 'replica-c'),
      'moved only to the new replica',
    ).to.equal(true);
    expect(moved.length, 'about 1/3 of 60').to.be.within(10, 30);
    // The moved Clusters are written by the new replica once it holds them (the flapping goes on).
    await until('a moved Cluster written by the new replica', () =>
      kube.clusterWrites.some((w) => w.writer === 'replica-c' && moved.includes(w.cluster)) ? true : undefined,
    );
  });

  it('a replica that stops cleanly deletes its Lease, and the others take its Clusters at once (well within the lease duration)', async () => {
    const clusters = names(30);
    for (const c of clusters) putCluster(c, '/flap');
    const a = startReplica('replica-a');
    const b = startReplica('replica-b');
    const c = startReplica('replica-c');
    await stepUntil('3 replicas settled', () => (settledOn(clusters, [a, b, c]) ? true : undefined));
    const stoppedAt = clock.now();
    b.stopped = true;
    await b.manager.stop();
    expect(kube.liveHolders()).to.deep.equal(['replica-a', 'replica-c']);
    await stepUntil('2 replicas settled', () => (settledOn(clusters, [a, c]) ? true : undefined));
    expect(clock.now() - stoppedAt, 'fake ms until taken over').to.be.below(LEASE.leaseDurationMs / 2);
  });

  it('a killed replica (no renewal, no release) is taken over only after the lease duration on the others’ clocks', async () => {
    const clusters = names(30);
    for (const c of clusters) putCluster(c, '/flap');
    const a = startReplica('replica-a');
    const b = startReplica('replica-b');
    const c = startReplica('replica-c');
    await stepUntil('3 replicas settled', () => (settledOn(clusters, [a, b, c]) ? true : undefined));
    const hers = clusters.filter((n) => b.manager.ownsNow(n));
    expect(hers.length).to.be.greaterThan(0);
    b.api.link = 'killed';
    const killedAt = clock.now();
    let takenAt: number | undefined;
    while (takenAt === undefined) {
      await step();
      if (hers.some((n) => a.manager.ownsNow(n) || c.manager.ownsNow(n))) takenAt = clock.now();
      if (clock.now() - killedAt > 10 * LEASE.leaseDurationMs) throw new Error('never taken over');
    }
    // Its last renewal was at most one retry period before the kill; the others wait a full duration from seeing it.
    expect(takenAt - killedAt, 'fake ms until taken over').to.be.at.least(LEASE.leaseDurationMs - LEASE.retryPeriodMs);
    // ...and no longer than the bound: duration + a retry period to notice and publish (+ one step of this loop).
    expect(takenAt - killedAt).to.be.at.most(LEASE.leaseDurationMs + 3 * LEASE.retryPeriodMs);
    b.stopped = true; // its in-process remains stop in afterEach
    replicas = replicas.filter((r) => r !== b);
    await stepUntil('2 replicas settled', () => (settledOn(clusters, [a, c]) ? true : undefined));
    await b.manager.stop();
  });

  it('a replica that cannot renew stops writing before its Lease expires for the others, then rejoins from an empty claim', async () => {
    const clusters = names(30);
    for (const c of clusters) putCluster(c, '/flap');
    const a = startReplica('replica-a');
    const b = startReplica('replica-b');
    await stepUntil('2 replicas settled', () => (settledOn(clusters, [a, b]) ? true : undefined));
    await until('writes from b', () => (kube.clusterWrites.some((w) => w.writer === 'replica-b') ? true : undefined));
    b.api.link = 'no-leases'; // its Cluster writes still go through: only the fence can stop them
    const cutAt = clock.now();
    // Up to the renew deadline (measured from its last renewal, at most a retry period before the cut) it may act.
    while (clock.now() - cutAt < LEASE.renewDeadlineMs) await step();
    await stepUntil('b stopped', () => (b.manager.isLeader ? undefined : true));
    const stoppedAt = clock.now();
    const writesThen = kube.clusterWrites.filter((w) => w.writer === 'replica-b').length;
    expect(stoppedAt - cutAt, 'stopped before its Lease could expire').to.be.below(
      LEASE.leaseDurationMs - LEASE.retryPeriodMs,
    );
    expect(kube.liveHolders(), 'its Lease still live at the apiserver').to.include('replica-b');
    // Real time for its probes to flap a few times: it writes nothing more.
    await sleep(1_500);
    expect(kube.clusterWrites.filter((w) => w.writer === 'replica-b').length).to.equal(writesThen);
    await stepUntil('a took everything', () => (settledOn(clusters, [a]) ? true : undefined));
    b.api.link = 'up';
    await stepUntil('2 replicas settled again', () => (settledOn(clusters, [a, b]) ? true : undefined));
  });

  it('a replica whose Lease watch stalls (no event, no error) lets no live peer go: it reads their Leases first', async () => {
    const clusters = names(30);
    for (const c of clusters) putCluster(c, '/flap');
    const a = startReplica('replica-a');
    const b = startReplica('replica-b');
    await stepUntil('2 replicas settled', () => (settledOn(clusters, [a, b]) ? true : undefined));
    a.api.link = 'deaf';
    const from = clock.now();
    while (clock.now() - from < 3 * LEASE.leaseDurationMs) {
      await step();
      expect(overlaps(clusters), 'a Cluster held by two replicas').to.deep.equal([]);
    }
    expect(settledOn(clusters, [a, b]), 'the same two replicas, each its share').to.equal(true);
  });

  it('a partition of one replica (every target of its own fails) taints none of its Clusters', async () => {
    const clusters = names(12);
    for (const c of clusters) putCluster(c, '/ok');
    const a = startReplica('replica-a', { guard: true });
    // b cannot reach any member: every probe of its own is refused.
    const b = startReplica('replica-b', { guard: true, partitioned: true });
    await stepUntil('2 replicas settled', () => (settledOn(clusters, [a, b]) ? true : undefined));
    const hers = clusters.filter((n) => b.manager.ownsNow(n));
    expect(hers.length).to.be.at.least(2);
    // Its guard blames itself: Healthy=Unknown (ProberDisrupted) on its Clusters, and no taint anywhere.
    await until('b withholds', () =>
      hers.every((n) => kube.cluster(n)?.status?.conditions?.find((x) => x.type === 'Healthy')?.status === 'Unknown')
        ? true
        : undefined,
    );
    await sleep(2_000);
    for (const n of clusters) expect(isTainted(kube.cluster(n)), n).to.equal(false);
    expect(clusters.filter((n) => isTainted(kube.cluster(n)))).to.deep.equal([]);
  });

  it('without its guard, the same partition taints its Clusters (the test above can fail)', async () => {
    const clusters = names(12);
    for (const c of clusters) putCluster(c, '/ok');
    const a = startReplica('replica-a');
    const b = startReplica('replica-b', { partitioned: true });
    await stepUntil('2 replicas settled', () => (settledOn(clusters, [a, b]) ? true : undefined));
    const hers = clusters.filter((n) => b.manager.ownsNow(n));
    await until('b taints its own', () => (hers.every((n) => isTainted(kube.cluster(n))) ? true : undefined));
    expect(
      clusters.filter((n) => !hers.includes(n)).some((n) => (kube.cluster(n)?.spec.taints ?? []).length > 0),
    ).to.equal(false);
  });

  it('a gained Cluster is fetched whole before its worker starts (the cache holds only its stub)', async () => {
    const clusters = names(20);
    for (const c of clusters) putCluster(c, '/down');
    const a = startReplica('replica-a');
    const b = startReplica('replica-b');
    await stepUntil('2 replicas settled', () => (settledOn(clusters, [a, b]) ? true : undefined));
    // Every Cluster failing: tainted by its owner.
    await until('all tainted', () => (clusters.every((n) => isTainted(kube.cluster(n))) ? true : undefined));
    const gets = kube.clusterWrites.length;
    b.stopped = true;
    await b.manager.stop();
    await stepUntil('a took everything', () => (settledOn(clusters, [a]) ? true : undefined));
    // a probed them from the whole object (its probe was not in the stub): each keeps its taint, written once.
    await sleep(1_500);
    expect(clusters.every((n) => a.manager.clusterManager?.stateOf(n) === 'failure')).to.equal(true);
    expect(kube.clusterWrites.length, 'no write again for a verdict already written').to.equal(gets);
  });
});
