// bench/detection: how long until karmada-scheduler stops placing work on a broken member, through Karmada's own health
// check and through ours, side by side on the real Karmada playground (src/dev/karmada.ts: karmada-apiserver, the
// aggregated apiserver, controller manager, scheduler, webhook, two member kube-apiservers with two fake Nodes each)
// and our reconciler (`cluster-probe reconcile` from source), both at their DEFAULTS: Karmada's controller manager with
// no timing flag but --cluster-status-update-frequency=10s (the harness passes it; 10 s is Karmada's default), our probe
// in the annotation with only `apiServer: {minReadyNodes: 2}` so period, timeout and thresholds are the schema's defaults.
// Cases, each timed from the fault, each given up after --limit-seconds (then "never within N s"), each restored and
// waited out (both members healthy for both) before the next:
//   paused  member1's kube-apiserver SIGSTOPped: connections accepted by the kernel, never answered (a hung host)
//   killed  member1's kube-apiserver SIGKILLed: connection refused (a crashed apiserver); restarted on the same port
//   nodes   every Node of member1 NotReady while its apiserver answers (what Karmada's /readyz check cannot see)
// Columns: our Healthy=False, our taint, Karmada's Ready not True, Karmada's not-ready/unreachable taint, and the first
// new workload (a Duplicated PropagationPolicy naming both members; one created every 2 s) scheduled on member2 alone.
// Usage: npx tsx bench/detection/index.ts [--limit-seconds 300] [--cases paused,killed,nodes] [--json FILE]
// Needs CLUSTER_PROBE_CONTROLPLANE_BIN and CLUSTER_PROBE_KARMADA_BIN (the e2e's cached binaries), else builds them.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { TIMING_DEFAULTS } from '../../packages/schema/src/api/index.js';
import { KubeClient } from '../../src/kube/index.js';
import { annotateProbe, startKarmada, type KarmadaControlPlane } from '../../src/dev/karmada.js';
import { karmadaBinaries } from '../../src/dev/karmada-playground.js';
import { killApiServer, pauseApiServer } from '../../src/dev/member-faults.js';
import { controlPlaneBinaries } from '../../src/dev/playground.js';
import { startReconciler } from '../../src/dev/reconciler-process.js';
import type { CliInvocation } from '../../src/dev/webhook-process.js';
import {
  bothHealthy,
  ClusterTimeline,
  FACTS,
  firstPlacementOnly,
  type ClusterState,
  type Fact,
} from '../../test/e2e/support/detection.js';

const { values } = parseArgs({
  options: {
    'limit-seconds': { type: 'string', default: '300' },
    cases: { type: 'string', default: 'paused,killed,nodes' },
    json: { type: 'string' },
  },
});
const LIMIT_S = Math.max(30, Number(values['limit-seconds']) || 300);
const CASES = ['paused', 'killed', 'nodes'] as const;
type CaseName = (typeof CASES)[number];
const chosen = values.cases.split(',').filter((c): c is CaseName => (CASES as readonly string[]).includes(c));
const NODES_PER_MEMBER = 2;
/** Our probe as a Karmada user writes it: the handler only; the reconciler applies TIMING_DEFAULTS in memory. */
const PROBE = { apiServer: { minReadyNodes: NODES_PER_MEMBER } };
/**
 * Karmada v1.18.2's defaults that decide its detection of a Push member (cmd/controller-manager/app/options/options.go,
 * pkg/util/membercluster_client.go); none is passed, except the first, whose value the harness passes is the default.
 */
const KARMADA_DEFAULTS = {
  clusterStatusUpdateFrequencySeconds: 10,
  clusterFailureThresholdSeconds: 30,
  clusterSuccessThresholdSeconds: 30,
  memberClientTimeoutSeconds: 32,
};
const PLACE_EVERY_MS = 2_000;
const FAILING = 'member1';
const HEALTHY = 'member2';
const CLI: CliInvocation = {
  command: process.execPath,
  args: ['--import', 'tsx', fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url))],
};

const log = (line: string): void => {
  process.stderr.write(`detection: ${line}\n`);
};

interface CaseResult {
  case: CaseName;
  fault: string;
  limitSeconds: number;
  /** Seconds from the fault; null: not within the limit. */
  ourHealthyFalse: number | null;
  ourTaint: number | null;
  karmadaNotReady: number | null;
  karmadaTaint: number | null;
  scheduledOnHealthyOnly: number | null;
  /** The keys of Karmada's taints on member1 when (iv) was first seen. */
  karmadaTaintKeys: string[];
  /** The taints on member1 when that workload was scheduled: whose verdict the scheduler obeyed. */
  avoidedThrough: string | null;
  workloadsCreated: number;
  /** Karmada's status.nodeSummary.readyNum of member1 at the end of the case (it sees the nodes, case nodes). */
  karmadaReadyNodesAtEnd: number | null;
  karmadaReadyAtEnd: string | null;
  /** Seconds from the repair until member1 was healthy for both again. */
  recoverySeconds: number;
}

const FAULTS: Record<CaseName, string> = {
  paused: "member1's kube-apiserver SIGSTOPped (connections hang)",
  killed: "member1's kube-apiserver SIGKILLed (connection refused)",
  nodes: 'every Node of member1 NotReady, its apiserver answering',
};

/** Injects the fault; returns the repair. */
async function inject(karmada: KarmadaControlPlane, name: CaseName): Promise<() => Promise<void>> {
  const member = karmada.members.find((m) => m.name === FAILING)!;
  switch (name) {
    case 'paused': {
      const paused = pauseApiServer(member.controlPlane);
      return () => Promise.resolve(paused.resume());
    }
    case 'killed': {
      const killed = await killApiServer(member.controlPlane);
      return () => killed.restart();
    }
    case 'nodes':
      await karmada.setNodesReady(FAILING, false);
      return () => karmada.setNodesReady(FAILING, true);
  }
}

const seconds = (from: number, at: number | undefined): number | null =>
  at === undefined ? null : Math.round((at - from) / 100) / 10;

function taintsAt(timeline: ClusterTimeline, since: number, at: number): string {
  const before = timeline.since(FAILING, since).filter((s) => s.at <= at);
  const last: ClusterState | undefined = before.at(-1);
  if (last === undefined) return 'unknown';
  const whose = [...(last.ourTaint ? ['ours'] : []), ...(last.karmadaTaints.length > 0 ? ["Karmada's"] : [])];
  return whose.length === 0 ? 'none seen' : whose.join(' + ');
}

async function runCase(
  karmada: KarmadaControlPlane,
  api: KubeClient,
  timeline: ClusterTimeline,
  name: CaseName,
): Promise<CaseResult> {
  log(`case ${name}: ${FAULTS[name]}; giving up after ${LIMIT_S} s`);
  const t0 = Date.now();
  const repair = await inject(karmada, name);
  const deadline = t0 + LIMIT_S * 1000;
  const facts = Object.keys(FACTS) as Fact[];
  let result: CaseResult;
  try {
    const [times, placement] = await Promise.all([
      Promise.all(
        facts.map(async (fact) => {
          const at = await timeline.waitFirst(FAILING, t0, FACTS[fact], deadline);
          log(`  ${fact}: ${at === undefined ? `never within ${LIMIT_S} s` : `${seconds(t0, at)} s`}`);
          return at;
        }),
      ),
      firstPlacementOnly(karmada, api, {
        healthy: HEALTHY,
        prefix: `detect-${name}-${Date.now().toString(36)}`,
        deadline,
        everyMs: PLACE_EVERY_MS,
      }),
    ]);
    log(
      `  new workload on ${HEALTHY} only: ${placement === undefined ? `never within ${LIMIT_S} s` : `${seconds(t0, placement.seenAt)} s (${placement.workload})`}`,
    );
    const byFact = Object.fromEntries(facts.map((f, i) => [f, seconds(t0, times[i])])) as Record<Fact, number | null>;
    const last = timeline.latest(FAILING);
    result = {
      case: name,
      fault: FAULTS[name],
      limitSeconds: LIMIT_S,
      ...byFact,
      karmadaTaintKeys: timeline.since(FAILING, t0).find(FACTS.karmadaTaint)?.karmadaTaints ?? [],
      scheduledOnHealthyOnly: seconds(t0, placement?.seenAt),
      avoidedThrough: placement === undefined ? null : taintsAt(timeline, t0, placement.createdAt),
      workloadsCreated: placement?.tried ?? Math.ceil((Date.now() - t0) / PLACE_EVERY_MS),
      karmadaReadyNodesAtEnd: last?.readyNodes ?? null,
      karmadaReadyAtEnd: last?.ready ?? null,
      recoverySeconds: 0,
    };
  } finally {
    log(`  repairing member1`);
    await repair();
  }
  const repairedAt = Date.now();
  await timeline.waitLatest([FAILING, HEALTHY], bothHealthy, 300_000);
  result.recoverySeconds = seconds(repairedAt, Date.now()) ?? 0;
  log(`  both members healthy for both ${result.recoverySeconds} s after the repair`);
  return result;
}

const cell = (v: number | null): string => (v === null ? `never within ${LIMIT_S} s` : `${v.toFixed(1)} s`);

function table(results: CaseResult[]): string {
  const rows = [
    '| Case | (i) our Healthy=False | (ii) our taint | (iii) Karmada Ready not True | (iv) Karmada not-ready/unreachable taint | (v) new workload on member2 only | avoided through |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    rows.push(
      `| ${r.fault} | ${cell(r.ourHealthyFalse)} | ${cell(r.ourTaint)} | ${cell(r.karmadaNotReady)} | ${cell(r.karmadaTaint)} | ${cell(r.scheduledOnHealthyOnly)} | ${r.avoidedThrough ?? '-'} |`,
    );
  }
  return rows.join('\n');
}

async function main(): Promise<void> {
  const wallStart = Date.now();
  const karmada = await startKarmada({
    controlPlaneBinDir: await controlPlaneBinaries(log),
    karmadaBinDir: await karmadaBinaries(log),
    members: 2,
    nodesPerMember: NODES_PER_MEMBER,
    clusterStatusUpdateSeconds: KARMADA_DEFAULTS.clusterStatusUpdateFrequencySeconds,
    name: 'detection-bench',
    log,
  });
  const kc = new KubeConfig();
  kc.loadFromFile(karmada.host.kubeconfigPath);
  const api = new KubeClient(kc);
  const timeline = new ClusterTimeline(api);
  const results: CaseResult[] = [];
  try {
    for (const member of karmada.members) {
      await annotateProbe((args) => karmada.kubectl(args), member.name, PROBE);
    }
    log(`probe ${JSON.stringify(PROBE)} with the defaults ${JSON.stringify(TIMING_DEFAULTS)}`);
    const reconciler = await startReconciler(CLI, karmada.host.dir, karmada.host.kubeconfigPath, (group) =>
      karmada.host.adopt(group),
    );
    log(`reconciler up (${reconciler.metricsUrl}, log ${reconciler.logPath})`);
    timeline.start();
    await timeline.waitLatest([FAILING, HEALTHY], bothHealthy, 120_000);
    log('both members healthy for Karmada and for us');
    for (const name of chosen) results.push(await runCase(karmada, api, timeline, name));
  } finally {
    await timeline.stop();
    await karmada.stop();
  }
  const report = {
    date: new Date().toISOString(),
    command: `npx tsx bench/detection/index.ts${process.argv.slice(2).length > 0 ? ` ${process.argv.slice(2).join(' ')}` : ''}`,
    wallSeconds: Math.round((Date.now() - wallStart) / 1000),
    karmada: { version: 'v1.18.2', defaults: KARMADA_DEFAULTS },
    ours: { probe: PROBE, defaults: TIMING_DEFAULTS, taintEffect: 'NoSchedule' },
    placementEverySeconds: PLACE_EVERY_MS / 1000,
    results,
  };
  process.stdout.write(`${table(results)}\n\n${JSON.stringify(report, null, 2)}\n`);
  if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
}

await main();
