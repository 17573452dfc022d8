// Scale run of the reconciler: N Clusters (default 2,000) in a real kube-apiserver, all probing one loopback HTTP server
// (a path per Cluster), the compiled `cluster-probe reconcile` as a child process. Measures steady-state writes per
// minute (must be 0), the reconciler's RSS and CPU, then fails 10% at once and times until all of them are tainted,
// against the bound failureThreshold x period + 1 s (printed as a ratio; a figure, not an assertion). It also times,
// per failing Cluster, its taint from the moment the health server answered the failure that crossed the threshold:
// that part is the reconciler's (queue, rate limit, writes) and the apiserver's, not the probe semantics'.
// With --domains D (default 10) Cluster i is in region r<i mod D>, and the mass failure is one whole domain (r0, a
// D-th of the fleet: 10% by default), as a zone outage would be; --domains 0 gives no region and fails --fail-share
// spread over the fleet. Then the failing domain recovers, and every target fails at once (the server stops: the
// prober partitioned): the disruption guard must taint nothing and mark every Cluster Unknown/ProberDisrupted; the
// bench prints the time, the writes and the CPU, then restarts the server and times the heal (--no-partition skips it).
// Run: npm run build && npx tsx bench/reconciler/index.ts [--clusters 2000] [--period 10] [--steady 60]
//        [--domains 10] [--fail-share 0.1] [-- reconcile flags, e.g. --kube-api-qps 100 --write-concurrency 16]
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { Informer, KubeClient } from '../../src/kube/index.js';
import type { Cluster } from '../../src/schema/index.js';
import { startControlPlane } from '../../test/e2e/harness/controlplane.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TAINT = 'cluster.karmada.io/unhealthy';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const N = arg('clusters', 2000);
const PERIOD = arg('period', 10);
const FAILURE_THRESHOLD = arg('failure-threshold', 3);
const STEADY_S = arg('steady', 60);
const FAIL_SHARE = arg('fail-share', 0.1);
const DOMAINS = arg('domains', 10);
const PARTITION = !process.argv.includes('--no-partition');
/** Everything after a bare `--` goes to `cluster-probe reconcile` as is. */
const RECONCILE_ARGS = process.argv.includes('--') ? process.argv.slice(process.argv.indexOf('--') + 1) : [];

const log = (line: string): void => void process.stderr.write(`bench/reconciler: ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function binDir(): string {
  if (process.env.CLUSTER_PROBE_CONTROLPLANE_BIN) return process.env.CLUSTER_PROBE_CONTROLPLANE_BIN;
  log('finding or building the control plane (scripts/build-controlplane.mjs)');
  const out = execFileSync(process.execPath, [join(ROOT, 'scripts/build-controlplane.mjs')], { encoding: 'utf8' });
  return out.trim().split('\n').pop()!;
}

/** utime+stime in seconds and RSS in MiB of a process, from /proc. */
function usage(pid: number): { cpuS: number; rssMiB: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return { cpuS: ticks / 100, rssMiB: Number(rss) / 1024 };
}

async function metric(port: number, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (m === null || m[1] !== name) continue;
    if (Object.entries(labels).every(([k, v]) => (m[2] ?? '').includes(`${k}="${v}"`))) sum += Number(m[3]);
  }
  return sum;
}

/** writes_total of the reconciler by kind and outcome, `kind/outcome`. */
async function writesByKind(port: number): Promise<Record<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(
    /^cluster_probe_reconciler_writes_total\{kind="([^"]+)",outcome="([^"]+)"\}\s+(\S+)$/gm,
  ))
    out[`${m[1]}/${m[2]}`] = Number(m[3]);
  return out;
}

/**
 * What /metrics costs at this scale: 10 scrapes one after another, their size (bytes, series, per-Cluster series),
 * the reconciler's CPU per scrape above its steady rate, and the wall time of each (median).
 */
async function measureScrapes(port: number, pid: number): Promise<Record<string, number>> {
  const idle0 = usage(pid);
  await sleep(5000);
  const idleRate = (usage(pid).cpuS - idle0.cpuS) / 5;
  const n = 10;
  const times: number[] = [];
  let text = '';
  const u0 = usage(pid);
  const t0 = Date.now();
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(30_000) })).text();
    times.push(performance.now() - s);
  }
  const wallS = (Date.now() - t0) / 1000;
  const u1 = usage(pid);
  const samples = text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  times.sort((a, b) => a - b);
  return {
    bytes: Buffer.byteLength(text),
    gzipBytes: gzipSync(text).length,
    series: samples.length,
    perClusterSeries: samples.filter((l) => l.includes('cluster_name="')).length,
    cpuMsPerScrape: Math.round(((u1.cpuS - u0.cpuS - idleRate * wallS) / n) * 1000),
    medianScrapeMs: Math.round(times[Math.floor(n / 2)]!),
    rssMiB: Math.round(u1.rssMiB),
  };
}

async function waitUntil(what: string, timeoutMs: number, check: () => boolean | Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await sleep(100);
  }
  return Date.now() - start;
}

async function main(): Promise<void> {
  process.env.CLUSTER_PROBE_CONTROLPLANE_BIN = binDir();
  const failing = new Set<number>();
  /** Per failing Cluster: failures answered so far, and when the one that crossed the threshold was answered. */
  const failuresServed = new Map<number, number>();
  const thresholdAt = new Map<number, number>();
  let probes = 0;
  const server = createServer((req, res) => {
    probes++;
    const i = Number(/^\/c\/(\d+)/.exec(req.url ?? '')?.[1] ?? -1);
    const fails = failing.has(i);
    if (fails) {
      const n = (failuresServed.get(i) ?? 0) + 1;
      failuresServed.set(i, n);
      if (n === FAILURE_THRESHOLD) thresholdAt.set(i, Date.now());
    }
    res.writeHead(fails ? 500 : 200).end();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;

  log('starting the control plane');
  const cp = await startControlPlane({ log: (l) => log(l) });
  let child: ReturnType<typeof spawn> | undefined;
  let watcher: Informer<Cluster> | undefined;
  let api: KubeClient | undefined;
  const results: Record<string, unknown> = {
    clusters: N,
    periodSeconds: PERIOD,
    failureThreshold: FAILURE_THRESHOLD,
    reconcileArgs: RECONCILE_ARGS,
    domains: DOMAINS,
  };
  try {
    await cp.applyCrd(join(ROOT, 'manifests/crd/cluster.karmada.io_clusters.yaml'));
    const kc = new KubeConfig();
    kc.loadFromFile(cp.kubeconfigPath);
    api = new KubeClient(kc, { qps: 0 });
    const client = api;
    log(`creating ${N} Clusters`);
    const t0 = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = next++; i < N; i = next++)
          await client.request('POST', '/apis/cluster.karmada.io/v1alpha1/clusters', {
            body: {
              apiVersion: 'cluster.karmada.io/v1alpha1',
              kind: 'Cluster',
              metadata: { name: `member-${i}` },
              spec: {
                syncMode: 'Push',
                ...(DOMAINS > 0 ? { region: `r${i % DOMAINS}` } : {}),
                apiEndpoint: 'https://127.0.0.1:6443',
                livenessProbe: {
                  httpGet: { host: '127.0.0.1', port, path: `/c/${i}` },
                  periodSeconds: PERIOD,
                  failureThreshold: FAILURE_THRESHOLD,
                },
              },
            },
          });
      }),
    );
    log(`created in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    // Our own watch: every change of every Cluster, independent of the reconciler's metrics.
    let modified = 0;
    watcher = new Informer<Cluster>({
      api,
      path: '/apis/cluster.karmada.io/v1alpha1/clusters',
      resource: 'clusters',
    });
    watcher.addHandlers({ onUpdate: () => void modified++ });
    watcher.start();
    await watcher.waitForSync(60_000);
    const cache = watcher;
    const count = (pred: (c: Cluster) => boolean): number => cache.list().filter(pred).length;
    const healthy = (c: Cluster): boolean =>
      c.status?.conditions?.some((x) => x.type === 'Healthy' && x.status === 'True') === true;
    const tainted = (c: Cluster): boolean => (c.spec.taints ?? []).some((t) => t.key === TAINT);

    log('starting the reconciler (dist/, compiled)');
    const script = `import { Command } from 'commander'; import { register } from '${join(ROOT, 'dist/src/cli/reconcile.js')}';
      const p = new Command('cluster-probe'); register(p); await p.parseAsync(process.argv.slice(1), { from: 'user' });`;
    child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        script,
        '--',
        'reconcile',
        '--kubeconfig',
        cp.kubeconfigPath,
        '--metrics-port',
        '0',
        ...RECONCILE_ARGS,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'], cwd: ROOT },
    );
    let mport = 0;
    let head = '';
    // The reconciler's own log lines (its clock, the same machine's): when each Cluster's transition to failure was
    // seen and when its taint write returned, to split the time after the threshold into its parts.
    const transitionAt = new Map<string, number>();
    const taintWrittenAt = new Map<string, number>();
    const lines = createInterface({ input: child.stdout!.setEncoding('utf8') });
    lines.on('line', (line) => {
      if (mport === 0) {
        head += line;
        const m = /"address":"http:\/\/127\.0\.0\.1:(\d+)"/.exec(head);
        if (m) mport = Number(m[1]);
      }
      if (!line.includes('"probe transition"') && !line.includes('"taints written"')) return;
      const rec = JSON.parse(line) as { time?: string; cluster?: string; to?: string; tainted?: boolean; msg?: string };
      const at = Date.parse(rec.time ?? '');
      if (rec.cluster === undefined || Number.isNaN(at)) return;
      if (rec.msg === 'probe transition' && rec.to === 'failure') transitionAt.set(rec.cluster, at);
      if (rec.msg === 'taints written' && rec.tainted === true) taintWrittenAt.set(rec.cluster, at);
    });
    const pid = child.pid!;
    const started = Date.now();
    await waitUntil('the metrics port', 30_000, () => mport !== 0);
    const all = await waitUntil(`all ${N} Healthy=True`, 10 * 60_000, () => count(healthy) === N);
    results.startToAllHealthyS = (Date.now() - started) / 1000;
    log(`all ${N} Healthy=True ${(all / 1000).toFixed(1)} s after start`);
    await sleep(PERIOD * 1000 + 2000);

    log(`steady state: measuring for ${STEADY_S} s`);
    const w0 = await metric(mport, 'cluster_probe_reconciler_writes_total');
    const m0 = modified;
    const u0 = usage(pid);
    const p0 = probes;
    let rssMax = u0.rssMiB;
    const steadyStart = Date.now();
    while (Date.now() - steadyStart < STEADY_S * 1000) {
      await sleep(1000);
      rssMax = Math.max(rssMax, usage(pid).rssMiB);
    }
    const elapsedS = (Date.now() - steadyStart) / 1000;
    const u1 = usage(pid);
    const w1 = await metric(mport, 'cluster_probe_reconciler_writes_total');
    results.steady = {
      seconds: elapsedS,
      writesPerMinute: ((w1 - w0) / elapsedS) * 60,
      clusterWatchEventsPerMinute: ((modified - m0) / elapsedS) * 60,
      probesPerSecond: (probes - p0) / elapsedS,
      cpuPercentOfOneCore: ((u1.cpuS - u0.cpuS) / elapsedS) * 100,
      rssMiB: Math.round(u1.rssMiB),
      rssMaxMiB: Math.round(rssMax),
    };
    log(`steady: ${JSON.stringify(results.steady)}`);
    results.scrape = await measureScrapes(mport, pid);
    log(`scrape: ${JSON.stringify(results.scrape)}`);

    const k = DOMAINS > 0 ? Math.ceil(N / DOMAINS) : Math.round(N * FAIL_SHARE);
    // One whole domain (r0: i mod D = 0) with domains, else spread over the fleet.
    const stride = DOMAINS > 0 ? DOMAINS : Math.max(1, Math.floor(N / k));
    const writesBefore = await writesByKind(mport);
    const taintedAt: number[] = [];
    /** Per failing Cluster: from the threshold-crossing failure answered to the taint seen by our watch. */
    const afterThreshold: number[] = [];
    const seen = new Set<string>();
    let failedAt = 0;
    watcher.addHandlers({
      onUpdate: (_o, c) => {
        const name = c.metadata?.name ?? '';
        if (failedAt === 0 || !tainted(c) || seen.has(name)) return;
        seen.add(name);
        const now = Date.now();
        taintedAt.push(now - failedAt);
        const at = thresholdAt.get(Number(name.slice('member-'.length)));
        if (at !== undefined) afterThreshold.push(now - at);
      },
    });
    failedAt = Date.now();
    for (let i = 0; i < k; i++) failing.add(i * stride);
    log(`${k} Clusters fail at once`);
    const u2 = usage(pid);
    await waitUntil(`all ${k} tainted`, 5 * 60_000, () => seen.size >= k);
    const allMs = Date.now() - failedAt;
    const u3 = usage(pid);
    // The conditions and Events that follow the taints.
    await sleep(3000);
    const writesAfter = await writesByKind(mport);
    taintedAt.sort((a, b) => a - b);
    afterThreshold.sort((a, b) => a - b);
    const boundS = FAILURE_THRESHOLD * PERIOD + 1;
    const q = (xs: number[], p: number): number => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))]! / 1000;
    // Per failing Cluster, from the reconciler's log: threshold answered -> transition, transition -> taint written.
    const toTransition: number[] = [];
    const toWritten: number[] = [];
    for (const [i, at] of thresholdAt) {
      const name = `member-${i}`;
      const t = transitionAt.get(name);
      const w = taintWrittenAt.get(name);
      if (t !== undefined) toTransition.push(t - at);
      if (t !== undefined && w !== undefined) toWritten.push(w - t);
    }
    toTransition.sort((a, b) => a - b);
    toWritten.sort((a, b) => a - b);
    const writes: Record<string, number> = {};
    for (const [kind, n] of Object.entries(writesAfter)) writes[kind] = n - (writesBefore[kind] ?? 0);
    results.failover = {
      failing: k,
      boundS,
      allTaintedS: allMs / 1000,
      allTaintedOverBound: Math.round((allMs / 1000 / boundS) * 1000) / 1000,
      firstTaintedS: taintedAt[0]! / 1000,
      medianTaintedS: q(taintedAt, 0.5),
      // The reconciler's and apiserver's part: threshold-crossing failure answered -> taint seen in a watch.
      taintAfterThresholdS: {
        median: q(afterThreshold, 0.5),
        p90: q(afterThreshold, 0.9),
        p99: q(afterThreshold, 0.99),
        max: q(afterThreshold, 1),
      },
      // ... of which, from the reconciler's log lines (millisecond clock of the same machine):
      thresholdToTransitionS: { median: q(toTransition, 0.5), p90: q(toTransition, 0.9), max: q(toTransition, 1) },
      transitionToTaintWrittenS: { median: q(toWritten, 0.5), p90: q(toWritten, 0.9), max: q(toWritten, 1) },
      wronglyTainted: count(tainted) - k,
      cpuSeconds: Math.round((u3.cpuS - u2.cpuS) * 10) / 10,
      writes,
      conflicts: await metric(mport, 'cluster_probe_reconciler_writes_total', { outcome: 'conflict' }),
    };
    log(`failover: ${JSON.stringify(results.failover)}`);
    log(
      `all ${k} tainted after ${(allMs / 1000).toFixed(1)} s = ${(allMs / 1000 / boundS).toFixed(3)} of the bound ` +
        `${FAILURE_THRESHOLD} x ${PERIOD} s + 1 s = ${boundS} s (${allMs / 1000 <= boundS ? 'within' : 'OVER'} it)`,
    );

    if (PARTITION) {
      log('the failing domain recovers');
      failing.clear();
      const recovered = await waitUntil('every Cluster untainted and Healthy=True', 5 * 60_000, () => {
        return count(tainted) === 0 && count(healthy) === N;
      });
      log(`recovered in ${(recovered / 1000).toFixed(1)} s`);
      await sleep(2000);
      // The prober partitioned: every target stops answering at once (connections refused).
      const writesBeforeCut = await writesByKind(mport);
      let taintsSeen = 0;
      watcher.addHandlers({ onUpdate: (_o, c) => void (tainted(c) && taintsSeen++) });
      const withheld = (c: Cluster): boolean =>
        c.status?.conditions?.some((x) => x.type === 'Healthy' && x.reason === 'ProberDisrupted') === true;
      const u4 = usage(pid);
      const cutAt = Date.now();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      log(`every target stops answering (the server is closed): ${N} Clusters failing at once`);
      await waitUntil('the first Cluster withheld', 5 * 60_000, () => count(withheld) > 0);
      const firstWithheld = Date.now() - cutAt;
      await waitUntil(`all ${N} Unknown/ProberDisrupted`, 15 * 60_000, () => count(withheld) === N);
      const allWithheld = Date.now() - cutAt;
      const u5 = usage(pid);
      await sleep(3000);
      const writesAfterCut = await writesByKind(mport);
      const cutWrites: Record<string, number> = {};
      for (const [kind, n] of Object.entries(writesAfterCut)) cutWrites[kind] = n - (writesBeforeCut[kind] ?? 0);
      const holdFor = 3 * PERIOD * 1000;
      await sleep(holdFor);
      const stillWithheld = count(withheld);
      const taintedDuring = count(tainted);
      log('the targets answer again');
      await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
      const healed = await waitUntil(`all ${N} Healthy=True again`, 15 * 60_000, () => count(healthy) === N);
      const u6 = usage(pid);
      results.partition = {
        failing: N,
        firstWithheldS: firstWithheld / 1000,
        allWithheldS: allWithheld / 1000,
        cpuSecondsUntilAllWithheld: Math.round((u5.cpuS - u4.cpuS) * 10) / 10,
        writesUntilAllWithheld: cutWrites,
        withheldAfterHolding: { seconds: holdFor / 1000, clusters: stillWithheld },
        taintsSeenDuringPartition: taintsSeen,
        taintedAtEnd: taintedDuring,
        healToAllHealthyS: healed / 1000,
        cpuSecondsHealing: Math.round((u6.cpuS - u5.cpuS) * 10) / 10,
      };
      log(`partition: ${JSON.stringify(results.partition)}`);
    }
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await watcher?.stop();
    api?.close();
    if (child !== undefined && child.exitCode === null) {
      child.kill('SIGTERM');
      await Promise.race([new Promise((r) => child!.once('exit', r)), sleep(20_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    server.closeAllConnections();
    server.close();
    await cp.stop();
  }
}

main().catch((err: unknown) => {
  log(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
