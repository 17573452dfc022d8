// Builds the e2e control plane (kube-apiserver and etcd) from the Go modules in test/e2e/controlplane, only when
// the binaries are missing, into a cache directory outside the repo keyed by version. Prints that directory.
// Plain Node, no dependencies: it runs before anything else in `npm run test:e2e`.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const modulesRoot = join(repoRoot, 'test', 'e2e', 'controlplane');
const PROGRESS_EVERY_MS = 30_000;

export function log(line) {
  process.stderr.write(`build-controlplane: ${line}\n`);
}

/** The version a go.mod requires of a module: the go.mod files are the single source of the versions. */
function requiredVersion(goModPath, modulePath) {
  const text = readFileSync(goModPath, 'utf8');
  const escaped = modulePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^\\s*(?:require\\s+)?${escaped}\\s+(v\\S+)`, 'm').exec(text);
  if (!match) throw new Error(`${goModPath}: no requirement on ${modulePath}`);
  return match[1];
}

export function controlPlaneVersions() {
  return {
    kubernetes: requiredVersion(join(modulesRoot, 'kube-apiserver', 'go.mod'), 'k8s.io/kubernetes'),
    etcd: requiredVersion(join(modulesRoot, 'etcd', 'go.mod'), 'go.etcd.io/etcd/server/v3'),
  };
}

export function controlPlaneDir(versions = controlPlaneVersions()) {
  if (process.env.CLUSTER_PROBE_CONTROLPLANE_DIR) return resolve(process.env.CLUSTER_PROBE_CONTROLPLANE_DIR);
  const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cacheHome, 'karmada-cluster-probe', 'controlplane', `${versions.kubernetes}-${versions.etcd}`);
}

export function formatElapsed(ms) {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/**
 * The Go toolchain's version line, or an error naming what needed it (`what`) and how to do without building it
 * (`instead`: the variable that points at a ready build), so a missing Go never reads as another step's fault.
 */
export function requireGo(
  what = 'the e2e control plane (kube-apiserver and etcd)',
  instead = 'point CLUSTER_PROBE_CONTROLPLANE_DIR at a directory that already holds kube-apiserver and etcd',
) {
  const result = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new Error(
      `${what} is built from source and needs the Go toolchain, but \`go version\` failed` +
        (result.error ? ` (${result.error.message})` : `: ${result.stderr.trim()}`) +
        `. Install Go 1.26 or newer (https://go.dev/dl/) and put \`go\` on PATH, or ${instead}.`,
    );
  }
  return result.stdout.trim();
}

/** Version stamps as kubernetes' hack/lib/version.sh sets them: discovery and kubectl read these. */
function kubeLdflags(version) {
  const [, major, minor] = /^v(\d+)\.(\d+)\./.exec(version) ?? [];
  const flags = ['-s', '-w'];
  for (const pkg of ['k8s.io/client-go/pkg/version', 'k8s.io/component-base/version']) {
    flags.push(
      `-X ${pkg}.gitVersion=${version}`,
      `-X ${pkg}.gitMajor=${major}`,
      `-X ${pkg}.gitMinor=${minor}`,
      `-X ${pkg}.gitTreeState=clean`,
      `-X ${pkg}.buildDate=${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
    );
  }
  return flags.join(' ');
}

/**
 * Builds one Go command into outDir/name through a temporary file and a rename, so a cache never holds half a binary.
 * `pkg` is the package to build (default `.`), `extraArgs` go before it (e.g. -mod=vendor, -overlay), `versionArgs`
 * is how the binary reports its version (default --version), which must print versionCheck.
 */
export function buildOne(
  { name, version, moduleDir, ldflags, versionCheck, pkg = '.', extraArgs = [], versionArgs = ['--version'], goflags },
  outDir,
) {
  const target = join(outDir, name);
  const temp = join(outDir, `.${name}.building-${process.pid}`);
  const started = Date.now();
  log(`building ${name} ${version} (cold builds take 5-25 minutes)...`);
  const timer = setInterval(
    () => log(`building ${name} ${version} (${formatElapsed(Date.now() - started)} elapsed)...`),
    PROGRESS_EVERY_MS,
  );
  return new Promise((resolvePromise, reject) => {
    const child = spawn('go', ['build', '-trimpath', '-ldflags', ldflags, ...extraArgs, '-o', temp, pkg], {
      cwd: moduleDir,
      env: {
        ...process.env,
        CGO_ENABLED: '0',
        GOFLAGS: `${process.env.GOFLAGS ?? ''} ${goflags ?? '-mod=readonly'} -buildvcs=false`.trim(),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const stopOnSignal = () => child.kill('SIGTERM');
    process.once('SIGINT', stopOnSignal);
    process.once('SIGTERM', stopOnSignal);
    child.on('error', (err) => {
      clearInterval(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearInterval(timer);
      process.off('SIGINT', stopOnSignal);
      process.off('SIGTERM', stopOnSignal);
      if (code !== 0) {
        rmSync(temp, { force: true });
        reject(new Error(`go build of ${name} in ${moduleDir} failed (${signal ?? `exit ${code}`}):\n${output}`));
        return;
      }
      // A binary that cannot report its own version is not put in the cache.
      const check = spawnSync(temp, versionArgs, { encoding: 'utf8' });
      const reported = `${check.stdout ?? ''}${check.stderr ?? ''}`;
      if (check.status !== 0 || !reported.includes(versionCheck)) {
        rmSync(temp, { force: true });
        reject(new Error(`${name} built but \`${name} --version\` printed ${JSON.stringify(reported.trim())}`));
        return;
      }
      chmodSync(temp, 0o755);
      renameSync(temp, target);
      log(`built ${name} ${version} in ${formatElapsed(Date.now() - started)}: ${reported.trim().split('\n')[0]}`);
      resolvePromise(target);
    });
  });
}

export function isExecutableFile(path) {
  try {
    return statSync(path).isFile() && (statSync(path).mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** Builds whatever is missing and resolves to the directory holding `kube-apiserver` and `etcd`. */
export async function buildControlPlane() {
  const versions = controlPlaneVersions();
  const outDir = controlPlaneDir(versions);
  const binaries = [
    {
      name: 'kube-apiserver',
      version: versions.kubernetes,
      moduleDir: join(modulesRoot, 'kube-apiserver'),
      ldflags: kubeLdflags(versions.kubernetes),
      versionCheck: `Kubernetes ${versions.kubernetes}`,
    },
    {
      name: 'etcd',
      version: versions.etcd,
      moduleDir: join(modulesRoot, 'etcd'),
      ldflags: '-s -w',
      versionCheck: `etcd Version: ${versions.etcd.replace(/^v/, '')}`,
    },
  ];
  const missing = binaries.filter((b) => !isExecutableFile(join(outDir, b.name)));
  if (missing.length === 0) {
    log(`using cached kube-apiserver ${versions.kubernetes} and etcd ${versions.etcd} in ${outDir}`);
    return outDir;
  }
  log(`using ${requireGo()}`);
  mkdirSync(outDir, { recursive: true });
  for (const binary of missing) await buildOne(binary, outDir);
  return outDir;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  buildControlPlane().then(
    (dir) => {
      if (!existsSync(join(dir, 'kube-apiserver'))) process.exit(1);
      console.log(dir);
    },
    (err) => {
      log(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
