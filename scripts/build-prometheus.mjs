// Builds `prometheus` and `promtool` from their Go module (github.com/prometheus/prometheus, the version
// test/monitoring/prometheus-cli/go.mod requires) for the monitoring tests, only when a binary is missing, into a cache
// directory outside the repo keyed by that version, with one `go build` for both. Prints that directory.
// Plain Node, no dependencies: it runs before the monitoring tests in `npm run test:monitoring`.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatElapsed, isExecutableFile, requireGo } from './build-controlplane.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** A module of its own with both commands as its tools: go.mod and go.sum pin Prometheus and everything it uses. */
export const PROMETHEUS_MODULE_DIR = join(repoRoot, 'test', 'monitoring', 'prometheus-cli');
const MODULE = 'github.com/prometheus/prometheus';
const BINARIES = ['prometheus', 'promtool'];
/** No service discovery but static and file configs: the tests scrape a known address, and the binary is halved. */
const BUILD_TAGS = 'remove_all_sd';
const PROGRESS_EVERY_MS = 30_000;

function log(line) {
  process.stderr.write(`build-prometheus: ${line}\n`);
}

/** The module version go.mod requires (v0.315.1) and the release it is (3.15.1), as Prometheus numbers them. */
export function prometheusVersions() {
  const goMod = join(PROMETHEUS_MODULE_DIR, 'go.mod');
  const match = /^\s*(?:require\s+)?github\.com\/prometheus\/prometheus\s+(v0\.(\d+)\.(\d+))\s/m.exec(
    readFileSync(goMod, 'utf8'),
  );
  if (!match) throw new Error(`${goMod}: no requirement on ${MODULE} v0.3xx.y`);
  const [, module, minor, patch] = match;
  const n = Number(minor);
  return { module, release: `${Math.floor(n / 100)}.${n % 100}.${patch}` };
}

export function prometheusDir(version = prometheusVersions().module) {
  if (process.env.CLUSTER_PROBE_PROMETHEUS_DIR) return resolve(process.env.CLUSTER_PROBE_PROMETHEUS_DIR);
  const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cacheHome, 'karmada-cluster-probe', 'prometheus', version);
}

/** The stamps Prometheus' promu sets, so `prometheus --version` names the release. */
function ldflags({ module, release }) {
  const pkg = 'github.com/prometheus/common/version';
  return ['-s', '-w', `-X ${pkg}.Version=${release}`, `-X ${pkg}.Revision=${module}`, `-X ${pkg}.Branch=module`].join(
    ' ',
  );
}

/** One `go build` of both commands into a temporary directory; each checked, then renamed into the cache. */
function buildBoth(versions, outDir) {
  const temp = join(outDir, `.building-${process.pid}`);
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  const started = Date.now();
  const what = `prometheus and promtool ${versions.release} (${MODULE} ${versions.module})`;
  log(`building ${what} (cold builds take 5-15 minutes)...`);
  const timer = setInterval(
    () => log(`building ${what} (${formatElapsed(Date.now() - started)} elapsed)...`),
    PROGRESS_EVERY_MS,
  );
  const pkgs = BINARIES.map((b) => `${MODULE}/cmd/${b}`);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      'go',
      ['build', '-trimpath', '-tags', BUILD_TAGS, '-ldflags', ldflags(versions), '-o', `${temp}/`, ...pkgs],
      {
        cwd: PROMETHEUS_MODULE_DIR,
        env: {
          ...process.env,
          CGO_ENABLED: '0',
          GOFLAGS: `${process.env.GOFLAGS ?? ''} -mod=readonly -buildvcs=false`.trim(),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const stopOnSignal = () => child.kill('SIGTERM');
    process.once('SIGINT', stopOnSignal);
    process.once('SIGTERM', stopOnSignal);
    const done = (err) => {
      clearInterval(timer);
      process.off('SIGINT', stopOnSignal);
      process.off('SIGTERM', stopOnSignal);
      rmSync(temp, { recursive: true, force: true });
      if (err) reject(err);
      else {
        log(`built ${what} in ${formatElapsed(Date.now() - started)}`);
        resolvePromise(outDir);
      }
    };
    child.on('error', done);
    child.on('close', (code, signal) => {
      if (code !== 0) {
        done(
          new Error(`go build of ${what} in ${PROMETHEUS_MODULE_DIR} failed (${signal ?? `exit ${code}`}):\n${output}`),
        );
        return;
      }
      // A binary that cannot report its own version is not put in the cache.
      for (const name of BINARIES) {
        const check = spawnSync(join(temp, name), ['--version'], { encoding: 'utf8' });
        const reported = `${check.stdout ?? ''}${check.stderr ?? ''}`;
        if (check.status !== 0 || !reported.includes(`version ${versions.release}`)) {
          done(new Error(`${name} built but \`${name} --version\` printed ${JSON.stringify(reported.trim())}`));
          return;
        }
      }
      for (const name of BINARIES) {
        chmodSync(join(temp, name), 0o755);
        renameSync(join(temp, name), join(outDir, name));
      }
      done();
    });
  });
}

/** Builds prometheus and promtool when either is missing and resolves to the directory holding them. */
export async function buildPrometheus() {
  const versions = prometheusVersions();
  const outDir = prometheusDir(versions.module);
  if (BINARIES.every((b) => isExecutableFile(join(outDir, b)))) {
    log(`using cached prometheus and promtool ${versions.release} in ${outDir}`);
    return outDir;
  }
  log(
    `using ${requireGo('Prometheus and promtool (npm run test:monitoring)', 'point CLUSTER_PROBE_PROMETHEUS_DIR at a directory that already holds them')}`,
  );
  mkdirSync(outDir, { recursive: true });
  return buildBoth(versions, outDir);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  buildPrometheus().then(
    (dir) => {
      if (!existsSync(join(dir, 'promtool'))) process.exit(1);
      console.log(dir);
    },
    (err) => {
      log(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
