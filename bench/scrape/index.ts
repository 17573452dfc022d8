// bench/scrape: how long a scrape of the reconciler's /metrics takes at N Clusters (default 10,000) while the process
// is busy (issue 50, item 3): the reconciler's own metrics and health server, in this process, filled as a fleet of N
// probed Clusters; the event loop kept busy as probes keep it (callbacks of --work-ms CPU each, --probes-per-s of
// them, every one updating a Cluster's series) while a mass failure turns the Clusters one by one; other processes
// take the machine's cores (--hogs, default one per core: load about 2x the cores). Scrapes one after another with
// Prometheus' Accept-Encoding (gzip) and without, time to the last byte, medians; with --compare DIR the same for
// another tree (a `git worktree` of the commit before), interleaved in the same run, as the baseline.
//
//   npx tsx bench/scrape/index.ts [--clusters 10000] [--scrapes 8] [--probes-per-s 1000] [--work-ms 0.4] [--hogs 2]
//                                 [--compare DIR]
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    clusters: { type: 'string', default: '10000' },
    scrapes: { type: 'string', default: '8' },
    'probes-per-s': { type: 'string', default: '1000' },
    'work-ms': { type: 'string', default: '0.4' },
    hogs: { type: 'string', default: String(availableParallelism()) },
    compare: { type: 'string' },
  },
});
const N = Number(values.clusters);
const SCRAPES = Number(values.scrapes);
const PROBES_PER_S = Number(values['probes-per-s']);
const WORK_MS = Number(values['work-ms']);
const HOGS = Number(values.hogs);

interface Stack {
  label: string;
  port: number;
  fleet: { result(i: number, outcome: 'success' | 'failure'): void; transition(i: number): void };
  close(): Promise<void>;
}

/** The reconciler's metrics and health server of the tree at `root`, with N Clusters' series as a fleet has them. */
async function stackOf(root: string, label: string): Promise<Stack> {
  const metricsModule = (await import(
    path.join(root, 'src/reconciler/metrics.ts')
  )) as typeof import('../../src/reconciler/metrics.js');
  const serverModule = (await import(
    path.join(root, 'src/kube/health-server.ts')
  )) as typeof import('../../src/kube/health-server.js');
  const metrics = metricsModule.createMetrics();
  const m = metrics.perCluster;
  const names = Array.from({ length: N }, (_, i) => `member-${String(i).padStart(5, '0')}`);
  for (const name of names) {
    m.configure(name, 3, Date.now() - 3_600_000);
    m.held(name, 'healthy');
    m.result(name, 'success', 3);
    m.transition(name, 'success');
  }
  const server = await serverModule.startHealthServer({
    port: 0,
    registry: metrics.registry,
    ready: () => true,
    exposition: (write, stopped) => metricsModule.writeExposition(metrics, write, stopped),
  });
  return {
    label,
    port: server.port,
    fleet: {
      result: (i, outcome) => m.result(names[i % N]!, outcome, 4 + (i % 7)),
      transition: (i) => {
        m.transition(names[i % N]!, 'failure');
        m.held(names[i % N]!, 'failing');
      },
    },
    close: () => server.close(),
  };
}

/**
 * The scraper is another process, as Prometheus is: its reads must not wait in the event loop this bench keeps busy.
 * It scrapes each port in turn, `rounds` times, with gzip and without, and prints one JSON line a scrape.
 */
const SCRAPER = `
const http = require('node:http');
const zlib = require('node:zlib');
const [ports, rounds] = JSON.parse(process.argv[1]);
function scrape(port, gzip) {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/metrics', headers: gzip ? { 'accept-encoding': 'gzip' } : {}, timeout: 120000 }, (res) => {
      const parts = [];
      res.on('data', (b) => parts.push(b));
      res.on('end', () => {
        const body = Buffer.concat(parts);
        const text = res.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(body) : body;
        resolve({ port, gzip, ms: performance.now() - start, bytes: text.length, wireBytes: body.length });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('scrape timed out after 120 s')));
    req.on('error', reject);
    req.end();
  });
}
(async () => {
  for (let r = 0; r < rounds; r++)
    for (const port of ports)
      for (const gzip of [true, false]) process.stdout.write(JSON.stringify(await scrape(port, gzip)) + '\\n');
})().catch((err) => { console.error(err); process.exit(1); });
`;

interface Scraped {
  port: number;
  gzip: boolean;
  ms: number;
  bytes: number;
  wireBytes: number;
}

function scrapeFromAnotherProcess(ports: number[], rounds: number): Promise<Scraped[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', SCRAPER, JSON.stringify([ports, rounds])], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(
            out
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l) as Scraped),
          )
        : reject(new Error(`the scraper exited ${String(code)}`)),
    );
  });
}

/** Busy loops in other processes: the machine is loaded as when the reconciler shares it. */
function hogs(n: number): ChildProcess[] {
  return Array.from({ length: n }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
}

/** Probe callbacks on this event loop: PROBES_PER_S a second, WORK_MS of CPU each, each a result of some Cluster. */
function busyLoop(stacks: Stack[]): () => void {
  let n = 0;
  let failing = 0;
  const burn = (): void => {
    const until = performance.now() + WORK_MS;
    while (performance.now() < until);
  };
  const perTick = Math.max(1, Math.round(PROBES_PER_S / 100));
  const timer = setInterval(() => {
    // Each probe's callback is its own macrotask, as a socket's events are.
    for (let k = 0; k < perTick; k++)
      setImmediate(() => {
        burn();
        n++;
        const failed = n % N < failing;
        for (const s of stacks) s.fleet.result(n, failed ? 'failure' : 'success');
      });
    // The mass failure: 1% of the fleet turns failing every tick of 10 ms.
    const more = Math.min(N, failing + Math.ceil(N / 100));
    for (; failing < more; failing++) for (const s of stacks) s.fleet.transition(failing);
    if (failing >= N) failing = 0;
  }, 10);
  return () => clearInterval(timer);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const here = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const stacks = [await stackOf(here, 'this tree')];
if (values.compare !== undefined) stacks.push(await stackOf(path.resolve(values.compare), values.compare));
const idle: Record<string, number> = {};
for (const s of stacks) {
  const [first] = await scrapeFromAnotherProcess([s.port], 1);
  idle[s.label] = first!.ms;
}
const children = hogs(HOGS);
const stop = busyLoop(stacks);
const results = new Map<string, { plain: number[]; gzip: number[]; bytes: number; wire: number }>();
try {
  const scraped = await scrapeFromAnotherProcess(
    stacks.map((s) => s.port),
    SCRAPES,
  );
  for (const x of scraped) {
    const label = stacks.find((s) => s.port === x.port)!.label;
    const row = results.get(label) ?? { plain: [], gzip: [], bytes: 0, wire: 0 };
    (x.gzip ? row.gzip : row.plain).push(x.ms);
    if (x.gzip) row.wire = x.wireBytes;
    else row.bytes = x.bytes;
    results.set(label, row);
  }
} finally {
  stop();
  for (const c of children) c.kill('SIGKILL');
  for (const s of stacks) await s.close();
}
console.log(
  `bench/scrape: ${N} Clusters, ${PROBES_PER_S} probe callbacks/s of ${WORK_MS} ms, a mass failure turning 1% every 10 ms, ${HOGS} busy processes; ${SCRAPES} scrapes each, interleaved, medians`,
);
for (const [label, row] of results)
  console.log(
    `  ${label}: idle ${idle[label]!.toFixed(0)} ms; busy: gzip ${median(row.gzip).toFixed(0)} ms (max ${Math.max(...row.gzip).toFixed(0)}), plain ${median(row.plain).toFixed(0)} ms (max ${Math.max(...row.plain).toFixed(0)}); ${row.bytes} bytes, ${row.wire} on the wire with gzip`,
  );
