// bench/probe: N HTTP targets on loopback at periodSeconds P (N/P probes a second, a new connection each), probed by
// this engine's scheduler and then, in the same run, by Prometheus' blackbox_exporter at the same rate. Prints CPU per
// 1,000 probes, RSS, p99 start lateness and the CPU ratio. Usage: npx tsx bench/probe/index.ts [--targets N]
// [--seconds S] [--period P] [--quick] [--skip-blackbox]. Only 127.0.0.1 is touched; every loop ends by itself.
// The baseline is pinned (bench/probe/blackbox/go.mod) and found or built before anything is measured; when it cannot
// be had the bench fails, unless --skip-blackbox asks for our figures alone.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ProbeScheduler, runProbe, type LivenessProbe } from '../../packages/probe/src/index.js';
import { findOrBuildExporter, pinnedExporterVersion, processCpuSplit, processRss, startExporter } from './blackbox.js';
import { mib, Reservoir } from './stats.js';

const { values } = parseArgs({
  options: {
    targets: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '60' },
    period: { type: 'string', default: '10' },
    ports: { type: 'string', default: '16' },
    quick: { type: 'boolean', default: false },
    'skip-blackbox': { type: 'boolean', default: false },
  },
});
const targets = values.quick ? 1000 : Number(values.targets);
const seconds = values.quick ? 10 : Number(values.seconds);
const period = Number(values.period);
const portCount = Number(values.ports);
const rate = targets / period;
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

async function benchOurs(ports: number[]): Promise<OursFigures> {
  const late = new Reservoir(500_000);
  const steadyLate = new Reservoir(500_000);
  let steadyFrom = Infinity;
  let probes = 0;
  let failures = 0;
  let attempts = 0;
  const failureKinds = new Map<string, number>();
  let firstFailure = '';
  const scheduler = new ProbeScheduler({
    concurrency: 1000,
    onStart: (_k, l) => {
      late.add(l);
      if (performance.now() >= steadyFrom) steadyLate.add(l);
    },
    onResult: (_k, r) => {
      probes++;
      // An errored probe is retried at once by the prober (up to 3 attempts): each attempt is a request, and under
      // overload the retries are what to watch.
      attempts += r.attempts ?? 1;
      if (r.result !== 'success') {
        failures++;
        firstFailure ||= r.message;
        const kind = `${r.result}${r.code !== undefined ? `/${r.code}` : ''}: ${r.message.replace(/\d+/g, 'N')}`;
        failureKinds.set(kind, (failureKinds.get(kind) ?? 0) + 1);
      }
    },
  });
  let rssPeak = 0;
  const rssBefore = process.memoryUsage.rss();
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 250);
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < targets; i++) {
    const probe: LivenessProbe = {
      httpGet: { host: '127.0.0.1', port: ports[i % ports.length]!, path: `/member-${i}/healthz` },
      periodSeconds: period,
      timeoutSeconds: 1,
    };
    scheduler.add(`member-${i}`, probe, (signal) => runProbe(probe, { signal }));
  }
  steadyFrom = performance.now() + period * 1000;
  for (let s = 0; s < seconds; s++) {
    await sleep(1000);
    if ((s + 1) % 10 === 0) log(`ours: ${s + 1}/${seconds} s, ${probes} probes`);
  }
  const cpu = process.cpuUsage(cpu0);
  const done = probes;
  await scheduler.stop();
  clearInterval(sampler);
  if (failures > 0) log(`ours: ${failures} probes did not succeed, e.g. ${firstFailure}`);
  for (const [kind, n] of [...failureKinds].sort((a, b) => b[1] - a[1]).slice(0, 5)) log(`ours:   ${n} x ${kind}`);
  if (attempts > done) log(`ours: ${attempts} attempts for ${done} probes (errored probes retried)`);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return {
    probes: done,
    failures,
    cpuSeconds,
    systemSeconds: cpu.system / 1e6,
    cpuPer1000: (cpuSeconds / done) * 1000,
    rssPeak,
    rssBefore,
    lateP50: late.percentile(50),
    lateP99: late.percentile(99),
    lateMax: late.max(),
    steadyLateP99: steadyLate.percentile(99),
    steadyLateMax: steadyLate.max(),
  };
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
