// The disruption guard in the running manager, against an in-memory apiserver and real probe targets on 127.0.0.1:
// every Cluster failing at once (the prober's own network broke) taints nothing and says why; a real failure of one
// domain is still tainted on time; a partially disrupted domain holds evicting verdicts; a sentinel that fails
// blames the prober; a restart in the middle of a disruption writes nothing; with the guard off, the old behaviour.
// On the real clock, so it asserts what happened and in what order, counted in probes and writes; its deadlines only
// catch a hang (docs/testing.md). The rates and waits in time are the guard's unit test's, on a fake clock.
import http from 'node:http';
import { expect } from 'chai';
import { ClusterManager, createMetrics, type ReconcilerMetrics } from '../../../src/reconciler/index.js';
import type { DisruptionOptions } from '../../../src/reconciler/cluster-controller.js';
import { close, listen } from '../probe/servers.js';
import { FakeApiServer } from '../../support/fake-apiserver.js';
import {
  aCluster,
  healthyOf as healthy,
  httpProbe,
  isTainted as tainted,
  type ClusterOptions,
} from '../../support/cluster.js';
import { HANG_MS, until } from './until.js';

const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
const PERIOD_S = 1;
const FAILURE_THRESHOLD = 2;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('disruption guard in the manager (in-memory apiserver, real probe targets)', function () {
  this.timeout(4 * HANG_MS); // catches a hang only: each wait below has a HANG_MS deadline of its own
  let kube: FakeApiServer;
  let metrics: ReconcilerMetrics;
  let manager: ClusterManager | undefined;
  let server: http.Server;
  let port = 0;
  /** Status by path; a path missing answers 200. `cut`: every connection is destroyed unanswered. */
  const status = new Map<string, number>();
  /** Requests by path, as the probes' target saw them. */
  const requests = new Map<string, number>();
  let cut = false;

  /** A Cluster probing /NAME on the test's server. */
  const cluster = (name: string, o: ClusterOptions = {}) =>
    aCluster(name, {
      probe: httpProbe(port, `/${name}`, { periodSeconds: PERIOD_S, failureThreshold: FAILURE_THRESHOLD }),
      ...o,
    });

  const start = async (
    options: { taintEffect?: 'NoSchedule' | 'NoExecute' | 'none'; disruption?: DisruptionOptions | false } = {},
  ): Promise<ClusterManager> => {
    manager = new ClusterManager({
      api: kube,
      taintEffect: options.taintEffect ?? 'NoSchedule',
      metrics,
      log: quiet,
      identity: 'test',
      ...(options.disruption !== undefined ? { disruption: options.disruption } : { disruption: { tickMs: 100 } }),
    });
    manager.start();
    await until('the Clusters listed', () => (manager!.ready ? true : undefined));
    return manager;
  };
  const allHealthy = (names: string[]): Promise<boolean> =>
    until(`${names.join(', ')} Healthy=True`, () =>
      names.every((n) => healthy(kube.cluster(n))?.status === 'True') ? true : undefined,
    );
  const taintWrites = (): string[] => kube.writes.filter((w) => w.startsWith('taints'));

  before(async () => {
    server = http.createServer((req, res) => {
      requests.set(req.url ?? '', (requests.get(req.url ?? '') ?? 0) + 1);
      if (cut) {
        req.socket.destroy();
        return;
      }
      res.writeHead(status.get(req.url ?? '') ?? 200);
      res.end();
    });
    port = await listen(server);
  });
  beforeEach(() => {
    kube = new FakeApiServer();
    metrics = createMetrics();
    status.clear();
    requests.clear();
    cut = false;
  });
  afterEach(async () => {
    await manager?.stop();
    manager = undefined;
  });
  after(async () => {
    await close(server);
  });

  it('every Cluster failing at once: no taint, Healthy=Unknown/ProberDisrupted with one Event each; healed, True again', async () => {
    const names = ['p1', 'p2', 'p3', 'p4'];
    for (const n of names) kube.putCluster(cluster(n));
    await start();
    await allHealthy(names);
    cut = true;
    // Ten periods of partition.
    const started = Date.now();
    await until(
      'every Cluster Unknown/ProberDisrupted',
      () => (names.every((n) => healthy(kube.cluster(n))?.reason === 'ProberDisrupted') ? true : undefined),
      10_000,
    );
    process.stderr.write(`      all withheld after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    await sleep(10 * PERIOD_S * 1000 - (Date.now() - started));
    for (const n of names) {
      const c = kube.cluster(n)!;
      expect(healthy(c)).to.include({ status: 'Unknown', reason: 'ProberDisrupted' });
      expect(healthy(c)?.message).to.match(/^verdict withheld: the prober itself is suspect \(all 4 Clusters/);
      expect(tainted(c)).to.equal(false);
    }
    expect(taintWrites()).to.deep.equal([]);
    const withheld = kube.events.filter((e) => e.reason === 'ProberDisrupted');
    expect(withheld.map((e) => e.involvedObject.name).sort()).to.deep.equal(names);
    expect(withheld.every((e) => e.type === 'Warning')).to.equal(true);
    const text = await metrics.registry.metrics();
    expect(text).to.include('cluster_probe_reconciler_prober_disrupted 1');
    expect(text).to.include('cluster_probe_reconciler_verdicts_withheld{reason="ProberDisrupted"} 4');
    cut = false;
    await allHealthy(names);
    expect(taintWrites()).to.deep.equal([]);
    expect(await metrics.registry.metrics()).to.include('cluster_probe_reconciler_prober_disrupted 0');
  });

  it('condition-only mode (--taint-effect None): a partition is never written as Healthy=False', async () => {
    const names = ['c1', 'c2', 'c3'];
    for (const n of names) kube.putCluster(cluster(n));
    await start({ taintEffect: 'none' });
    await allHealthy(names);
    const falses: string[] = [];
    const seen = setInterval(() => {
      for (const n of names) if (healthy(kube.cluster(n))?.status === 'False') falses.push(n);
    }, 20);
    try {
      cut = true;
      await until('every Cluster Unknown/ProberDisrupted', () =>
        names.every((n) => healthy(kube.cluster(n))?.reason === 'ProberDisrupted') ? true : undefined,
      );
      await sleep(3 * PERIOD_S * 1000);
    } finally {
      clearInterval(seen);
    }
    expect(falses, 'a ClusterTaintPolicy would have tainted these').to.deep.equal([]);
    expect(taintWrites()).to.deep.equal([]);
  });

  it('lifts a taint written before the disruption, and a restart during it writes nothing', async () => {
    const names = ['q1', 'q2', 'q3'];
    for (const n of names) kube.putCluster(cluster(n));
    status.set('/q1', 500);
    await start();
    await until('q1 tainted', () => (tainted(kube.cluster('q1')) ? true : undefined));
    cut = true;
    await until('q1 lifted', () =>
      !tainted(kube.cluster('q1')) && healthy(kube.cluster('q1'))?.reason === 'ProberDisrupted' ? true : undefined,
    );
    await until('all withheld', () =>
      names.every((n) => healthy(kube.cluster(n))?.reason === 'ProberDisrupted') ? true : undefined,
    );
    await manager!.stop();
    const before = kube.writes.length;
    const events = kube.events.length;
    metrics = createMetrics();
    await start();
    await sleep(5 * PERIOD_S * 1000);
    expect(kube.writes.slice(before)).to.deep.equal([]);
    expect(kube.events.length).to.equal(events);
  });

  it('a whole failure domain down while another is healthy: tainted on its failureThreshold-th failure, never held', async () => {
    const a = ['za1', 'za2'];
    const b = ['zb1', 'zb2'];
    for (const n of a) kube.putCluster(cluster(n, { region: 'r1', zones: ['a'] }));
    for (const n of b) kube.putCluster(cluster(n, { region: 'r1', zones: ['b'] }));
    await start({ taintEffect: 'NoExecute' });
    await allHealthy([...a, ...b]);
    const started = Date.now();
    const before = new Map(a.map((n) => [n, requests.get(`/${n}`) ?? 0]));
    const failedWhenTainted = new Map<string, number>();
    for (const n of a) status.set(`/${n}`, 503);
    await until('zone a tainted', () => {
      for (const n of a)
        if (!failedWhenTainted.has(n) && tainted(kube.cluster(n)))
          failedWhenTainted.set(n, (requests.get(`/${n}`) ?? 0) - before.get(n)!);
      return failedWhenTainted.size === a.length ? true : undefined;
    });
    process.stderr.write(
      `      zone a tainted after ${((Date.now() - started) / 1000).toFixed(1)} s (${FAILURE_THRESHOLD} x ${PERIOD_S} s; ` +
        `failed probes when tainted: ${[...failedWhenTainted.values()].join(', ')})\n`,
    );
    // Not held for periods: each taint came on the failure that crossed the threshold (or, on a busy machine, with
    // the next probe already on its way), and nothing was withheld on the way.
    for (const n of a) expect(failedWhenTainted.get(n), n).to.be.within(FAILURE_THRESHOLD, FAILURE_THRESHOLD + 1);
    expect(kube.history.filter((h) => h.startsWith('event ') && !h.includes('LivenessProbe'))).to.deep.equal([]);
    for (const n of a) expect(healthy(kube.cluster(n))).to.include({ status: 'False', reason: 'LivenessProbeFailed' });
    for (const n of b) expect(tainted(kube.cluster(n))).to.equal(false);
    expect(await metrics.registry.metrics()).to.include(
      'cluster_probe_reconciler_failure_domain_state{domain="r1/a",state="FullDisruption"} 1',
    );
  });

  it('a partially disrupted small domain: NoExecute verdicts held (DomainPartiallyDisrupted), NoSchedule ones written', async () => {
    const a = ['pa1', 'pa2', 'pa3', 'pa4'];
    const b = ['pb1', 'pb2', 'pb3', 'pb4'];
    for (const n of a) kube.putCluster(cluster(n, { region: 'a' }));
    for (const n of b) kube.putCluster(cluster(n, { region: 'b' }));
    await start({ taintEffect: 'NoExecute' });
    await allHealthy([...a, ...b]);
    const failing = a.slice(0, 3);
    for (const n of failing) status.set(`/${n}`, 500);
    await until('held', () =>
      failing.every((n) => healthy(kube.cluster(n))?.reason === 'DomainPartiallyDisrupted') ? true : undefined,
    );
    expect(healthy(kube.cluster('pa1'))?.message).to.include(
      'failure domain a is partially disrupted (3 of 4 failing) and small',
    );
    expect(taintWrites()).to.deep.equal([]);
    await manager!.stop();
    metrics = createMetrics();
    await start({ taintEffect: 'NoSchedule' });
    await until('tainted with NoSchedule', () => (failing.every((n) => tainted(kube.cluster(n))) ? true : undefined));
    expect(tainted(kube.cluster('pa4'))).to.equal(false);
  });

  it('a partially disrupted large domain: evicting verdicts one at a time at the domain rate (figures printed)', async () => {
    const a = Array.from({ length: 10 }, (_, i) => `la${i}`);
    const b = Array.from({ length: 10 }, (_, i) => `lb${i}`);
    for (const n of a) kube.putCluster(cluster(n, { region: 'a' }));
    for (const n of b) kube.putCluster(cluster(n, { region: 'b' }));
    await start({ taintEffect: 'NoExecute', disruption: { tickMs: 100, partialDisruptionRate: 0.5 } });
    await allHealthy([...a, ...b]);
    const failing = a.slice(0, 6);
    const started = Date.now();
    for (const n of failing) status.set(`/${n}`, 500);
    const times: number[] = [];
    await until(
      'all six tainted',
      () => {
        const now = failing.filter((n) => tainted(kube.cluster(n))).length;
        while (times.length < now) times.push(Date.now() - started);
        return now === failing.length ? true : undefined;
      },
      // At 0.5 a second the sixth comes 10 s after the first, about 12 s in on a quiet machine: a hang is far beyond.
      60_000,
    ).catch((err: unknown) => {
      for (const n of failing)
        process.stderr.write(`${n} ${JSON.stringify(healthy(kube.cluster(n)))} ${tainted(kube.cluster(n))}\n`);
      process.stderr.write(kube.writes.join(' ') + '\n');
      throw err;
    });
    process.stderr.write(
      `      6 of 10 failing in domain a (rate 0.5/s): tainted at ${times.map((t) => (t / 1000).toFixed(1)).join(', ')} s\n`,
    );
    // One at a time, in order of events: every taint but the first was held (DomainPartiallyDisrupted) before it was
    // written, and each taint was written alone. The 2 s between tokens is checked on the guard's clock in
    // test/unit/reconciler/disruption-guard.test.ts; here a busy machine may bunch the writes that follow it.
    const taints = kube.history.filter((h) => h.startsWith('taints '));
    expect(new Set(taints).size, 'six taints, one write each').to.equal(failing.length);
    const heldBefore = failing.filter((n) => {
      const heldAt = kube.history.indexOf(`event DomainPartiallyDisrupted ${n}`);
      return heldAt >= 0 && heldAt < kube.history.indexOf(`taints ${n}`);
    });
    expect(heldBefore.length, `held before their taint: ${heldBefore.join(', ')}`).to.be.at.least(4);
    for (const n of b) expect(tainted(kube.cluster(n))).to.equal(false);
  });

  it('a failing sentinel withholds a verdict while other Clusters answer; the guard off writes every verdict', async () => {
    const sentinel = http.createServer((_req, res) => {
      res.writeHead(500);
      res.end();
    });
    const sentinelPort = await listen(sentinel);
    try {
      const names = ['s1', 's2'];
      for (const n of names) kube.putCluster(cluster(n));
      status.set('/s1', 500);
      await start({
        disruption: { tickMs: 100, sentinels: [`http://127.0.0.1:${sentinelPort}/`], sentinelPeriodSeconds: 1 },
      });
      await until('s1 withheld', () => (healthy(kube.cluster('s1'))?.reason === 'ProberDisrupted' ? true : undefined));
      expect(healthy(kube.cluster('s1'))?.message).to.include(`sentinel http://127.0.0.1:${sentinelPort}/ failing`);
      expect(healthy(kube.cluster('s2'))?.status).to.equal('True');
      expect(taintWrites()).to.deep.equal([]);
    } finally {
      await close(sentinel);
    }
    await manager!.stop();
    kube = new FakeApiServer();
    metrics = createMetrics();
    const names = ['o1', 'o2', 'o3'];
    for (const n of names) kube.putCluster(cluster(n));
    cut = true;
    await start({ disruption: false });
    await until('every Cluster tainted', () => (names.every((n) => tainted(kube.cluster(n))) ? true : undefined));
  });
});
