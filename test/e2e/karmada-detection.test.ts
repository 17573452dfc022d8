// Detection side by side with Karmada's own health check, on a real Karmada v1.18.2 (src/dev/karmada.ts), the small
// version of bench/detection kept in the suite so it does not rot. Short periods: Karmada's cluster status every 2 s
// with --cluster-failure-threshold and --cluster-success-threshold 0 s (one failed /readyz is Ready=False; defaults 30 s),
// our probe apiServer {minReadyNodes: 2} every 1 s, failureThreshold 2. Two cases on member1:
//   - its kube-apiserver SIGSTOPped (connections hang): both taint it, ours first (Karmada's client waits its fixed
//     32 s timeout for /readyz), and karmada-scheduler places a new workload on member2 alone;
//   - every Node NotReady, the apiserver answering: ours taints within failureThreshold x period + 3 s; Karmada records
//     readyNum 0 in its node summary and still keeps Ready=True and adds no taint over the whole window.
// CLUSTER_PROBE_E2E_DETECTION_MIN_READY_NODES=0 probes with minReadyNodes 0 (node readiness not counted): the nodes
// case then fails, as detection through /readyz alone does.
import { expect } from 'chai';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../../src/kube/index.js';
import { annotateProbe, startKarmada, type KarmadaControlPlane } from '../../src/dev/karmada.js';
import { pauseApiServer } from '../../src/dev/member-faults.js';
import { startReconciler, type ReconcilerProcess } from './support/reconciler-env.js';
import { bothHealthy, ClusterTimeline, FACTS, firstPlacementOnly, type ClusterState } from './support/detection.js';

const PERIOD_S = 1;
const FAILURE_THRESHOLD = 2;
const KARMADA_STATUS_EVERY_S = 2;
/** Karmada's member client gives up on a request after this (pkg/util/membercluster_client.go, defaultTimeout). */
const KARMADA_CLIENT_TIMEOUT_S = 32;
const NODES = 2;
const MIN_READY_NODES = Number(process.env.CLUSTER_PROBE_E2E_DETECTION_MIN_READY_NODES ?? NODES);
/** How long the nodes case watches Karmada for a Ready change or a taint of its own. */
const WINDOW_MS = 15_000;
const FAILING = 'member1';
const HEALTHY = 'member2';

const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

describe('Karmada v1.18.2: detection side by side with Karmada’s own health check (e2e)', function () {
  this.timeout(180_000);
  let karmada: KarmadaControlPlane | undefined;
  let reconciler: ReconcilerProcess | undefined;
  let timeline: ClusterTimeline | undefined;
  let api: KubeClient;
  let resume: (() => void) | undefined;

  before(async function () {
    karmada = await startKarmada({
      members: 2,
      nodesPerMember: NODES,
      clusterStatusUpdateSeconds: KARMADA_STATUS_EVERY_S,
      extraControllerManagerArgs: ['--cluster-failure-threshold=0s', '--cluster-success-threshold=0s'],
    });
    const kc = new KubeConfig();
    kc.loadFromFile(karmada.host.kubeconfigPath);
    api = new KubeClient(kc);
    const probe = {
      apiServer: { minReadyNodes: MIN_READY_NODES },
      periodSeconds: PERIOD_S,
      failureThreshold: FAILURE_THRESHOLD,
    };
    const k = karmada;
    for (const member of k.members) await annotateProbe((args) => k.kubectl(args), member.name, probe);
    reconciler = await startReconciler('karmada-detection', karmada.host.kubeconfigPath, []);
    timeline = new ClusterTimeline(api, 250);
    timeline.start();
    await timeline.waitLatest([FAILING, HEALTHY], bothHealthy, 60_000);
  });

  after(async function () {
    resume?.();
    await timeline?.stop();
    await reconciler?.kill('SIGTERM');
    await karmada?.stop();
  });

  it('a member whose apiserver hangs: both taint it, ours first, and karmada-scheduler avoids it', async function () {
    const t0 = Date.now();
    const paused = pauseApiServer(karmada!.members.find((m) => m.name === FAILING)!.controlPlane);
    resume = () => paused.resume();
    const karmadaBound = t0 + (KARMADA_STATUS_EVERY_S + KARMADA_CLIENT_TIMEOUT_S + 15) * 1000;
    const [ourTaint, placement, karmadaTaint] = await Promise.all([
      timeline!.waitFirst(FAILING, t0, FACTS.ourTaint, t0 + (FAILURE_THRESHOLD * PERIOD_S + 3) * 1000),
      firstPlacementOnly(karmada!, api, { healthy: HEALTHY, prefix: 'paused', deadline: t0 + 30_000, everyMs: 2_000 }),
      timeline!.waitFirst(FAILING, t0, FACTS.karmadaTaint, karmadaBound),
    ]);
    const karmadaNotReady = timeline!.first(FAILING, t0, FACTS.karmadaNotReady);
    process.stderr.write(
      `      apiserver paused: our taint ${ourTaint === undefined ? 'never' : s(ourTaint - t0)}, ` +
        `Karmada Ready not True ${karmadaNotReady === undefined ? 'never' : s(karmadaNotReady - t0)}, ` +
        `Karmada's taint ${karmadaTaint === undefined ? 'never' : s(karmadaTaint - t0)}, ` +
        `new workload on ${HEALTHY} only ${placement === undefined ? 'never' : s(placement.seenAt - t0)}\n`,
    );
    expect(ourTaint, `our taint within ${FAILURE_THRESHOLD * PERIOD_S + 3} s`).to.not.equal(undefined);
    expect(karmadaTaint, "Karmada's not-ready/unreachable taint").to.not.equal(undefined);
    expect(karmadaNotReady, "Karmada's Ready leaves True").to.not.equal(undefined);
    // A Push member is never Ready=Unknown (only a Pull member's lapsed lease is), so the taint is not-ready.
    expect(timeline!.since(FAILING, t0).find(FACTS.karmadaTaint)?.karmadaTaints).to.deep.equal([
      'cluster.karmada.io/not-ready',
    ]);
    expect(ourTaint!, 'ours first').to.be.below(karmadaTaint!);
    expect(placement, `a new workload scheduled on ${HEALTHY} alone`).to.not.equal(undefined);
    expect(timeline!.latest(HEALTHY)?.ourTaint).to.equal(false);
    paused.resume();
    resume = undefined;
    await timeline!.waitLatest([FAILING, HEALTHY], bothHealthy, 60_000);
  });

  it("a member whose nodes are all NotReady: ours taints within the bound; Karmada's Ready stays True, no taint of its own", async function () {
    const t0 = Date.now();
    await karmada!.setNodesReady(FAILING, false);
    const bound = (FAILURE_THRESHOLD * PERIOD_S + 3) * 1000;
    const [ourTaint, placement] = await Promise.all([
      timeline!.waitFirst(FAILING, t0, FACTS.ourTaint, t0 + bound),
      firstPlacementOnly(karmada!, api, { healthy: HEALTHY, prefix: 'nodes', deadline: t0 + 20_000, everyMs: 2_000 }),
    ]);
    const left = t0 + WINDOW_MS - Date.now();
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    const seen: ClusterState[] = timeline!.since(FAILING, t0);
    process.stderr.write(
      `      nodes NotReady: our taint ${ourTaint === undefined ? 'never' : s(ourTaint - t0)} (bound ${s(bound)}), ` +
        `new workload on ${HEALTHY} only ${placement === undefined ? 'never' : s(placement.seenAt - t0)}, ` +
        `Karmada over ${s(WINDOW_MS)}: Ready ${[...new Set(seen.map((x) => x.ready))].join('/')}, ` +
        `readyNum ${[...new Set(seen.map((x) => x.readyNodes))].join('/')}, ` +
        `taints ${[...new Set(seen.flatMap((x) => x.karmadaTaints))].join(',') || 'none'}\n`,
    );
    expect(ourTaint, `our taint within ${s(bound)}`).to.not.equal(undefined);
    expect(placement, `a new workload scheduled on ${HEALTHY} alone`).to.not.equal(undefined);
    // Karmada saw the nodes (its node summary drops to 0 ready) and still calls the member Ready.
    expect(
      seen.some((x) => x.readyNodes === 0),
      'Karmada recorded 0 ready nodes',
    ).to.equal(true);
    expect(seen.filter(FACTS.karmadaNotReady), "Karmada's Ready left True").to.deep.equal([]);
    expect(seen.filter(FACTS.karmadaTaint), 'Karmada tainted the member').to.deep.equal([]);
    await karmada!.setNodesReady(FAILING, true);
    await timeline!.waitLatest([FAILING, HEALTHY], bothHealthy, 30_000);
  });
});
