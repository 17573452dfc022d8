// What the per-Cluster series cost by themselves, in-process: the heap they hold and the time and bytes of one
// exposition at N Clusters (default 5,000), each with a verdict, results of two kinds and a transition, against the
// same registry without them. Run: npx tsx --expose-gc bench/reconciler/cluster-metrics.ts [--clusters 5000]
import { gzipSync } from 'node:zlib';
import { CLUSTER_LABEL } from '../../src/facts/metric-names.js';
import { createMetrics } from '../../src/reconciler/metrics.js';

const i = process.argv.indexOf('--clusters');
const N = i >= 0 ? Number(process.argv[i + 1]) : 5000;
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc (npx tsx --expose-gc ...)');

const heapMiB = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

async function expose(metrics: ReturnType<typeof createMetrics>): Promise<{ ms: number; bytes: number; gzip: number }> {
  await metrics.registry.metrics();
  const runs: number[] = [];
  let text = '';
  for (let r = 0; r < 10; r++) {
    const t = performance.now();
    text = await metrics.registry.metrics();
    runs.push(performance.now() - t);
  }
  runs.sort((a, b) => a - b);
  return { ms: runs[5]!, bytes: Buffer.byteLength(text), gzip: gzipSync(text).length };
}

const metrics = createMetrics();
const empty = await expose(metrics);
const before = heapMiB();
const fill0 = performance.now();
for (let c = 0; c < N; c++) {
  const name = `member-${c}`;
  const m = metrics.perCluster;
  m.configure(name, 3, Date.now() - 3_600_000);
  m.held(name, 'healthy');
  m.result(name, 'failure', 12);
  m.result(name, 'success', 3);
  m.transition(name, 'success');
}
const fillMs = performance.now() - fill0;
const after = heapMiB();
const full = await expose(metrics);
const update0 = performance.now();
for (let c = 0; c < N; c++) metrics.perCluster.result(`member-${c}`, 'success', 4);
const updateUs = ((performance.now() - update0) / N) * 1000;
const lines = (await metrics.registry.metrics()).split('\n').filter((l) => l.includes(`${CLUSTER_LABEL}="`)).length;
console.log(
  JSON.stringify(
    {
      clusters: N,
      perClusterSeries: lines,
      seriesPerCluster: lines / N,
      heapMiB: Number((after - before).toFixed(1)),
      heapBytesPerCluster: Math.round(((after - before) * 2 ** 20) / N),
      fillMs: Math.round(fillMs),
      resultUpdateMicroseconds: Number(updateUs.toFixed(2)),
      exposition: { withoutMs: Number(empty.ms.toFixed(1)), withMs: Number(full.ms.toFixed(1)) },
      bytes: full.bytes,
      gzipBytes: full.gzip,
    },
    null,
    2,
  ),
);
