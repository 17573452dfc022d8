// bench/probe's side of this engine, in a process of its own running the compiled packages as they ship (plain node,
// no tsx: the image runs compiled JavaScript, and tsx's loader held about 25 MiB of the bench's RSS): the
// ProbeScheduler with the reconciler's defaults, runProbe on every target, its own CPU, RSS and start lateness. Given
// `{"ports": [...], "targets": N, "period": P, "seconds": S, "timerSlack": MS?}` as its one argument; prints its progress on stderr and
// one JSON line of figures on stdout, then exits. Only 127.0.0.1 is touched.
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval, setTimeout } from 'node:timers';
import { ProbeScheduler, runProbe } from '@karmada-cluster-probe/probe';

const { ports, targets, period, seconds, timerSlack } = JSON.parse(process.argv[2] ?? '{}');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (line) => void process.stderr.write(`[bench] ${line}\n`);

/** Start lateness of at most `capacity` runs (the rest sampled uniformly). */
class Sample {
  constructor(capacity) {
    this.values = new Float64Array(capacity);
    this.seen = 0;
  }
  add(v) {
    if (this.seen < this.values.length) this.values[this.seen] = v;
    else {
      const j = Math.floor(Math.random() * (this.seen + 1));
      if (j < this.values.length) this.values[j] = v;
    }
    this.seen++;
  }
  figures() {
    const sorted = this.values.slice(0, Math.min(this.seen, this.values.length)).sort();
    const at = (p) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]);
    return { p50: at(0.5), p99: at(0.99), max: sorted.length === 0 ? NaN : sorted[sorted.length - 1] };
  }
}

const late = new Sample(500_000);
const steadyLate = new Sample(500_000);
let steadyFrom = Infinity;
let probes = 0;
let failures = 0;
let attempts = 0;
const failureKinds = new Map();
const scheduler = new ProbeScheduler({
  concurrency: 1000,
  ...(timerSlack === undefined || timerSlack === null ? {} : { timerSlackMs: timerSlack }),
  onStart: (_k, l) => {
    late.add(l);
    if (performance.now() >= steadyFrom) steadyLate.add(l);
  },
  onResult: (_k, r) => {
    probes++;
    // An errored probe is retried at once by the prober (up to 3 attempts): each attempt is a request.
    attempts += r.attempts ?? 1;
    if (r.result !== 'success') {
      failures++;
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
  const probe = {
    httpGet: { host: '127.0.0.1', port: ports[i % ports.length], path: `/member-${i}/healthz` },
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
rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
await scheduler.stop();
clearInterval(sampler);
const all = late.figures();
const steady = steadyLate.figures();
process.stdout.write(
  `${JSON.stringify({
    probes: done,
    failures,
    failureKinds: [...failureKinds].sort((a, b) => b[1] - a[1]).slice(0, 5),
    attempts,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    systemSeconds: cpu.system / 1e6,
    cpuPer1000: ((cpu.user + cpu.system) / 1e6 / done) * 1000,
    rssPeak,
    rssBefore,
    lateP50: all.p50,
    lateP99: all.p99,
    lateMax: all.max,
    steadyLateP99: steady.p99,
    steadyLateMax: steady.max,
  })}\n`,
);
