// bench/probe: N HTTP targets on loopback at periodSeconds P (N/P probes a second, a new connection each), probed by
// this engine's scheduler and then, in the same run, by Prometheus' blackbox_exporter at the same rate. Prints CPU per
// 1,000 probes, RSS, p99 start lateness and the CPU ratio. Usage: npx tsx bench/probe/index.ts [--targets N]
// [--seconds S] [--period P] [--quick] [--skip-blackbox] [--cpu-prof DIR] [--timer-slack MS]. Our side runs in a child process on the
// compiled packages (bench/probe/ours.mjs), as the image runs them; --cpu-prof writes that child's V8 CPU profile
// into DIR (bench/probe/flame.ts turns it into a flame graph). Only 127.0.0.1 is touched; every loop ends by itself.
// The baseline is pinned (bench/probe/blackbox/go.mod) and found or built before anything is measured; when it cannot
// be had the bench fails, unless --skip-blackbox asks for our figures alone.
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { findOrBuildExporter, pinnedExporterVersion, processCpuSplit, processRss, startExporter } from './blackbox.js';
import { mib } from './stats.js';

const { values } = parseArgs({
  options: {
    targets: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '60' },
    period: { type: 'string', default: '10' },
    ports: { type: 'string', default: '16' },
    quick: { type: 'boolean', default: false },
    'skip-blackbox': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    'timer-slack': { type: 'string' },
  },
});
const targets = values.quick ? 1000 : Number(values.targets);
const seconds = values.quick ? 10 : Number(values.seconds);
const period = Number(values.period);
const portCount = Number(values.ports);
const rate = targets / period;
const cpuProf = values['cpu-prof'];
/** The scheduler's timerSlackMs (its default, TIMER_SLACK_MS, when not given; 0 to start each run at its due time). */
const timerSlack = values['timer-slack'] === undefined ? undefined : Number(values['timer-slack']);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const log = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function startTargets(): Promise<{ ports: number[]; stop: () => void }> {
  const script = fileURLToPath(new URL('./targets-server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, String(portCount)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', (l) => {
      rl.close();
      resolve(l);
    });
    child.once('exit', (code) => reject(new Error(`target servers exited (${code})`)));
  });
  const { ports } = JSON.parse(line) as { ports: number[] };
  return { ports, stop: () => child.stdin!.end() };
}

interface OursFigures {
  probes: number;
  failures: number;
  cpuSeconds: number;
  /** Of cpuSeconds, in the kernel (the syscalls of a new connection a probe). */
  systemSeconds: number;
  cpuPer1000: number;
  rssPeak: number;
  /** RSS before the first target: node, tsx and the engine loaded (what no target costs). */
  rssBefore: number;
  lateP50: number;
  lateP99: number;
  lateMax: number;
  /** After the first period, when every target has run once and the JIT is warm. */
  steadyLateP99: number;
  steadyLateMax: number;
}

/**
 * Builds the two packages the engine ships as (tsc, a few seconds), so that the child measures this tree's code as
 * the image runs it, never a stale dist/.
 */
function buildEngine(): void {
  const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
  for (const project of ['packages/schema/tsconfig.json', 'packages/probe/tsconfig.json'])
    execFileSync(process.execPath, [tsc, '-p', project], { cwd: ROOT, stdio: 'inherit' });
}

/** Runs bench/probe/ours.mjs in a child process on the compiled engine and returns its figures. */
async function benchOurs(ports: number[]): Promise<OursFigures> {
  const script = fileURLToPath(new URL('./ours.mjs', import.meta.url));
  const node = [...(cpuProf === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${cpuProf}`]), script];
  const child = spawn(process.execPath, [...node, JSON.stringify({ ports, targets, period, seconds, timerSlack })], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (c: string) => (out += c));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`bench/probe/ours.mjs exited with ${code}`);
  const figures = JSON.parse(out.trim().split('\n').pop() ?? '{}') as OursFigures & {
    failureKinds: [string, number][];
    attempts: number;
  };
  if (figures.failures > 0) log(`ours: ${figures.failures} probes did not succeed`);
  for (const [kind, n] of figures.failureKinds) log(`ours:   ${n} x ${kind}`);
  if (figures.attempts > figures.probes)
    log(`ours: ${figures.attempts} attempts for ${figures.probes} probes (errored probes retried)`);
  return figures;
}

interface BlackboxFigures {
  probes: number;
  failures: number;
  cpuSeconds: number;
  systemSeconds: number;
  cpuPer1000: number;
  rssPeak: number;
}

async function benchBlackbox(binary: string, ports: number[]): Promise<BlackboxFigures> {
  const exporter = await startExporter(binary, 1);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  let issued = 0;
  let inFlight = 0;
  let probes = 0;
  let failures = 0;
  const fire = (i: number): void => {
    const target = `http://127.0.0.1:${ports[i % ports.length]!}/member-${i}/healthz`;
    inFlight++;
    const req = http.get(
      {
        host: '127.0.0.1',
        port: exporter.port,
        path: `/probe?module=http_2xx&target=${encodeURIComponent(target)}`,
        agent,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => {
          inFlight--;
          probes++;
          if (!/^probe_success 1$/m.test(body)) failures++;
        });
      },
    );
    req.on('error', () => {
      inFlight--;
      failures++;
    });
  };
  // Warm the exporter a little (as our scheduler's first runs warm the JIT), then measure.
  const cpu0 = processCpuSplit(exporter.pid);
  const started = performance.now();
  let rssPeak = 0;
  for (let tick = 0; performance.now() - started < seconds * 1000; tick++) {
    const due = Math.floor(((performance.now() - started) / 1000) * rate);
    while (issued < due && inFlight < 2000) fire(issued++ % targets);
    if (tick % 25 === 0) rssPeak = Math.max(rssPeak, processRss(exporter.pid).peak);
    if (tick % 1000 === 999)
      log(`blackbox: ${Math.round((performance.now() - started) / 1000)}/${seconds} s, ${probes} probes`);
    await sleep(10);
  }
  const cpu1 = processCpuSplit(exporter.pid);
  const systemSeconds = cpu1.system - cpu0.system;
  const cpuSeconds = cpu1.user - cpu0.user + systemSeconds;
  const done = probes;
  const drainUntil = performance.now() + 3000;
  while (inFlight > 0 && performance.now() < drainUntil) await sleep(20);
  rssPeak = Math.max(rssPeak, processRss(exporter.pid).peak);
  agent.destroy();
  await exporter.stop();
  return { probes: done, failures, cpuSeconds, systemSeconds, cpuPer1000: (cpuSeconds / done) * 1000, rssPeak };
}

async function main(): Promise<void> {
  log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${cpus().length} CPUs`,
  );
  log(`${targets} targets, periodSeconds ${period} (${rate} probes/s), ${seconds} s per prober, ${portCount} ports`);
  const binary = values['skip-blackbox'] ? undefined : await findOrBuildExporter(log);
  if (binary === undefined) log('--skip-blackbox: no baseline, so no ratio to blackbox_exporter');
  log('building the engine as it ships (tsc -p packages/schema, packages/probe)...');
  buildEngine();
  const servers = await startTargets();
  try {
    log('probing with the karmada-cluster-probe scheduler...');
    const ours = await benchOurs(servers.ports);
    let baseline: BlackboxFigures | undefined;
    if (binary !== undefined) {
      await sleep(2000);
      log(`probing with blackbox_exporter ${pinnedExporterVersion()} (${binary})...`);
      baseline = await benchBlackbox(binary, servers.ports);
    }
    const lines = [
      '',
      `probe bench: ${targets} HTTP targets, periodSeconds ${period} => ${rate} probes/s, ${seconds} s each, new connection per probe`,
      `  karmada-cluster-probe: ${ours.probes} probes (${ours.failures} not successful), CPU ${ours.cpuSeconds.toFixed(2)} s (kernel ${ours.systemSeconds.toFixed(2)} s) = ${ours.cpuPer1000.toFixed(3)} CPU-s per 1,000 probes, RSS peak ${mib(ours.rssPeak)} (${mib(ours.rssBefore)} before the first target), start lateness p50 ${ours.lateP50.toFixed(1)} ms, p99 ${ours.lateP99.toFixed(1)} ms, max ${ours.lateMax.toFixed(1)} ms (after the first period: p99 ${ours.steadyLateP99.toFixed(1)} ms, max ${ours.steadyLateMax.toFixed(1)} ms)`,
      ...(baseline !== undefined
        ? [
            `  blackbox_exporter ${pinnedExporterVersion()}: ${baseline.probes} probes (${baseline.failures} not successful), CPU ${baseline.cpuSeconds.toFixed(2)} s (kernel ${baseline.systemSeconds.toFixed(2)} s) = ${baseline.cpuPer1000.toFixed(3)} CPU-s per 1,000 probes, RSS peak ${mib(baseline.rssPeak)}`,
            `  CPU per probe, ours / blackbox_exporter: ${(ours.cpuPer1000 / baseline.cpuPer1000).toFixed(2)}x (issue 39's goal <= 0.25x)`,
          ]
        : []),
      `  load average at the end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} on ${cpus().length} CPUs (other work on the machine inflates lateness)`,
      `  goals: p99 lateness < 100 ms: ${ours.lateP99 < 100 ? 'met' : 'MISSED'}; RSS < 300 MB: ${ours.rssPeak < 300e6 ? 'met' : 'MISSED'}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    process.stdout.write(
      `${JSON.stringify({ targets, period, seconds, rate, ours, blackbox: baseline === undefined ? null : { version: pinnedExporterVersion(), ...baseline } })}\n`,
    );
  } finally {
    servers.stop();
  }
}

try {
  await main();
} catch (err) {
  log(`failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
