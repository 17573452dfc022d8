// bench/startup: start-up of the CLI as a user meets it, each command a whole process of the built CLI
// (bin/cluster-probe.js over dist/): `validate` of one file, `migrate` of one file, `serve` until it logs that it
// listens with its certificate loaded, plus `--help` and bare imports of the schema library and of the CLI's entry
// point, each against bare `node -e 0` measured in the same run. Cases run interleaved, round after round, in a
// rotating order, so load from elsewhere on the machine hits all alike; medians are compared. Peak RSS and CPU time
// come from the process itself (`process.resourceUsage()` at exit, by a preloaded hook that every case, `node -e 0`
// included, carries).
// Usage: npm run build && npx tsx bench/startup/index.ts [--rounds N] [--compare DIR] [--json]
//   --compare DIR   also measure another checkout with a built dist/ (a `git worktree` of an earlier commit, its
//                   node_modules linked to this one's), interleaved with this one
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '15' },
    compare: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const ROUNDS = Math.min(Math.max(Number(values.rounds) || 15, 3), 101);
const repo = path.resolve(import.meta.dirname, '../..');
const VALIDATE_FILE = 'test/fixtures/clusters/member-dev.yaml';
const MIGRATE_FILE = 'test/fixtures/clusters/member-legacy.yaml';
/** The goals (issue 14): one file at most 3x bare Node's wall time and 80 MiB; serve ready in 0.5 s. */
const GOALS = { ratio: 3, rssMiB: 80, serveMs: 500 };

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

interface Sample {
  wallMs: number;
  cpuMs: number;
  rssMiB: number;
}

interface Case {
  name: string;
  tree: string;
  run(): Promise<Sample>;
}

const work = mkdtempSync(path.join(tmpdir(), 'cluster-probe-startup-'));
const hook = path.join(work, 'usage-hook.cjs');
// Written at exit by the measured process itself: what the kernel counted as its peak resident set, and its CPU.
writeFileSync(
  hook,
  `process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').writeFileSync(process.env.STARTUP_BENCH_USAGE, JSON.stringify({ rssKiB: u.maxRSS, cpuUs: u.userCPUTime + u.systemCPUTime })); });\n`,
);
let serial = 0;

function usageFile(): string {
  return path.join(work, `usage-${serial++}.json`);
}

function readUsage(file: string, wallMs: number): Sample {
  const u = JSON.parse(readFileSync(file, 'utf8')) as { rssKiB: number; cpuUs: number };
  rmSync(file);
  return { wallMs, cpuMs: u.cpuUs / 1000, rssMiB: u.rssKiB / 1024 };
}

/** Runs `node --require hook ...args` in `cwd` to its exit; fails unless it exits with `expectCode`. */
function whole(args: string[], cwd: string, expectCode = 0): () => Promise<Sample> {
  return () =>
    new Promise((resolve, reject) => {
      const out = usageFile();
      const started = performance.now();
      const child = spawn(process.execPath, ['--require', hook, ...args], {
        cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, STARTUP_BENCH_USAGE: out },
      });
      let stderr = '';
      child.stdout.resume();
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        const wallMs = performance.now() - started;
        if (code !== expectCode)
          return reject(new Error(`node ${args.join(' ')} (in ${cwd}) exited ${code}: ${stderr.trim()}`));
        resolve(readUsage(out, wallMs));
      });
    });
}

/** Starts `serve` and times it to its "webhook listening" log line with the certificate loaded, then stops it. */
function serveToReady(cwd: string, certDir: string): () => Promise<Sample> {
  return () =>
    new Promise((resolve, reject) => {
      const out = usageFile();
      const started = performance.now();
      const child = spawn(
        process.execPath,
        [
          '--require',
          hook,
          'bin/cluster-probe.js',
          'serve',
          '--port',
          '0',
          '--cert-dir',
          certDir,
          '--shutdown-delay',
          '0',
        ],
        { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, STARTUP_BENCH_USAGE: out } },
      );
      let readyMs: number | undefined;
      let buffered = '';
      let stderr = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdout.on('data', (d: Buffer) => {
        buffered += d.toString();
        if (readyMs !== undefined) return;
        for (const line of buffered.split('\n')) {
          if (!line.includes('"webhook listening"')) continue;
          if (!line.includes('"ready":true')) continue;
          readyMs = performance.now() - started;
          child.kill('SIGTERM');
        }
      });
      child.on('error', reject);
      child.on('close', () => {
        clearTimeout(timer);
        if (readyMs === undefined) return reject(new Error(`serve (in ${cwd}) never became ready: ${stderr.trim()}`));
        resolve(readUsage(out, readyMs));
      });
    });
}

function casesFor(tree: string, root: string, certDir: string): Case[] {
  if (!existsSync(path.join(root, 'dist/src/cli/main.js')))
    throw new Error(`${root} has no dist/: run \`npm run build\` there first`);
  const bin = 'bin/cluster-probe.js';
  const importOf = (module: string): string[] => [
    '--input-type=module',
    '-e',
    `await import(${JSON.stringify(path.join(root, module))})`,
  ];
  return [
    { name: 'import schema library', tree, run: whole(importOf('dist/packages/schema/src/schema/index.js'), root) },
    { name: 'import CLI entry point', tree, run: whole(importOf('dist/src/cli/main.js'), root) },
    { name: 'cluster-probe --help', tree, run: whole([bin, '--help'], root) },
    { name: 'validate one file', tree, run: whole([bin, 'validate', path.join(repo, VALIDATE_FILE)], root) },
    { name: 'migrate one file', tree, run: whole([bin, 'migrate', path.join(repo, MIGRATE_FILE)], root) },
    { name: 'serve to ready', tree, run: serveToReady(root, certDir) },
  ];
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

async function main(): Promise<void> {
  const certDir = path.join(work, 'certs');
  log(`making a serving certificate for serve in ${certDir} ...`);
  const made = spawnSync(process.execPath, ['bin/cluster-probe.js', 'certs', '--out', certDir], {
    cwd: repo,
    encoding: 'utf8',
  });
  if (made.status !== 0) throw new Error(`cluster-probe certs failed: ${made.stderr}`);

  const bare: Case = { name: 'node -e 0', tree: '', run: whole(['-e', '0'], repo) };
  const trees: [string, string][] = [['this tree', repo]];
  if (values.compare !== undefined) trees.push([values.compare, path.resolve(values.compare)]);
  const cases = [bare, ...trees.flatMap(([tree, root]) => casesFor(tree, root, certDir))];
  const samples = new Map<Case, Sample[]>(cases.map((c) => [c, []]));

  // One warm-up round (file cache, certificate files), not counted.
  for (const c of cases) await c.run();
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < cases.length; i++) {
      const c = cases[(i + r) % cases.length]!;
      samples.get(c)!.push(await c.run());
    }
    log(`round ${r + 1}/${ROUNDS}`);
  }

  const stat = (c: Case) => {
    const s = samples.get(c)!;
    return {
      wallMs: median(s.map((x) => x.wallMs)),
      cpuMs: median(s.map((x) => x.cpuMs)),
      rssMiB: median(s.map((x) => x.rssMiB)),
    };
  };
  const base = stat(bare);
  const rows = cases.map((c) => ({ case: c.name, tree: c.tree, ...stat(c) }));
  const fmt = (n: number, digits = 0): string => n.toFixed(digits).padStart(6);
  console.log(
    `bench/startup (${ROUNDS} interleaved rounds, medians; node ${process.version}; wall of serve is to "webhook listening")`,
  );
  console.log(`  ${'case'.padEnd(28)} ${'tree'.padEnd(14)}  wall ms  x node -e 0  CPU ms  peak RSS MiB`);
  for (const row of rows) {
    console.log(
      `  ${row.case.padEnd(28)} ${row.tree.padEnd(14)}  ${fmt(row.wallMs)}  ${fmt(row.wallMs / base.wallMs, 2).padStart(10)}  ${fmt(row.cpuMs)}  ${fmt(row.rssMiB, 1).padStart(12)}`,
    );
  }
  const mine = rows.filter((r) => r.tree === 'this tree');
  const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');
  for (const name of ['validate one file', 'migrate one file']) {
    const r = mine.find((x) => x.case === name)!;
    const ratio = r.wallMs / base.wallMs;
    console.log(
      `  goal ${name}: <= ${GOALS.ratio}x node -e 0 and <= ${GOALS.rssMiB} MiB: ${ratio.toFixed(2)}x, ${r.rssMiB.toFixed(1)} MiB: ${verdict(ratio <= GOALS.ratio && r.rssMiB <= GOALS.rssMiB)}`,
    );
  }
  const serve = mine.find((x) => x.case === 'serve to ready')!;
  console.log(
    `  goal serve to ready: < ${GOALS.serveMs} ms: ${serve.wallMs.toFixed(0)} ms: ${verdict(serve.wallMs < GOALS.serveMs)}`,
  );
  if (values.json) console.log(JSON.stringify({ rounds: ROUNDS, node: process.version, rows }));
}

try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}
