// Where a replica's memory goes at N Clusters, without an apiserver: the ClusterController on the in-memory apiserver
// of the integration tests, every Cluster probing one loopback HTTP server (period 10 s), for S seconds with a scrape
// of /metrics every 10 s. Prints the heap (used, total), RSS (and its peak), the live heap after a forced full
// collection (bytes a Cluster) and the CPU, as JSON. The baseline is the same run without V8 flags; with
// `--v8 '--optimize-for-size'` (set at start through v8.setFlagsFromString) or `--gc-every-ms 10000` (a forced
// collection on a timer) run it again and compare: the ratios are the figures (docs/reconciler.md, issue 23).
// Run: npx tsx bench/reconciler/memory.ts [--clusters 10000] [--seconds 40] [--v8 FLAGS] [--gc-every-ms MS]
import v8 from 'node:v8';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import vm from 'node:vm';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const V8_FLAGS = arg('v8') ?? '';
if (V8_FLAGS !== '') v8.setFlagsFromString(V8_FLAGS);
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const N = Number(arg('clusters') ?? 10_000);
const SECONDS = Number(arg('seconds') ?? 40);
const GC_EVERY_MS = Number(arg('gc-every-ms') ?? 0);

// After the flags: the modules below allocate as they load.
const { ClusterController, createMetrics } = await import('../../src/reconciler/index.js');
const { FakeKube } = await import('../../test/integration/reconciler/fake-kube.js');

const server = http.createServer((_req, res) => res.writeHead(200).end());
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as AddressInfo).port;
const kube = new FakeKube();
for (let i = 0; i < N; i++)
  kube.putCluster({
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: `member-${i}` },
    spec: {
      syncMode: 'Push',
      region: `r${i % 10}`,
      apiEndpoint: 'https://127.0.0.1:6443',
      livenessProbe: { httpGet: { host: '127.0.0.1', port, path: `/c/${i}` }, periodSeconds: 10 },
    },
  });
gc();
const before = process.memoryUsage().heapUsed;
const cpu0 = process.cpuUsage();
const metrics = createMetrics();
const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
const controller = new ClusterController({ api: kube, taintEffect: 'NoSchedule', metrics, log: quiet, identity: 'b' });
controller.start();
const timer = GC_EVERY_MS > 0 ? setInterval(gc, GC_EVERY_MS) : undefined;
let rssMax = 0;
for (let s = 1; s <= SECONDS; s++) {
  await new Promise((r) => setTimeout(r, 1000));
  if (s % 10 === 5) await metrics.registry.metrics();
  rssMax = Math.max(rssMax, process.memoryUsage().rss);
}
const at = process.memoryUsage();
const cpu = process.cpuUsage(cpu0);
clearInterval(timer);
gc();
const live = process.memoryUsage().heapUsed - before;
const MiB = (b: number): number => Math.round(b / 1048576);
process.stdout.write(
  `${JSON.stringify({
    clusters: N,
    seconds: SECONDS,
    v8Flags: V8_FLAGS,
    gcEveryMs: GC_EVERY_MS,
    workers: controller.workers,
    heapUsedMiB: MiB(at.heapUsed),
    heapTotalMiB: MiB(at.heapTotal),
    rssMiB: MiB(at.rss),
    rssMaxMiB: MiB(rssMax),
    liveHeapMiB: MiB(live),
    liveBytesPerCluster: Math.round(live / N),
    cpuSeconds: Math.round(((cpu.user + cpu.system) / 1e6) * 10) / 10,
  })}\n`,
);
await controller.stop();
server.close();
