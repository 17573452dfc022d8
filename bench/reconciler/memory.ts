// Where a replica's memory goes at N Clusters, without an apiserver: the ClusterController on the in-memory apiserver
// of the tests (test/support/fake-apiserver.ts), every Cluster probing one loopback HTTP server (period 10 s), for S seconds with a scrape
// of /metrics every 10 s. Prints the heap (used, total), RSS (and its peak), the live heap after a forced full
// collection (bytes a Cluster) and the CPU, as JSON. The baseline is the same run without V8 flags; with
// `--v8 '--optimize-for-size'` (set at start through v8.setFlagsFromString) or `--gc-every-ms 10000` (a forced
// collection on a timer) run it again and compare: the ratios are the figures (docs/reconciler.md, issue 23).
// Run: npx tsx bench/reconciler/memory.ts [--clusters 10000] [--seconds 40] [--v8 FLAGS] [--gc-every-ms MS]
// [--target inline] (the probed server in this process, as before issue 39; by default it runs in a child process)
import v8 from 'node:v8';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import vm from 'node:vm';
import inspector from 'node:inspector';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { writeFileSync } from 'node:fs';

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
// The split: --scrape-every 0 (no scrape), --no-probes (the Clusters carry no probe: the cache and the controller only).
const SCRAPE_EVERY = Number(arg('scrape-every') ?? 10);
const PROBES = !process.argv.includes('--no-probes');
const SNAPSHOT = arg('snapshot');
// --profile FILE: V8's sampling heap profile of what lived past the young generation (objects a scavenge promoted and a
// mark-compact later freed, and what is live at the end), by allocation site: what grows the old generation.
const PROFILE = arg('profile');

// After the flags: the modules below allocate as they load.
const { ClusterController, createMetrics, writeExposition } = await import('../../src/reconciler/index.js');
const { FakeApiServer: FakeKube } = await import('../../test/support/fake-apiserver.js');
const { boundHeapGrowth } = await import('../../src/cli/heap-growth.js');

// The probed server: in a child process by default, as a reconciler never serves what it probes (its side of every
// request would be half of what this process allocates); `--target inline` serves it here, the method before issue 39.
const INLINE = arg('target') === 'inline';
let port: number;
let stopTarget: () => void;
if (INLINE) {
  const server = http.createServer((_req, res) => res.writeHead(200).end());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  stopTarget = () => server.close();
} else {
  const script = fileURLToPath(new URL('../probe/targets-server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, '1'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', (l) => {
      rl.close();
      resolve(l);
    });
    child.once('exit', (code) => reject(new Error(`the target server exited (${code})`)));
  });
  port = (JSON.parse(line) as { ports: number[] }).ports[0]!;
  stopTarget = () => child.stdin!.end();
}
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
      ...(PROBES
        ? { livenessProbe: { httpGet: { host: '127.0.0.1', port, path: `/c/${i}` }, periodSeconds: 10 } }
        : {}),
    },
  });
gc();
const before = process.memoryUsage().heapUsed;
const cpu0 = process.cpuUsage();
const metrics = createMetrics();
const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
const controller = new ClusterController({ api: kube, taintEffect: 'NoSchedule', metrics, log: quiet, identity: 'b' });
const session = PROFILE !== undefined ? new inspector.Session() : undefined;
const post = (method: string, params?: object): Promise<unknown> =>
  new Promise((resolve, reject) => session!.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
if (session !== undefined) {
  session.connect();
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    // --profile-all: every allocation, the young generation's too (the allocation rate by site).
    includeObjectsCollectedByMinorGC: process.argv.includes('--profile-all'),
  });
}
controller.start();
// As `cluster-probe reconcile` does at start (src/cli/heap-growth.ts), then a flag given here (`--v8
// --heap-growing-percent=0`: V8's own choice) is the one to measure.
boundHeapGrowth();
if (V8_FLAGS !== '') v8.setFlagsFromString(V8_FLAGS);
const timer = GC_EVERY_MS > 0 ? setInterval(gc, GC_EVERY_MS) : undefined;
let rssMax = 0;
let scrapeBytes = 0;
for (let s = 1; s <= SECONDS; s++) {
  await new Promise((r) => setTimeout(r, 1000));
  if (SCRAPE_EVERY > 0 && s % SCRAPE_EVERY === 5 % SCRAPE_EVERY) {
    // As /metrics writes it: a slice of Clusters at a time (writeExposition).
    scrapeBytes = 0;
    await writeExposition(metrics, (chunk) => void (scrapeBytes += chunk.length));
  }
  rssMax = Math.max(rssMax, process.memoryUsage().rss);
}
const at = process.memoryUsage();
// How long a probe lives (start to result): what outlives a scavenge is promoted to the old generation.
const durations = (await metrics.probeDuration.get()).values;
const sumOf = (suffix: string): number =>
  durations.filter((v) => v.metricName?.endsWith(suffix)).reduce((a, v) => a + v.value, 0);
const probeMs = Math.round((sumOf('_sum') / Math.max(1, sumOf('_count'))) * 1e4) / 10;
const probesRun = sumOf('_count');
if (SNAPSHOT !== undefined) v8.writeHeapSnapshot(SNAPSHOT);
if (session !== undefined) {
  const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: unknown };
  writeFileSync(PROFILE!, JSON.stringify(profile));
  session.disconnect();
}
const cpu = process.cpuUsage(cpu0);
clearInterval(timer);
gc();
const live = process.memoryUsage().heapUsed - before;
const MiB = (b: number): number => Math.round(b / 1048576);
process.stdout.write(
  `${JSON.stringify({
    clusters: N,
    seconds: SECONDS,
    target: INLINE ? 'inline' : 'child',
    v8Flags: V8_FLAGS,
    gcEveryMs: GC_EVERY_MS,
    workers: controller.workers,
    probes: PROBES,
    scrapeEvery: SCRAPE_EVERY,
    scrapeBytes,
    probesRun,
    probeMeanMs: probeMs,
    heapUsedMiB: MiB(at.heapUsed),
    heapTotalMiB: MiB(at.heapTotal),
    externalMiB: MiB(at.external),
    arrayBuffersMiB: MiB(at.arrayBuffers),
    rssMiB: MiB(at.rss),
    rssMaxMiB: MiB(rssMax),
    liveHeapMiB: MiB(live),
    liveBytesPerCluster: Math.round(live / N),
    cpuSeconds: Math.round(((cpu.user + cpu.system) / 1e6) * 10) / 10,
  })}\n`,
);
await controller.stop();
stopTarget();
