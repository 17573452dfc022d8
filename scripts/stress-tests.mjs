#!/usr/bin/env node
// `npm run test:stress`: runs the unit and integration suites N times while busy loops take every core, and prints how
// many times each test passed and failed, and each run's wall time. A test that fails here races the machine's clock
// (docs/testing.md says how to write it instead). Plain Node: worker threads spin, mocha writes its json reporter to a
// file per run; nothing here is a dependency of the package.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { Buffer } from 'node:buffer';

const SUITES = {
  // As `npm run test:unit` runs it: under c8, whose coverage slows the code (the unit suite's timing tests run so).
  unit: { spec: 'test/unit/**/*.test.ts', timeout: null, coverage: true },
  integration: { spec: 'test/integration/**/*.test.ts', timeout: '60000', coverage: false },
};

const USAGE = `Usage: node scripts/stress-tests.mjs [options]   (npm run test:stress -- [options])

Runs the unit and integration suites N times while busy loops take every core, then prints pass/fail counts per test
(every test that failed at least once, and a total) and the wall time of each run.

Options:
  --runs N          how many times each suite runs (default 5)
  --suites LIST     comma-separated: unit, integration (default both)
  --spec GLOB       run these spec files instead of the suites' own (repeatable; one pseudo-suite "spec")
  --ignore GLOB     leave these spec files out (repeatable; mocha's --ignore), e.g. the CPU-bound CLI spawns
  --busy N          busy loops to run (default os.availableParallelism(), here ${availableParallelism()})
  --no-load         no busy loops: the same runs on a quiet machine, for comparison
  --no-coverage     the unit suite without c8
  --root DIR        the checkout to test (default this script's)
  --all             print every test's counts, not only those that failed at least once
  -h, --help        this text

Exit status 0 when every test passed in every run, 1 otherwise.`;

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    suites: { type: 'string', default: 'unit,integration' },
    spec: { type: 'string', multiple: true },
    ignore: { type: 'string', multiple: true },
    busy: { type: 'string' },
    'no-load': { type: 'boolean', default: false },
    'no-coverage': { type: 'boolean', default: false },
    root: { type: 'string' },
    all: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}

const root = resolve(opts.root ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const runs = Number(opts.runs);
const busy = opts['no-load'] ? 0 : Number(opts.busy ?? availableParallelism());
if (!Number.isInteger(runs) || runs < 1) fail(`--runs ${opts.runs}: give a whole number of at least 1`);
if (!Number.isInteger(busy) || busy < 0) fail(`--busy ${opts.busy}: give a whole number of at least 0`);

let suites;
if (opts.spec !== undefined) {
  suites = [['spec', { spec: opts.spec, timeout: '60000', coverage: false }]];
} else {
  suites = opts.suites.split(',').map((name) => {
    const suite = SUITES[name.trim()];
    if (suite === undefined) fail(`--suites: unknown suite "${name}" (unit, integration)`);
    return [name.trim(), suite];
  });
}

function fail(message) {
  console.error(`stress-tests: ${message}`);
  process.exit(2);
}

const bin = (name) => join(root, 'node_modules', '.bin', name);
if (!existsSync(bin('mocha'))) fail(`${bin('mocha')} is missing: run npm ci in ${root}`);

// Busy loops: each worker thread spins on its own core until the process ends; the main thread stays free to wait.
const spinners = [];
for (let i = 0; i < busy; i++) {
  const w = new Worker('for (;;) {}', { eval: true });
  w.unref();
  spinners.push(w);
}

const work = mkdtempSync(join(tmpdir(), 'stress-tests-'));
/** fullTitle -> { file, suite, pass, fail, pending, errors: string[] } */
const tally = new Map();
const wall = []; // { suite, run, ms, exit, tests, failures, crashed }

function runOnce(suiteName, suite, run) {
  const out = join(work, `${suiteName}-${run}.json`);
  const specs = Array.isArray(suite.spec) ? suite.spec : [suite.spec];
  const mochaArgs = [...specs, '--reporter', 'json', '--reporter-option', `output=${out}`];
  if (suite.timeout !== null) mochaArgs.push('--timeout', suite.timeout);
  for (const glob of opts.ignore ?? []) mochaArgs.push('--ignore', glob);
  const coverage = suite.coverage && !opts['no-coverage'];
  const [cmd, args] = coverage
    ? [
        bin('c8'),
        [
          '--reporter=text-summary',
          `--temp-directory=${join(work, `c8-${suiteName}-${run}`)}`,
          `--report-dir=${join(work, `c8-report-${suiteName}-${run}`)}`,
          bin('mocha'),
          ...mochaArgs,
        ],
      ]
    : [bin('mocha'), mochaArgs];
  const started = performance.now();
  return new Promise((resolveRun) => {
    // The test's own output (console lines, c8's summary) is kept in a file, not mixed into this report.
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } });
    const log = [];
    child.stdout.on('data', (b) => log.push(b));
    child.stderr.on('data', (b) => log.push(b));
    child.on('close', (code, signal) => {
      const ms = performance.now() - started;
      resolveRun({ out, ms, exit: code ?? signal, log: Buffer.concat(log).toString() });
    });
  });
}

function record(suiteName, run, { out, ms, exit, log }) {
  let report;
  try {
    report = JSON.parse(readFileSync(out, 'utf8'));
  } catch {
    report = undefined;
  }
  if (report === undefined) {
    wall.push({ suite: suiteName, run, ms, exit, tests: 0, failures: 0, crashed: true });
    const key = `(${suiteName} run crashed before its report)`;
    const t = tally.get(key) ?? { file: '', suite: suiteName, pass: 0, fail: 0, pending: 0, errors: [] };
    t.fail++;
    t.errors.push(`run ${run}, exit ${exit}: ${log.slice(-2000)}`);
    tally.set(key, t);
    return;
  }
  const entry = (test) => {
    const key = test.fullTitle;
    let t = tally.get(key);
    if (t === undefined) {
      t = {
        file: test.file ? relative(root, test.file) : '',
        suite: suiteName,
        pass: 0,
        fail: 0,
        pending: 0,
        errors: [],
      };
      tally.set(key, t);
    }
    return t;
  };
  for (const test of report.passes) entry(test).pass++;
  for (const test of report.pending) entry(test).pending++;
  for (const test of report.failures) {
    const t = entry(test);
    t.fail++;
    const message = String(test.err?.message ?? '')
      .split('\n')
      .slice(0, 6)
      .join('\n      ');
    t.errors.push(`run ${run}: ${message}`);
  }
  wall.push({
    suite: suiteName,
    run,
    ms,
    exit,
    tests: report.stats.tests,
    failures: report.stats.failures,
    crashed: false,
  });
}

const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

console.log(
  `stress-tests: ${runs} run(s) of ${suites.map(([n]) => n).join(' and ')} in ${root}` +
    (opts.ignore !== undefined ? ` (without ${opts.ignore.join(', ')})` : '') +
    `, ` +
    `${busy} busy loop(s) on ${availableParallelism()} core(s); load average ${load()}`,
);
const startedAll = performance.now();
try {
  for (let run = 1; run <= runs; run++) {
    for (const [name, suite] of suites) {
      console.log(`  run ${run}/${runs}: ${name} ...`);
      const result = await runOnce(name, suite, run);
      record(name, run, result);
      const w = wall[wall.length - 1];
      console.log(
        `  run ${run}/${runs}: ${name} ${s(w.ms)}, ` +
          (w.crashed
            ? `crashed (exit ${w.exit}), no report`
            : `${w.tests} tests, ${w.failures} failed (exit ${w.exit})`) +
          `; load average ${load()}`,
      );
    }
  }
} finally {
  for (const w of spinners) void w.terminate();
}

const failed = [...tally.entries()].filter(([, t]) => t.fail > 0).sort((a, b) => b[1].fail - a[1].fail);
console.log('');
console.log(`Wall time per run (${busy} busy loop(s)):`);
for (const [name] of suites) {
  const mine = wall.filter((w) => w.suite === name);
  console.log(
    `  ${name.padEnd(12)} ${mine.map((w) => s(w.ms)).join(', ')}` +
      (mine.length > 0
        ? `  (min ${s(Math.min(...mine.map((w) => w.ms)))}, max ${s(Math.max(...mine.map((w) => w.ms)))})`
        : ''),
  );
}
console.log('');
const counted = [...tally.values()];
const passes = counted.reduce((n, t) => n + t.pass, 0);
const failures = counted.reduce((n, t) => n + t.fail, 0);
console.log(
  `Tests: ${tally.size} distinct, ${passes} passes and ${failures} failures over ${runs} run(s); ` +
    `${failed.length} test(s) failed at least once.`,
);
if (failed.length > 0) {
  console.log('');
  console.log('Failed at least once (passed/failed of runs):');
  for (const [title, t] of failed) {
    console.log(`  ${t.pass}/${t.fail}  [${t.suite}] ${t.file}`);
    console.log(`        ${title}`);
    for (const e of t.errors) console.log(`      ${e}`);
  }
}
if (opts.all) {
  console.log('');
  console.log('Every test (passed/failed/pending of runs):');
  for (const [title, t] of [...tally.entries()].sort((a, b) => a[1].file.localeCompare(b[1].file))) {
    console.log(`  ${t.pass}/${t.fail}/${t.pending}  [${t.suite}] ${t.file}: ${title}`);
  }
}
console.log(`\nTotal ${s(performance.now() - startedAll)}; reports in ${work}`);
if (failed.length === 0) rmSync(work, { recursive: true, force: true });
process.exit(failed.length === 0 ? 0 : 1);
