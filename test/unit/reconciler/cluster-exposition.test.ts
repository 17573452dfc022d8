// The per-Cluster series kept in ClusterMetrics' own records (issue 39) against prom-client itself: the same calls made
// on prom-client Gauges and Counters (what the series were before) give the same samples and headers, label values
// escaped alike; writeExposition() writes exactly registry.metrics(), a slice of Clusters at a time with the event
// loop free between slices, and skips a Cluster removed while a scrape is under way.
import { expect } from 'chai';
import { Counter, Gauge, Registry } from 'prom-client';
import { CLUSTER_LABEL, CLUSTER_METRICS as M, VERDICTS, type Verdict } from '../../../src/facts/metric-names.js';
import { EXPOSITION_CLUSTERS_PER_CHUNK, createMetrics, writeExposition } from '../../../src/reconciler/metrics.js';
import type { ProbeOutcome } from '@karmada-cluster-probe/probe';

/** The series as prom-client held them before: the reference. */
function promClientSeries(registry: Registry) {
  const registers = [registry];
  const g = (m: { name: string; help: string; labels: readonly string[] }) =>
    new Gauge({ name: m.name, help: m.help, labelNames: [CLUSTER_LABEL, ...m.labels], registers });
  const c = (m: { name: string; help: string; labels: readonly string[] }) =>
    new Counter({ name: m.name, help: m.help, labelNames: [CLUSTER_LABEL, ...m.labels], registers });
  return {
    verdict: g(M.verdict),
    success: g(M.probeSuccess),
    duration: g(M.probeDuration),
    probes: c(M.probes),
    transitions: c(M.transitions),
    lastTransition: g(M.lastTransition),
    consecutive: g(M.consecutiveFailures),
    threshold: g(M.failureThreshold),
  };
}

const sortedLines = (text: string): string[] =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .sort();

describe('per-Cluster series in records of our own, written as prom-client writes them', () => {
  it('gives the samples and headers prom-client gives for the same calls, odd label values escaped alike', async () => {
    const ours = createMetrics();
    const refRegistry = new Registry();
    const ref = promClientSeries(refRegistry);
    const names = ['a', 'member-1', 'quote"d', 'back\\slash', 'new\nline'];
    const wall = 1_700_000_000_000;
    for (const [i, name] of names.entries()) {
      const cluster = { [CLUSTER_LABEL]: name };
      ours.perCluster.configure(name, 3, wall + i * 1000);
      ref.lastTransition.set(cluster, (wall + i * 1000) / 1000);
      ref.threshold.set(cluster, 3);
      ref.consecutive.set(cluster, 0);
      for (const v of VERDICTS) ref.verdict.set({ ...cluster, verdict: v }, v === 'pending' ? 1 : 0);
      const outcomes: ProbeOutcome[] = i % 2 === 0 ? ['success', 'failure', 'failure'] : ['error', 'success'];
      let consecutive = 0;
      for (const [k, o] of outcomes.entries()) {
        ours.perCluster.result(name, o, 12.5 + k);
        ref.probes.inc({ ...cluster, result: o });
        ref.success.set(cluster, o === 'success' ? 1 : 0);
        ref.duration.set(cluster, (12.5 + k) / 1000);
        consecutive = o === 'failure' ? consecutive + 1 : 0;
        ref.consecutive.set(cluster, consecutive);
      }
      const held: Verdict = i % 2 === 0 ? 'failing' : 'healthy';
      ours.perCluster.held(name, held);
      for (const v of VERDICTS) ref.verdict.set({ ...cluster, verdict: v }, v === held ? 1 : 0);
    }
    const text = await ours.registry.metrics();
    const reference = await refRegistry.metrics();
    const perCluster = (t: string): string[] =>
      sortedLines(t).filter((l) => Object.values(M).some((m) => l.includes(m.name)));
    expect(perCluster(text)).to.deep.equal(perCluster(reference));
    expect(text).to.include(`${CLUSTER_LABEL}="quote\\"d"`).and.include(`${CLUSTER_LABEL}="new\\nline"`);
  });

  it('writes exactly registry.metrics(), a slice of Clusters at a time, the event loop running between slices', async () => {
    const metrics = createMetrics();
    const n = 3 * EXPOSITION_CLUSTERS_PER_CHUNK + 7;
    for (let i = 0; i < n; i++) {
      metrics.perCluster.configure(`member-${i}`, 3);
      metrics.perCluster.result(`member-${i}`, 'success', 5);
    }
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    const chunks: string[] = [];
    let ticksDuring = -1;
    try {
      const started = ticks;
      await writeExposition(metrics, (c) => void chunks.push(c));
      ticksDuring = ticks - started;
    } finally {
      clearInterval(ticker);
    }
    expect(chunks.join('')).to.equal(await metrics.registry.metrics());
    // Each family of series with samples is written in ceil(n / slice) pieces, none holding more than a slice.
    const perClusterChunks = chunks.filter((c) => c.includes(`${CLUSTER_LABEL}="`));
    expect(perClusterChunks.length).to.be.at.least(4 * 5);
    for (const c of perClusterChunks)
      expect(new Set([...c.matchAll(/member-(\d+)/g)].map((m) => m[1])).size).to.be.at.most(
        EXPOSITION_CLUSTERS_PER_CHUNK,
      );
    expect(ticksDuring, 'timers ran while the scrape was written').to.be.above(0);
  });

  it('leaves out a Cluster removed while a scrape is being written, and stops when told', async () => {
    const metrics = createMetrics();
    const n = 2 * EXPOSITION_CLUSTERS_PER_CHUNK;
    for (let i = 0; i < n; i++) metrics.perCluster.configure(`member-${i}`, 3);
    let text = '';
    let removed = false;
    await writeExposition(metrics, (c) => {
      text += c;
      if (!removed && c.includes('member-0"')) {
        metrics.perCluster.remove(`member-${n - 1}`);
        removed = true;
      }
    });
    expect(removed).to.equal(true);
    const lastFamily = text.slice(text.lastIndexOf('# HELP'));
    expect(lastFamily).to.not.include(`member-${n - 1}"`);
    let writes = 0;
    await writeExposition(
      metrics,
      () => void writes++,
      () => writes >= 3,
    );
    expect(writes).to.equal(3);
  });
});
