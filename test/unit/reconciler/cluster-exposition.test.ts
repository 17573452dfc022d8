// The per-Cluster series kept in ClusterMetrics' own records (issue 39) against prom-client itself: the same calls made
// on prom-client Gauges and Counters (what the series were before) give the same samples and headers, label values
// escaped alike; writeExposition() writes exactly registry.metrics(), a slice of Clusters at a time with the event
// loop let run once a slice budget is spent (issue 50), from each Cluster's lines kept encoded until they change, and
// skips a Cluster removed while a scrape is under way.
import { expect } from 'chai';
import { Counter, Gauge, Registry } from 'prom-client';
import { CLUSTER_LABEL, CLUSTER_METRICS as M, VERDICTS, type Verdict } from '../../../src/facts/metric-names.js';
import {
  EXPOSITION_CLUSTERS_PER_CHUNK,
  EXPOSITION_SLICE_MS,
  createMetrics,
  writeExposition,
} from '../../../src/reconciler/metrics.js';
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

  it('writes exactly registry.metrics(), a slice of Clusters at a time, the event loop let run once the slice budget is spent', async () => {
    const metrics = createMetrics();
    const n = 3 * EXPOSITION_CLUSTERS_PER_CHUNK + 7;
    for (let i = 0; i < n; i++) {
      metrics.perCluster.configure(`member-${i}`, 3);
      metrics.perCluster.result(`member-${i}`, 'success', 5);
    }
    // A clock that moves 1 ms a reading: the budget is spent every EXPOSITION_SLICE_MS readings.
    let t = 0;
    let yields = 0;
    const chunks: string[] = [];
    await writeExposition(metrics, (c) => void chunks.push(c), {
      now: () => t++,
      yieldLoop: async () => void yields++,
    });
    expect(chunks.join('')).to.equal(await metrics.registry.metrics());
    // Each family of series with samples is written in ceil(n / slice) pieces, none holding more than a slice.
    const perClusterChunks = chunks.filter((c) => c.includes(`${CLUSTER_LABEL}="`));
    expect(perClusterChunks.length).to.be.at.least(4 * 5);
    for (const c of perClusterChunks)
      expect(new Set([...c.matchAll(/member-(\d+)/g)].map((m) => m[1])).size).to.be.at.most(
        EXPOSITION_CLUSTERS_PER_CHUNK,
      );
    // 8 families of 4 slices each, one clock reading a slice: a yield every EXPOSITION_SLICE_MS of them.
    expect(yields).to.equal(Math.floor(32 / EXPOSITION_SLICE_MS));
    // A clock that stands still: the scrape is cheaper than the budget and runs in one go.
    yields = 0;
    await writeExposition(metrics, () => {}, { now: () => 0, yieldLoop: async () => void yields++ });
    expect(yields).to.equal(0);
    // The default yield lets the event loop run: a callback queued before the scrape runs before its last write
    // (counted, not timed: a timer's due time would race the machine).
    let ranDuring = false;
    let done = false;
    setImmediate(() => (ranDuring = !done));
    await writeExposition(
      metrics,
      (c) => {
        if (c === '\n') done = true; // the last write
      },
      {
        now: (() => {
          let x = 0;
          return () => (x += EXPOSITION_SLICE_MS);
        })(),
      },
    );
    expect(ranDuring, 'the event loop ran while the scrape was written').to.equal(true);
  });

  it("keeps each Cluster's lines encoded between scrapes and writes what changed since, as registry.metrics() does", async () => {
    const metrics = createMetrics();
    const m = metrics.perCluster;
    const names = Array.from({ length: 40 }, (_, i) => `member-${i}`);
    const scrape = async (): Promise<string> => {
      let text = '';
      await writeExposition(metrics, (c) => void (text += c));
      return text;
    };
    const outcomes: ProbeOutcome[] = ['success', 'failure', 'error'];
    const verdicts: Verdict[] = [...VERDICTS];
    let seed = 7;
    const next = (k: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % k);
    for (const name of names) m.configure(name, 3, 1_700_000_000_000);
    for (let round = 0; round < 60; round++) {
      // Every call that changes a series, on Clusters picked at random, then a scrape, compared with prom-client's.
      for (let k = 0; k < 5; k++) {
        const name = names[next(names.length)]!;
        switch (next(6)) {
          case 0:
            m.result(name, outcomes[next(3)]!, next(2000));
            break;
          case 1:
            m.transition(name, outcomes[next(3)]!);
            break;
          case 2:
            m.held(name, verdicts[next(verdicts.length)]);
            break;
          case 3:
            m.configure(name, 1 + next(5));
            break;
          case 4:
            m.remove(name);
            m.configure(name, 3);
            break;
          default:
            m.held(name, undefined);
        }
      }
      expect(await scrape(), `round ${round}`).to.equal(await metrics.registry.metrics());
    }
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
