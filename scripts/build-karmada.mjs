// Builds the Karmada control plane for the Karmada e2e suite and `cluster-probe dev up --karmada`, only when the
// binaries are missing, into a cache directory outside the repo keyed by the Karmada version and the admission patch:
// karmada-aggregated-apiserver, -controller-manager, -scheduler and -webhook from Karmada's own source, plus
// karmada-aggregated-apiserver-admission (the same server with test/e2e/controlplane/karmada/*.patch applied, which
// gives it the standard admission chain; see docs/karmada-admission.md). Prints that directory.
//
// The source comes from, in order: $CLUSTER_PROBE_KARMADA_SRC (a directory or a .tar.xz), ../shared/karmada/ beside
// the checkout (the pruned, vendored tarball), or a shallow git clone of the tag. Everything builds with -mod=vendor,
// so no module download is needed. Plain Node, no dependencies.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildOne, isExecutableFile, log, requireGo } from './build-controlplane.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const karmadaDir = join(repoRoot, 'test', 'e2e', 'controlplane', 'karmada');

/** The one place the Karmada version is written down (the shared tarball and the git tag follow it). */
export const KARMADA_VERSION = 'v1.18.2';
export const KARMADA_REPO = 'https://github.com/karmada-io/karmada';
const ADMISSION_PATCH = join(karmadaDir, 'aggregated-apiserver-admission.patch');

/** The commands built from Karmada's tree: cache file name and Go package. */
export const KARMADA_COMMANDS = [
  { name: 'karmada-aggregated-apiserver', pkg: './cmd/aggregated-apiserver' },
  { name: 'karmada-controller-manager', pkg: './cmd/controller-manager' },
  { name: 'karmada-scheduler', pkg: './cmd/scheduler' },
  { name: 'karmada-webhook', pkg: './cmd/webhook' },
];
export const PATCHED_AGGREGATED_APISERVER = 'karmada-aggregated-apiserver-admission';

function patchDigest() {
  return createHash('sha256').update(readFileSync(ADMISSION_PATCH)).digest('hex').slice(0, 12);
}

function cacheRoot() {
  const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cacheHome, 'karmada-cluster-probe', 'karmada');
}

/** Where the binaries live: keyed by the version and the patch, so a changed patch builds afresh. */
export function karmadaBinDir() {
  if (process.env.CLUSTER_PROBE_KARMADA_DIR) return resolve(process.env.CLUSTER_PROBE_KARMADA_DIR);
  return join(cacheRoot(), `${KARMADA_VERSION}-admission-${patchDigest()}`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.error) throw new Error(`${command} ${args.join(' ')}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}): ${(result.stderr || '').trim()}`);
  }
  return result.stdout;
}

function sharedTarball() {
  const path = join(repoRoot, '..', 'shared', 'karmada', `karmada-${KARMADA_VERSION}-src.tar.xz`);
  return existsSync(path) ? path : undefined;
}

function verifySha256(tarball) {
  const sumFile = `${tarball}.sha256`;
  if (!existsSync(sumFile)) return;
  const expected = readFileSync(sumFile, 'utf8').trim().split(/\s+/)[0];
  const actual = createHash('sha256').update(readFileSync(tarball)).digest('hex');
  if (expected !== actual) {
    throw new Error(`${tarball}: sha256 ${actual} does not match ${sumFile} (${expected}); the file is damaged`);
  }
}

/** A source tree at srcDir: extracted from a tarball, taken from a directory, or cloned. Reused when present. */
function ensureSource(srcDir) {
  if (existsSync(join(srcDir, 'go.mod')) && existsSync(join(srcDir, 'vendor', 'modules.txt'))) return srcDir;
  const fromEnv = process.env.CLUSTER_PROBE_KARMADA_SRC;
  if (fromEnv && statSync(fromEnv).isDirectory()) {
    if (!existsSync(join(fromEnv, 'cmd', 'aggregated-apiserver'))) {
      throw new Error(
        `CLUSTER_PROBE_KARMADA_SRC=${fromEnv} is not a Karmada source tree (no cmd/aggregated-apiserver)`,
      );
    }
    return fromEnv;
  }
  const tarball = fromEnv ?? sharedTarball();
  const temp = `${srcDir}.extracting-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  try {
    if (tarball) {
      verifySha256(tarball);
      log(`extracting ${tarball}`);
      run('tar', ['-xJf', tarball, '-C', temp]);
    } else {
      log(`no Karmada source beside the checkout (../shared/karmada): cloning ${KARMADA_REPO} at ${KARMADA_VERSION}`);
      run('git', ['clone', '--quiet', '--depth', '1', '--branch', KARMADA_VERSION, KARMADA_REPO, temp]);
      if (!existsSync(join(temp, 'vendor', 'modules.txt'))) {
        log('vendoring the clone (go mod vendor; needs the Go module proxy)');
        run('go', ['mod', 'vendor'], { cwd: temp });
      }
    }
  } catch (err) {
    rmSync(temp, { recursive: true, force: true });
    throw err;
  }
  rmSync(srcDir, { recursive: true, force: true });
  renameSync(temp, srcDir);
  return srcDir;
}

/** The patched copies of the files the admission patch touches, as a `go build -overlay` file. */
function admissionOverlay(srcDir, workDir) {
  const patched = join(workDir, 'patched');
  rmSync(patched, { recursive: true, force: true });
  const text = readFileSync(ADMISSION_PATCH, 'utf8');
  const files = [...text.matchAll(/^\+\+\+ b\/(\S+)/gm)].map((m) => m[1]);
  if (files.length === 0) throw new Error(`${ADMISSION_PATCH}: no files in the patch`);
  for (const file of files) {
    mkdirSync(dirname(join(patched, file)), { recursive: true });
    writeFileSync(join(patched, file), readFileSync(join(srcDir, file)));
  }
  try {
    run('patch', ['-p1', '--forward', '--batch', '-d', patched, '-i', ADMISSION_PATCH]);
  } catch (err) {
    throw new Error(
      `${ADMISSION_PATCH} does not apply to Karmada ${KARMADA_VERSION} (${err instanceof Error ? err.message : err})`,
    );
  }
  const overlay = { Replace: Object.fromEntries(files.map((f) => [join(srcDir, f), join(patched, f)])) };
  const overlayFile = join(workDir, 'admission-overlay.json');
  writeFileSync(overlayFile, JSON.stringify(overlay, null, 2));
  return overlayFile;
}

function karmadaLdflags() {
  const pkg = 'github.com/karmada-io/karmada/pkg/version';
  const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  return [
    '-s',
    '-w',
    `-X ${pkg}.gitVersion=${KARMADA_VERSION}`,
    `-X ${pkg}.gitTreeState=clean`,
    `-X ${pkg}.buildDate=${date}`,
  ].join(' ');
}

/** What the harness applies besides the binaries: Karmada's CRDs and its webhook configuration, as Karmada ships them. */
const ARTIFACTS = [
  { from: join('charts', 'karmada', '_crds', 'bases'), to: 'crds' },
  { from: join('artifacts', 'deploy', 'webhook-configuration.yaml'), to: 'webhook-configuration.yaml' },
];

function copyArtifacts(srcDir, outDir) {
  const temp = join(outDir, `.artifacts.copying-${process.pid}`);
  rmSync(temp, { recursive: true, force: true });
  for (const { from, to } of ARTIFACTS) cpSync(join(srcDir, from), join(temp, to), { recursive: true });
  rmSync(join(outDir, 'artifacts'), { recursive: true, force: true });
  renameSync(temp, join(outDir, 'artifacts'));
}

/** Builds whatever is missing and resolves to the directory holding the Karmada binaries and artifacts/. */
export async function buildKarmada() {
  const outDir = karmadaBinDir();
  const wanted = [...KARMADA_COMMANDS.map((c) => c.name), PATCHED_AGGREGATED_APISERVER];
  const missing = wanted.filter((name) => !isExecutableFile(join(outDir, name)));
  if (missing.length === 0 && existsSync(join(outDir, 'artifacts', 'webhook-configuration.yaml'))) {
    log(`using cached Karmada ${KARMADA_VERSION} in ${outDir}`);
    return outDir;
  }
  if (missing.length > 0)
    log(
      `using ${requireGo('the Karmada control plane', 'point CLUSTER_PROBE_KARMADA_DIR at a directory that already holds its binaries')}`,
    );
  mkdirSync(outDir, { recursive: true });
  const srcDir = ensureSource(join(cacheRoot(), `src-${KARMADA_VERSION}`));
  copyArtifacts(srcDir, outDir);
  const common = {
    version: KARMADA_VERSION,
    moduleDir: srcDir,
    ldflags: karmadaLdflags(),
    versionCheck: KARMADA_VERSION,
    versionArgs: ['version'],
    goflags: '-mod=vendor',
  };
  for (const command of KARMADA_COMMANDS) {
    if (missing.includes(command.name)) await buildOne({ ...common, name: command.name, pkg: command.pkg }, outDir);
  }
  if (missing.includes(PATCHED_AGGREGATED_APISERVER)) {
    const overlay = admissionOverlay(srcDir, outDir);
    await buildOne(
      {
        ...common,
        name: PATCHED_AGGREGATED_APISERVER,
        pkg: './cmd/aggregated-apiserver',
        extraArgs: [`-overlay=${overlay}`],
      },
      outDir,
    );
  }
  return outDir;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  buildKarmada().then(
    (dir) => console.log(dir),
    (err) => {
      log(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
