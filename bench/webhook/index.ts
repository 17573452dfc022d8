// Webhook bench: autocannon over HTTPS keep-alive against /mutate and /validate of the real webhook, and against a
// floor server (plain node:https, parse body, constant answer) in the same run; prints ratios to the floor, then a
// fixed 1,000 reviews/s run for p99. Servers run as child processes; every run is bounded in time.
// Floor and webhook runs alternate for --rounds rounds and the medians are compared, so load from elsewhere on the
// machine hits both alike; with --together they run at the same time instead (see TOGETHER).
// Run: npx tsx bench/webhook/index.ts [--duration S] [--connections N] [--rounds N] [--together]
import autocannon, { type Result } from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { makeCertificates } from '../../src/certs/index.js';
import { DEFAULT_BODY, MIGRATE_BODY, VALIDATE_BODY } from './reviews.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const i = args.indexOf(name);
  const v = i >= 0 ? Number(args[i + 1]) : fallback;
  return Number.isFinite(v) && v > 0 ? Math.min(v, 120) : fallback;
};
const DURATION = flag('--duration', 5);
const CONNECTIONS = flag('--connections', 32);
const ROUNDS = Math.min(flag('--rounds', 3), 15);
/**
 * --together: each round loads the floor and the webhook at the same time (half the connections each) instead of one
 * after the other. On a VM whose host moves the speed of the same code by 2-3x from one minute to the next (measured
 * here: 58 to 209 us of CPU a review for one server and one review), runs of the two servers taken apart in time
 * compare the host's moments as much as the servers; taken together, both see the same moments.
 */
const TOGETHER = args.includes('--together');
const RATE = 1000;
/** Issue 14: both endpoints, on both reviews, at least this share of the floor's throughput. */
const GOAL_RATIO = 0.85;

const here = import.meta.dirname;
const repo = path.resolve(here, '../..');

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

async function startServer(kind: 'floor' | 'webhook', certDir: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'server.ts'), kind, certDir], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${kind} server did not start in 20 s`)), 20_000);
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
  return { child, port };
}

/**
 * CPU time a server process has used, in microseconds, from /proc (Linux; undefined elsewhere). Throughput ratios on
 * a machine shared with other work swing with that work (autocannon and the server share the cores); the server's
 * CPU per review does not, so the bench prints both.
 */
function cpuMicros(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (100 a second on Linux)
    return Number.isFinite(ticks) ? ticks * 10_000 : undefined;
  } catch {
    return undefined;
  }
}

interface Run {
  result: Result;
  /** Server CPU per review answered, in microseconds (undefined without /proc). */
  cpuPerReview: number | undefined;
}

async function measured(child: ChildProcess, port: number, pathName: string, body: string): Promise<Run> {
  const before = cpuMicros(child.pid);
  const result = await load(port, pathName, body, {});
  const after = cpuMicros(child.pid);
  const cpuPerReview =
    before === undefined || after === undefined || result.requests.total === 0
      ? undefined
      : (after - before) / result.requests.total;
  return { result, cpuPerReview };
}

async function load(port: number, pathName: string, body: string, extra: Partial<Parameters<typeof autocannon>[0]>) {
  const result: Result = await autocannon({
    url: `https://127.0.0.1:${port}${pathName}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections: TOGETHER ? Math.max(1, Math.floor(CONNECTIONS / 2)) : CONNECTIONS,
    pipelining: 1,
    duration: DURATION,
    timeout: 10,
    ...extra,
  });
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(`${pathName}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`);
  }
  return result;
}

const fmt = (n: number, digits = 0) => n.toFixed(digits);

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cluster-probe-bench-'));
  const children: ChildProcess[] = [];
  try {
    log('making certificates ...');
    await makeCertificates(dir, { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
    log('starting the floor server and the webhook (child processes) ...');
    const floor = await startServer('floor', dir);
    const webhook = await startServer('webhook', dir);
    children.push(floor.child, webhook.child);

    log('warming up (2 s each) ...');
    for (const [port, p, b] of [
      [floor.port, '/mutate', MIGRATE_BODY],
      [webhook.port, '/mutate', MIGRATE_BODY],
      [webhook.port, '/validate', VALIDATE_BODY],
      [webhook.port, '/validate', MIGRATE_BODY],
    ] as const) {
      await load(port, p, b, { duration: 2 });
    }

    const cases = [
      ['/mutate (legacy)', '/mutate', MIGRATE_BODY],
      ['/mutate (probe)', '/mutate', DEFAULT_BODY],
      ['/validate (legacy)', '/validate', MIGRATE_BODY],
      ['/validate (probe)', '/validate', VALIDATE_BODY],
    ] as const;
    const runs = new Map<string, Run[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, p, body] of cases) {
        // Floor first in odd rounds and second in even ones, so a drift of the machine's speed over a pair (runs
        // of one server minutes apart moved by a third on this machine) counts against each side alike.
        const order = [
          ['floor', floor],
          ['webhook', webhook],
        ] as const;
        if (TOGETHER) {
          log(`round ${round}/${ROUNDS}: floor and webhook together, ${name}, ${DURATION} s ...`);
          const both = await Promise.all(order.map(([, started]) => measured(started.child, started.port, p, body)));
          order.forEach(([server], i) => {
            const key = `${server} ${name}`;
            runs.set(key, [...(runs.get(key) ?? []), both[i] as Run]);
          });
          log(
            `  ${both.map((run) => `${fmt(run.result.requests.average)}/s ${fmt(run.cpuPerReview ?? NaN, 1)} us`).join(', ')}`,
          );
          continue;
        }
        for (const [server, started] of round % 2 === 1 ? order : [...order].reverse()) {
          log(`round ${round}/${ROUNDS}: ${server} ${name}, ${DURATION} s, ${CONNECTIONS} connections ...`);
          const key = `${server} ${name}`;
          const run = await measured(started.child, started.port, p, body);
          runs.set(key, [...(runs.get(key) ?? []), run]);
          log(`  ${fmt(run.result.requests.average)} reviews/s, ${fmt(run.cpuPerReview ?? NaN, 1)} us CPU a review`);
        }
      }
    }
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return sorted[Math.floor(sorted.length / 2)] ?? 0;
    };
    const stat = (key: string, pick: (r: Result) => number) =>
      median((runs.get(key) ?? []).map((run) => pick(run.result)));
    const cpuStat = (key: string) => {
      const values = (runs.get(key) ?? []).map((run) => run.cpuPerReview);
      return values.every((v) => v !== undefined) ? median(values as number[]) : undefined;
    };
    /** Ratios of the runs of one round (adjacent in time): their median, and their range. */
    const paired = (name: string, pick: (floorRun: Run, webhookRun: Run) => number | undefined) => {
      const f = runs.get(`floor ${name}`) ?? [];
      const w = runs.get(`webhook ${name}`) ?? [];
      const values = f.map((run, i) => (w[i] ? pick(run, w[i]) : undefined));
      if (values.length === 0 || values.some((v) => v === undefined)) return undefined;
      const sorted = (values as number[]).sort((a, b) => a - b);
      return { median: median(sorted), low: sorted[0] ?? 0, high: sorted[sorted.length - 1] ?? 0 };
    };
    const pairedRows: string[] = [];
    const pairedThroughput: number[] = [];
    const pairedCpu: number[] = [];
    for (const [name] of cases) {
      const t = paired(name, (f, w) => w.result.requests.average / f.result.requests.average);
      const c = paired(name, (f, w) =>
        f.cpuPerReview !== undefined && w.cpuPerReview !== undefined ? f.cpuPerReview / w.cpuPerReview : undefined,
      );
      if (t) pairedThroughput.push(t.median);
      if (c) pairedCpu.push(c.median);
      const range = (r: typeof t) => (r ? `${fmt(r.median, 2)} (${fmt(r.low, 2)}-${fmt(r.high, 2)})` : 'n/a');
      pairedRows.push(`${name.padEnd(19)} ${range(t).padStart(17)} ${range(c).padStart(17)}`);
    }
    const ratios: number[] = [];
    const cpuRatios: number[] = [];
    const cpuRows = cases.map(([name]) => {
      const f = cpuStat(`floor ${name}`);
      const w = cpuStat(`webhook ${name}`);
      if (f === undefined || w === undefined) return `${name.padEnd(19)} (no /proc: not measured)`;
      cpuRatios.push(f / w);
      return `${name.padEnd(19)} ${fmt(f, 1).padStart(8)} ${fmt(w, 1).padStart(9)} ${fmt(f / w, 2).padStart(6)}`;
    });
    const rows = cases.map(([name]) => {
      const fr = stat(`floor ${name}`, (r) => r.requests.average);
      const wr = stat(`webhook ${name}`, (r) => r.requests.average);
      ratios.push(wr / fr);
      const f50 = stat(`floor ${name}`, (r) => r.latency.p50);
      const f99 = stat(`floor ${name}`, (r) => r.latency.p99);
      const w50 = stat(`webhook ${name}`, (r) => r.latency.p50);
      const w99 = stat(`webhook ${name}`, (r) => r.latency.p99);
      return [
        name.padEnd(19),
        fmt(fr).padStart(8),
        fmt(wr).padStart(9),
        fmt(wr / fr, 2).padStart(6),
        `${fmt(f50, 1)}/${fmt(f99, 1)}`.padStart(12),
        `${fmt(w50, 1)}/${fmt(w99, 1)}`.padStart(12),
        fmt(w50 / Math.max(f50, 0.001), 2).padStart(8),
        fmt(w99 / Math.max(f99, 0.001), 2).padStart(8),
      ].join(' ');
    });

    const fixed: string[] = [];
    for (const [name, port, p, body] of [
      ['floor', floor.port, '/mutate', MIGRATE_BODY],
      ['webhook', webhook.port, '/mutate (legacy)', MIGRATE_BODY],
      ['webhook', webhook.port, '/mutate (probe)', DEFAULT_BODY],
      ['webhook', webhook.port, '/validate (legacy)', MIGRATE_BODY],
      ['webhook', webhook.port, '/validate (probe)', VALIDATE_BODY],
    ] as const) {
      log(`fixed rate: ${name} ${p} at ${RATE} reviews/s for ${DURATION} s ...`);
      const r = await load(port, p.split(' ')[0] ?? p, body, { connections: 16, overallRate: RATE });
      fixed.push(
        `${`${name} ${p}`.padEnd(26)} ${fmt(r.requests.average).padStart(8)} ${fmt(r.latency.p50, 2).padStart(8)} ${fmt(r.latency.p99, 2).padStart(8)} ${fmt(r.latency.max, 2).padStart(8)}`,
      );
    }

    const cpu = cpus()[0]?.model ?? 'unknown CPU';
    console.log(`\nwebhook bench: ${cpus().length} x ${cpu}, node ${process.version}, HTTPS keep-alive (TLS 1.3)`);
    console.log(
      `throughput: medians of ${ROUNDS} alternating rounds, ${DURATION} s a run, ${CONNECTIONS} connections, pipelining 1`,
    );
    console.log('review               floor/s webhook/s  ratio floor p50/p99 hook p50/p99 p50 ratio p99 ratio (ms)');
    for (const row of rows) console.log(row);
    console.log(
      `\nserver CPU per review (us, medians; ratio = floor/webhook, the throughput ratio of a CPU-bound server)`,
    );
    console.log('review               floor us  hook us  ratio');
    for (const row of cpuRows) console.log(row);
    const verdict = (values: number[]) => {
      const lowest = Math.min(...values);
      return `lowest ${fmt(lowest, 2)}: ${lowest >= GOAL_RATIO ? 'met' : 'NOT met'}`;
    };
    // Together, one autocannon process drives both servers and is the bottleneck (each gets about the same reviews
    // a second), so only the CPU per review compares the servers.
    const throughputVerdict = TOGETHER
      ? 'not a measure with --together (the client is the bottleneck)'
      : verdict(ratios);
    console.log(
      `goal (issue 14): every ratio >= ${GOAL_RATIO}: throughput ${throughputVerdict}; CPU per review ${cpuRatios.length > 0 ? verdict(cpuRatios) : 'not measured'}`,
    );
    console.log(
      `\nratios of the two runs of each round (adjacent in time), median (lowest-highest) of ${ROUNDS} rounds`,
    );
    console.log('review               throughput ratio   CPU ratio');
    for (const row of pairedRows) console.log(row);
    console.log(
      `goal (issue 14), paired: throughput ${TOGETHER ? 'not a measure with --together' : verdict(pairedThroughput)}; CPU per review ${pairedCpu.length > 0 ? verdict(pairedCpu) : 'not measured'}`,
    );
    console.log(`\nfixed rate: ${RATE} reviews/s, 16 connections, ${DURATION} s`);
    console.log('server                        req/s   p50 ms   p99 ms   max ms');
    for (const row of fixed) console.log(row);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
