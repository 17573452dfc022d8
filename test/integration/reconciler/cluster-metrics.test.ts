// The per-Cluster series in the running manager, against an in-memory apiserver and real probe targets on 127.0.0.1:
// the verdict each Cluster holds (healthy, failing, invalid, withheld), its latest result, consecutive failures against
// its threshold, results and transitions by Cluster; every series of a Cluster gone at once when it is deleted, stops
// being this replica's, or the replica stops. Names from src/facts/metric-names.ts, parsed from the exposition text.
import http from 'node:http';
import { expect } from 'chai';
import {
  CLUSTER_LABEL,
  CLUSTER_METRICS as M,
  MAX_SERIES_PER_CLUSTER,
  VERDICTS,
} from '../../../src/facts/metric-names.js';
import {
  ClusterManager,
  createMetrics,
  writeExposition,
  type ReconcilerMetrics,
} from '../../../src/reconciler/index.js';
import type { DisruptionOptions } from '../../../src/reconciler/cluster-controller.js';
import { close, listen } from '../probe/servers.js';
import { FakeApiServer } from '../../support/fake-apiserver.js';
import { aCluster, httpProbe, type ClusterOptions } from '../../support/cluster.js';
import { HANG_MS, until } from './until.js';

const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Every sample of the registry, parsed (label values here hold no quotes or commas). */
async function samples(metrics: ReconcilerMetrics): Promise<Sample[]> {
  // The scrape as /metrics writes it (a slice of Clusters at a time).
  let text = '';
  await writeExposition(metrics, (chunk) => {
    text += chunk;
  });
  // (Byte for byte what registry.metrics() writes: test/unit/reconciler/cluster-exposition.test.ts; here probes run
  // between two reads, so the two are not compared.)
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m === null) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-z_]+)="([^"]*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** The samples of one Cluster, as `name{other labels} value` lines, sorted. */
async function seriesOf(metrics: ReconcilerMetrics, cluster: string): Promise<string[]> {
  return (await samples(metrics))
    .filter((s) => s.labels[CLUSTER_LABEL] === cluster)
    .map((s) => {
      const rest = Object.entries(s.labels)
        .filter(([k]) => k !== CLUSTER_LABEL)
        .map(([k, v]) => `${k}=${v}`)
        .join(',');
      return `${s.name}{${rest}} ${s.value}`;
    })
    .sort();
}

async function valueOf(
  metrics: ReconcilerMetrics,
  name: string,
  labels: Record<string, string>,
): Promise<number | undefined> {
  return (await samples(metrics)).find(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  )?.value;
}

describe('per-Cluster metrics in the manager (in-memory apiserver, real probe targets)', function () {
  this.timeout(4 * HANG_MS); // catches a hang only: each wait below has a HANG_MS deadline of its own
  let kube: FakeApiServer;
  let metrics: ReconcilerMetrics;
  let manager: ClusterManager | undefined;
  let server: http.Server;
  let port = 0;
  const status = new Map<string, number>();

  /** A Cluster probing /NAME on the test's server. */
  const cluster = (name: string, o: ClusterOptions = {}) =>
    aCluster(name, { probe: httpProbe(port, `/${name}`, { periodSeconds: 1, failureThreshold: 2 }), ...o });
  const start = async (disruption: DisruptionOptions | false = false): Promise<ClusterManager> => {
    manager = new ClusterManager({
      api: kube,
      taintEffect: 'NoSchedule',
      metrics,
      log: quiet,
      identity: 't',
      disruption,
    });
    manager.start();
    await until('the Clusters listed', () => Promise.resolve(manager!.ready ? true : undefined));
    return manager;
  };
  const verdict = (name: string, v: string): Promise<boolean> =>
    until(`${name} holds verdict ${v}`, async () =>
      (await valueOf(metrics, M.verdict.name, { [CLUSTER_LABEL]: name, verdict: v })) === 1 ? true : undefined,
    );

  before(async () => {
    server = http.createServer((req, res) => {
      res.writeHead(status.get(req.url ?? '') ?? 200);
      res.end();
    });
    port = await listen(server);
  });
  beforeEach(() => {
    kube = new FakeApiServer();
    metrics = createMetrics();
    status.clear();
  });
  afterEach(async () => {
    await manager?.stop();
    manager = undefined;
  });
  after(() => close(server));

  it('labels each Cluster with member_cluster: its verdict, latest result, consecutive failures, results and transitions', async () => {
    status.set('/m-bad', 500);
    kube.putCluster(cluster('m-ok'));
    kube.putCluster(cluster('m-bad'));
    kube.putCluster(cluster('m-invalid', { probe: { httpGet: { port, path: 'no-slash' } } }));
    await start();
    await verdict('m-ok', 'healthy');
    await verdict('m-bad', 'failing');
    await verdict('m-invalid', 'invalid');
    const bad = await seriesOf(metrics, 'm-bad');
    expect(bad).to.include.members([
      `${M.verdict.name}{verdict=failing} 1`,
      `${M.probeSuccess.name}{} 0`,
      `${M.failureThreshold.name}{} 2`,
      `${M.transitions.name}{to=failure} 1`,
    ]);
    const failures = bad.find((l) => l.startsWith(M.consecutiveFailures.name));
    expect(Number(failures?.split(' ')[1])).to.be.at.least(2);
    const verdicts = bad.filter((l) => l.startsWith(M.verdict.name));
    expect(verdicts, 'a state set').to.have.length(VERDICTS.length);
    expect(verdicts.filter((l) => l.endsWith(' 1'))).to.deep.equal([`${M.verdict.name}{verdict=failing} 1`]);
    expect(bad.length).to.be.at.most(MAX_SERIES_PER_CLUSTER);
    const ok = await seriesOf(metrics, 'm-ok');
    expect(ok).to.include.members([`${M.probeSuccess.name}{} 1`, `${M.consecutiveFailures.name}{} 0`]);
    expect(ok.some((l) => l.startsWith(`${M.probes.name}{result=success}`))).to.equal(true);
    const stamp = await valueOf(metrics, M.lastTransition.name, { [CLUSTER_LABEL]: 'm-ok' });
    expect(Math.abs((stamp ?? 0) - Date.now() / 1000)).to.be.below(30);
    // An invalid probe is never run: a verdict, no results.
    expect(await seriesOf(metrics, 'm-invalid')).to.deep.equal(
      [
        `${M.consecutiveFailures.name}{} 0`,
        ...VERDICTS.map((v) => `${M.verdict.name}{verdict=${v}} ${v === 'invalid' ? 1 : 0}`),
      ].sort(),
    );
    // Recovery: failing goes to 0 (an alert on it resolves at the next scrape), the transition is counted.
    status.delete('/m-bad');
    await verdict('m-bad', 'healthy');
    expect(await valueOf(metrics, M.verdict.name, { [CLUSTER_LABEL]: 'm-bad', verdict: 'failing' })).to.equal(0);
    expect(await valueOf(metrics, M.transitions.name, { [CLUSTER_LABEL]: 'm-bad', to: 'success' })).to.equal(1);
  });

  it('drops every series of a Cluster at once when it is deleted, loses its probe, or stops being ours', async () => {
    for (const n of ['d-deleted', 'd-noprobe', 'd-pull', 'd-kept']) kube.putCluster(cluster(n));
    await start();
    for (const n of ['d-deleted', 'd-noprobe', 'd-pull', 'd-kept']) await verdict(n, 'healthy');
    // Deleted: the informer's DELETED event, as the apiserver sends it.
    kube.deleteCluster('d-deleted');
    kube.putCluster(aCluster('d-noprobe'));
    // A Pull Cluster is its in-member agent's, not this replica's.
    kube.putCluster(cluster('d-pull', { syncMode: 'Pull' }));
    await manager!.idle();
    for (const n of ['d-deleted', 'd-noprobe', 'd-pull'])
      await until(`no series of ${n}`, async () => ((await seriesOf(metrics, n)).length === 0 ? true : undefined));
    expect((await seriesOf(metrics, 'd-kept')).length).to.be.above(3);
    // The replica stops (or loses the lease): it reports no Cluster any more.
    await manager!.stop();
    expect((await samples(metrics)).filter((s) => s.labels[CLUSTER_LABEL] !== undefined)).to.deep.equal([]);
  });

  it('holds "withheld" while the disruption guard withholds a failure verdict', async () => {
    for (const n of ['w1', 'w2', 'w3']) kube.putCluster(cluster(n));
    await start({ tickMs: 100 });
    for (const n of ['w1', 'w2', 'w3']) await verdict(n, 'healthy');
    for (const n of ['w1', 'w2', 'w3']) status.set(`/${n}`, 503);
    for (const n of ['w1', 'w2', 'w3']) await verdict(n, 'withheld');
    expect(await valueOf(metrics, M.probeSuccess.name, { [CLUSTER_LABEL]: 'w1' })).to.equal(0);
  });
});
