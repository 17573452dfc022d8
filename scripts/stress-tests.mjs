#!/usr/bin/env node
// `npm run test:stress`: runs the unit and integration suites N times while busy loops take every core, and prints how
// many times each test passed and failed, and each run's wall time. A test that fails here races the machine's clock
// (docs/testing.md says how to write it instead). Plain Node: worker threads spin, mocha writes its json reporter to a
// file per run; nothing here is a dependency of the package.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { Buffer } from 'node:buffer';

const SUITES = {
  // Each runs as `npm run test:<name>` runs it (the command is package.json's, so a change to it is what is stressed):
  // the unit suite under c8, whose coverage slows the code, the integration suite with its 60 s timeout.
  unit: { script: 'test:unit', spec: 'test/unit/**/*.test.ts', timeout: null },
  integration: { script: 'test:integration', spec: 'test/integration/**/*.test.ts', timeout: '60000' },
};
const ORDERS = ['suite', 'shuffle', 'alone'];

const USAGE = `Usage: node scripts/stress-tests.mjs [options]   (npm run test:stress -- [options])

Runs the unit and integration suites N times, as \`npm test\` runs them (\`npm run test:unit\`, \`npm run
test:integration\`: package.json's own commands), while busy loops take every core; then prints pass/fail counts per
test (every test that failed at least once, and a total), per order, and the wall time of each run.

Options:
  --runs N          how many times each suite runs in each order (default 5)
  --suites LIST     comma-separated: unit, integration (default both)
  --order LIST      comma-separated, each run in every one given (default suite):
                      suite    the suite as npm test runs it, one mocha process for every file
                      shuffle  the same, files, describes and (--shuffle-tests) tests in a seeded random order
                      alone    each spec file in its own mocha process (no c8), nothing else loaded beside it
  --seed N          the first shuffle's seed (run k uses N+k-1; default from the time, printed)
  --shuffle-tests   shuffle the tests inside each describe too (default: files and describes only)
  --fresh           test a fresh clone of --root at --ref in a temporary folder, after npm ci there: what a
                    newcomer's checkout runs, not this working tree (uncommitted changes are not in it)
  --ref REF         the commit a --fresh clone checks out (default HEAD)
  --spec GLOB       run these spec files with mocha instead of the suites (repeatable; one pseudo-suite "spec")
  --ignore GLOB     leave these spec files out (repeatable; mocha's --ignore), e.g. the CPU-bound CLI spawns
  --busy N          busy loops to run (default os.availableParallelism(), here ${availableParallelism()})
  --no-load         no busy loops: the same runs on a quiet machine, for comparison
  --root DIR        the checkout to test (default this script's)
  --all             print every test's counts, not only those that failed at least once
  -h, --help        this text

Exit status 0 when every test passed in every run, 1 otherwise, 2 on a usage error.`;

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    suites: { type: 'string', default: 'unit,integration' },
    order: { type: 'string', default: 'suite' },
    seed: { type: 'string' },
    'shuffle-tests': { type: 'boolean', default: false },
    fresh: { type: 'boolean', default: false },
    ref: { type: 'string', default: 'HEAD' },
    spec: { type: 'string', multiple: true },
    ignore: { type: 'string', multiple: true },
    busy: { type: 'string' },
    'no-load': { type: 'boolean', default: false },
    root: { type: 'string' },
    all: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}

const here = dirname(fileURLToPath(import.meta.url));
const source = resolve(opts.root ?? join(here, '..'));
const runs = Number(opts.runs);
const busy = opts['no-load'] ? 0 : Number(opts.busy ?? availableParallelism());
const seed0 = opts.seed === undefined ? Date.now() % 2 ** 31 : Number(opts.seed);
if (!Number.isInteger(runs) || runs < 1) fail(`--runs ${opts.runs}: give a whole number of at least 1`);
if (!Number.isInteger(busy) || busy < 0) fail(`--busy ${opts.busy}: give a whole number of at least 0`);
if (!Number.isInteger(seed0) || seed0 < 0) fail(`--seed ${opts.seed}: give a whole number of at least 0`);
const orders = opts.order.split(',').map((o) => o.trim());
for (const o of orders) if (!ORDERS.includes(o)) fail(`--order: unknown order "${o}" (${ORDERS.join(', ')})`);

let suites;
if (opts.spec !== undefined) {
  suites = [['spec', { script: null, spec: opts.spec, timeout: '60000' }]];
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

const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

const work = mkdtempSync(join(tmpdir(), 'stress-tests-'));

/** Runs a command to its end, its output kept; throws with that output when it fails. */
function runQuiet(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  if (r.status !== 0) fail(`${cmd} ${args.join(' ')} in ${cwd} failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

let root = source;
if (opts.fresh) {
  // What a newcomer (and CI) runs: a clone of the commit, its own npm ci; nothing of this working tree but its history.
  root = join(work, 'clone');
  const started = performance.now();
  runQuiet('git', ['clone', '--quiet', source, root], work);
  runQuiet('git', ['checkout', '--quiet', '--detach', opts.ref], root);
  console.log(
    `stress-tests: fresh clone of ${source} at ${runQuiet('git', ['rev-parse', '--short', 'HEAD'], root).trim()}`,
  );
  runQuiet('npm', ['ci', '--no-audit', '--no-fund'], root);
  console.log(`stress-tests: npm ci in the clone: ${s(performance.now() - started)}`);
}

const bin = (name) => join(root, 'node_modules', '.bin', name);
if (!existsSync(bin('mocha'))) fail(`${bin('mocha')} is missing: run npm ci in ${root}`);

/** The spec files of a suite, as mocha would expand its glob (git's list of tracked files, so no stray copy counts). */
function specFiles(globs) {
  const tracked = runQuiet('git', ['ls-files', '-z'], root).split('\0');
  const toRegExp = (glob) =>
    new RegExp(
      '^' +
        glob
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*\*\//g, '\ue000')
          .replace(/\*/g, '[^/]*')
          .replace(/\ue000/g, '(?:.*/)?') +
        '$',
    );
  const res = globs.map(toRegExp);
  const ignored = (opts.ignore ?? []).map(toRegExp);
  return tracked.filter((f) => res.some((r) => r.test(f)) && !ignored.some((r) => r.test(f))).sort();
}

// Busy loops: each worker thread spins on its own core until the process ends; the main thread stays free to wait.
const spinners = [];
for (let i = 0; i < busy; i++) {
  const w = new Worker('for (;;) {}', { eval: true });
  w.unref();
  spinners.push(w);
}

/** fullTitle -> { file, suite, pass, fail, pending, byOrder: { order: { pass, fail } }, errors: string[] } */
const tally = new Map();
const wall = []; // { suite, order, run, ms, exit, tests, failures, crashed }

function spawnRun(cmd, args, env) {
  const started = performance.now();
  return new Promise((resolveRun) => {
    // The test's own output (console lines, c8's summary) is kept in a file, not mixed into this report.
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    const log = [];
    child.stdout.on('data', (b) => log.push(b));
    child.stderr.on('data', (b) => log.push(b));
    child.on('close', (code, signal) => {
      resolveRun({ ms: performance.now() - started, exit: code ?? signal, log: Buffer.concat(log).toString() });
    });
  });
}

/** One run of a suite in one order: a report file per mocha process, each recorded. */
async function runOnce(suiteName, suite, order, run) {
  const reporter = (out) => ['--reporter', 'json', '--reporter-option', `output=${out}`];
  const ignore = (opts.ignore ?? []).flatMap((glob) => ['--ignore', glob]);
  const specs = Array.isArray(suite.spec) ? suite.spec : [suite.spec];
  const timeout = suite.timeout === null ? [] : ['--timeout', suite.timeout];
  if (order === 'alone') {
    const files = specFiles(specs);
    const started = performance.now();
    let tests = 0;
    let failures = 0;
    let crashed = 0;
    for (const [i, file] of files.entries()) {
      const out = join(work, `${suiteName}-alone-${run}-${i}.json`);
      const r = await spawnRun(bin('mocha'), [file, ...timeout, ...reporter(out)], {});
      const rec = record(suiteName, order, run, { out, ...r }, file);
      tests += rec.tests;
      failures += rec.failures;
      if (rec.crashed) crashed++;
    }
    const ms = performance.now() - started;
    wall.push({
      suite: suiteName,
      order,
      run,
      ms,
      exit: failures + crashed > 0 ? 1 : 0,
      tests,
      failures,
      crashed: crashed > 0,
      files: files.length,
    });
    return;
  }
  const out = join(work, `${suiteName}-${order}-${run}.json`);
  const env = {};
  const extra = [];
  if (order === 'shuffle') {
    env.STRESS_SEED = String(seed0 + run - 1);
    if (opts['shuffle-tests']) env.STRESS_SHUFFLE = 'tests';
    extra.push('--require', join(here, 'mocha-shuffle.mjs'));
  }
  // `npm run test:unit -- …`: package.json's own command, with the reporter (and the shuffle hook) appended.
  const r =
    suite.script === null
      ? await spawnRun(bin('mocha'), [...specs, ...timeout, ...ignore, ...extra, ...reporter(out)], env)
      : await spawnRun('npm', ['run', '--silent', suite.script, '--', ...ignore, ...extra, ...reporter(out)], env);
  const rec = record(suiteName, order, run, { out, ...r });
  wall.push({ suite: suiteName, order, run, ms: r.ms, exit: r.exit, ...rec, seed: env.STRESS_SEED });
}

function record(suiteName, order, run, { out, exit, log }, file = '') {
  let report;
  try {
    report = JSON.parse(readFileSync(out, 'utf8'));
  } catch {
    report = undefined;
  }
  const entry = (key, testFile) => {
    let t = tally.get(key);
    if (t === undefined) {
      t = { file: testFile, suite: suiteName, pass: 0, fail: 0, pending: 0, byOrder: {}, errors: [] };
      tally.set(key, t);
    }
    t.byOrder[order] ??= { pass: 0, fail: 0 };
    return t;
  };
  if (report === undefined) {
    const t = entry(`(${suiteName} ${order} run crashed before its report${file === '' ? '' : `: ${file}`})`, file);
    t.fail++;
    t.byOrder[order].fail++;
    t.errors.push(`${order} run ${run}, exit ${exit}: ${log.slice(-2000)}`);
    return { tests: 0, failures: 1, crashed: true };
  }
  const fileOf = (test) => (test.file ? relative(root, test.file) : file);
  for (const test of report.passes) {
    const t = entry(test.fullTitle, fileOf(test));
    t.pass++;
    t.byOrder[order].pass++;
  }
  for (const test of report.pending) entry(test.fullTitle, fileOf(test)).pending++;
  for (const test of report.failures) {
    const t = entry(test.fullTitle, fileOf(test));
    t.fail++;
    t.byOrder[order].fail++;
    const message = String(test.err?.message ?? '')
      .split('\n')
      .slice(0, 6)
      .join('\n      ');
    t.errors.push(`${order} run ${run}${order === 'shuffle' ? ` (seed ${seed0 + run - 1})` : ''}: ${message}`);
  }
  // A process that failed with no failing test in its report (a crash after the report, a hook's error) still counts.
  if (report.failures.length === 0 && exit !== 0 && exit !== null) {
    const t = entry(
      `(${suiteName} ${order} run exited ${exit} with no failing test${file === '' ? '' : `: ${file}`})`,
      file,
    );
    t.fail++;
    t.byOrder[order].fail++;
    t.errors.push(`${order} run ${run}: ${log.slice(-2000)}`);
    return { tests: report.stats.tests, failures: 1, crashed: false };
  }
  return { tests: report.stats.tests, failures: report.stats.failures, crashed: false };
}

console.log(
  `stress-tests: ${runs} run(s) of ${suites.map(([n]) => n).join(' and ')} in ${root}, order ${orders.join(', ')}` +
    (orders.includes('shuffle')
      ? ` (seeds ${seed0}..${seed0 + runs - 1}${opts['shuffle-tests'] ? ', tests too' : ''})`
      : '') +
    (opts.ignore !== undefined ? ` (without ${opts.ignore.join(', ')})` : '') +
    `, ${busy} busy loop(s) on ${availableParallelism()} core(s); load average ${load()}`,
);
const startedAll = performance.now();
try {
  for (let run = 1; run <= runs; run++) {
    for (const order of orders) {
      for (const [name, suite] of suites) {
        console.log(`  run ${run}/${runs}: ${name}, ${order} ...`);
        await runOnce(name, suite, order, run);
        const w = wall[wall.length - 1];
        console.log(
          `  run ${run}/${runs}: ${name}, ${order} ${s(w.ms)}, ` +
            (w.files !== undefined ? `${w.files} files, ` : '') +
            (w.seed !== undefined ? `seed ${w.seed}, ` : '') +
            (w.crashed && w.files === undefined
              ? `crashed (exit ${w.exit}), no report`
              : `${w.tests} tests, ${w.failures} failed (exit ${w.exit})`) +
            `; load average ${load()}`,
        );
      }
    }
  }
} finally {
  for (const w of spinners) void w.terminate();
}

const failed = [...tally.entries()].filter(([, t]) => t.fail > 0).sort((a, b) => b[1].fail - a[1].fail);
console.log('');
console.log(`Wall time per run (${busy} busy loop(s)):`);
for (const [name] of suites) {
  for (const order of orders) {
    const mine = wall.filter((w) => w.suite === name && w.order === order);
    console.log(
      `  ${`${name}, ${order}`.padEnd(22)} ${mine.map((w) => s(w.ms)).join(', ')}` +
        (mine.length > 0
          ? `  (min ${s(Math.min(...mine.map((w) => w.ms)))}, max ${s(Math.max(...mine.map((w) => w.ms)))})`
          : ''),
    );
  }
}
console.log('');
const counted = [...tally.values()];
const passes = counted.reduce((n, t) => n + t.pass, 0);
const failures = counted.reduce((n, t) => n + t.fail, 0);
console.log(
  `Tests: ${tally.size} distinct, ${passes} passes and ${failures} failures over ${runs} run(s) in ${orders.length} order(s); ` +
    `${failed.length} test(s) failed at least once.`,
);
const perOrder = (t) => orders.map((o) => `${o} ${t.byOrder[o]?.pass ?? 0}/${t.byOrder[o]?.fail ?? 0}`).join(', ');
if (failed.length > 0) {
  console.log('');
  console.log('Failed at least once (passed/failed, per order):');
  for (const [title, t] of failed) {
    console.log(`  ${perOrder(t)}  [${t.suite}] ${t.file}`);
    console.log(`        ${title}`);
    for (const e of t.errors) console.log(`      ${e}`);
  }
}
if (opts.all) {
  console.log('');
  console.log('Every test (passed/failed, per order; pending):');
  for (const [title, t] of [...tally.entries()].sort((a, b) => a[1].file.localeCompare(b[1].file))) {
    console.log(`  ${perOrder(t)}; ${t.pending}  [${t.suite}] ${t.file}: ${title}`);
  }
}
console.log(`\nTotal ${s(performance.now() - startedAll)}; reports in ${work}`);
if (failed.length === 0) rmSync(work, { recursive: true, force: true });
process.exit(failed.length === 0 ? 0 : 1);
