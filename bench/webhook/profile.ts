// Where the server's CPU goes per review: one server of bench/webhook/server.ts (the floor, a floor variant, or the
// webhook) under autocannon load on one review, its CPU per review from /proc, and optionally a profile of the server
// process for the measured run: `--perf` records `perf record -e cpu-clock` (CPU time only, JS frames named through
// --perf-basic-prof); `--cpu-prof DIR` writes a V8 .cpuprofile (its sample deltas are wall time, so a server that is
// descheduled inside a syscall shows the wait as that syscall's cost: on a shared machine, read `perf` instead).
// Run: npx tsx bench/webhook/profile.ts floor|webhook /mutate|/validate legacy|probe|valid [--duration S]
//        [--rate R] [--variant handler,metrics,opts] [--perf FILE] [--cpu-prof DIR]
// --rate R holds the load at R reviews/s (autocannon's overallRate) instead of as fast as the server answers, so
// servers of different speed are compared at the same batching (reviews per event-loop turn).
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { makeCertificates } from '../../src/certs/index.js';
import { DEFAULT_BODY, MIGRATE_BODY, VALIDATE_BODY } from './reviews.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    duration: { type: 'string', default: '4' },
    rate: { type: 'string' },
    variant: { type: 'string', default: '' },
    perf: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});
const [kind, route, review] = positionals;
const bodies: Record<string, string> = { legacy: MIGRATE_BODY, probe: DEFAULT_BODY, valid: VALIDATE_BODY };
if ((kind !== 'floor' && kind !== 'webhook') || (route !== '/mutate' && route !== '/validate') || !bodies[review!]) {
  process.stderr.write('usage: profile.ts floor|webhook /mutate|/validate legacy|probe|valid [options]\n');
  process.exit(2);
}
const duration = Math.min(Math.max(Number(values.duration) || 4, 1), 60);
const rate = values.rate !== undefined ? Math.max(Number(values.rate) || 0, 0) : 0;
const here = import.meta.dirname;

function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cluster-probe-profile-'));
  try {
    await makeCertificates(dir, { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
    const nodeFlags = [
      // --perf-basic-prof also writes V8's log; keep it out of the working tree.
      ...(values.perf !== undefined
        ? ['--perf-basic-prof', '--no-logfile-per-isolate', `--logfile=${path.join(dir, 'v8.log')}`]
        : []),
      ...(values['cpu-prof'] !== undefined ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : []),
    ];
    const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', path.join(here, 'server.ts'), kind!, dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production', BENCH_FLOOR_VARIANT: values.variant },
    });
    const port = await new Promise<number>((resolve) =>
      createInterface({ input: child.stdout! }).once('line', (line) =>
        resolve((JSON.parse(line) as { port: number }).port),
      ),
    );
    const options = {
      url: `https://127.0.0.1:${port}${route}`,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      body: bodies[review!],
      connections: 32,
      pipelining: 1,
      ...(rate > 0 ? { overallRate: rate } : {}),
    };
    await autocannon({ ...options, duration: 2 }); // warm-up, not measured
    const perf =
      values.perf !== undefined
        ? spawn('perf', ['record', '-e', 'cpu-clock', '-F', '4000', '-g', '-o', values.perf, '-p', String(child.pid)], {
            stdio: 'ignore',
          })
        : undefined;
    const before = cpuMicros(child.pid!);
    const result = await autocannon({ ...options, duration });
    const after = cpuMicros(child.pid!);
    if (perf) {
      perf.kill('SIGINT');
      await new Promise((resolve) => perf.once('exit', resolve));
    }
    const variant = values.variant ? ` (variant ${values.variant})` : '';
    console.log(
      `${kind}${variant} ${route} ${review}: ${result.requests.average.toFixed(0)} reviews/s, ` +
        `${((after - before) / Math.max(result.requests.total, 1)).toFixed(1)} us server CPU per review, ` +
        `${result.requests.total} reviews, ${result.errors + result.non2xx + result.timeouts} failed`,
    );
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

void main();
