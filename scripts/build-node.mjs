// Builds the parts of the one-node host cluster that come from Go (test/node/components): kubelet,
// kube-controller-manager and kube-scheduler from the same k8s.io/kubernetes version as kube-apiserver, and the
// Pod sandbox's pause program, in ONE `go build`, only when missing, into a cache directory outside the repo keyed by
// that version. Installs what the node needs from Debian when missing (containerd, the CNI plugins; versions in
// scripts/host-packages.mjs). Prints the directory. Plain Node, no dependencies.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { controlPlaneVersions, formatElapsed, isExecutableFile, log, requireGo } from './build-controlplane.mjs';
import { ensureHostPackages, NODE_PACKAGES } from './host-packages.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const NODE_MODULE_DIR = join(repoRoot, 'test', 'node', 'components');
/** The main packages of test/node/components, built together; each lands in the cache under its directory's name. */
export const NODE_COMMANDS = ['kubelet', 'kube-controller-manager', 'kube-scheduler', 'pause'];
const PROGRESS_EVERY_MS = 30_000;

function requiredVersion(modulePath) {
  const goMod = join(NODE_MODULE_DIR, 'go.mod');
  const escaped = modulePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^\\s*(?:require\\s+)?${escaped}\\s+(v\\S+)`, 'm').exec(readFileSync(goMod, 'utf8'));
  if (!match) throw new Error(`${goMod}: no requirement on ${modulePath}`);
  return match[1];
}

/** The node's Kubernetes version; it must be kube-apiserver's (the control plane's go.mod). */
export function nodeVersion() {
  const node = requiredVersion('k8s.io/kubernetes');
  const { kubernetes } = controlPlaneVersions();
  if (node !== kubernetes) {
    throw new Error(
      `test/node/components/go.mod requires k8s.io/kubernetes ${node} but kube-apiserver is built from ${kubernetes}: ` +
        'make them equal (copy the require and replace blocks of test/e2e/controlplane/kube-apiserver/go.mod, then go mod tidy)',
    );
  }
  return node;
}

export function nodeBinDir(version = nodeVersion()) {
  if (process.env.CLUSTER_PROBE_NODE_BIN) return resolve(process.env.CLUSTER_PROBE_NODE_BIN);
  const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cacheHome, 'karmada-cluster-probe', 'host-node', version);
}

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

function goBuildAll(version, outDir) {
  const temp = mkdtempSync(join(outDir, '.building-'));
  const started = Date.now();
  log(`building ${NODE_COMMANDS.join(', ')} ${version} in one go build (cold: about 10 minutes on 2 cores)...`);
  const timer = setInterval(
    () => log(`building the node's binaries ${version} (${formatElapsed(Date.now() - started)} elapsed)...`),
    PROGRESS_EVERY_MS,
  );
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      'go',
      ['build', '-trimpath', '-ldflags', kubeLdflags(version), '-o', `${temp}/`, ...NODE_COMMANDS.map((c) => `./${c}`)],
      {
        cwd: NODE_MODULE_DIR,
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
    const finish = (err) => {
      clearInterval(timer);
      process.off('SIGINT', stopOnSignal);
      process.off('SIGTERM', stopOnSignal);
      if (err) {
        rmSync(temp, { recursive: true, force: true });
        reject(err);
        return;
      }
      try {
        for (const name of NODE_COMMANDS) {
          const built = join(temp, name);
          // A binary that cannot report its own version is not put in the cache (pause has no such flag: -v).
          const args = name === 'pause' ? ['-v'] : ['--version'];
          const check = spawnSync(built, args, { encoding: 'utf8' });
          const reported = `${check.stdout ?? ''}${check.stderr ?? ''}`;
          const expected = name === 'pause' ? 'pause' : `Kubernetes ${version}`;
          if (check.status !== 0 || !reported.includes(expected)) {
            throw new Error(`${name} built but \`${name} ${args[0]}\` printed ${JSON.stringify(reported.trim())}`);
          }
          chmodSync(built, 0o755);
        }
        for (const name of NODE_COMMANDS) renameSync(join(temp, name), join(outDir, name));
        rmSync(temp, { recursive: true, force: true });
        log(`built ${NODE_COMMANDS.join(', ')} ${version} in ${formatElapsed(Date.now() - started)}`);
        resolvePromise();
      } catch (e) {
        rmSync(temp, { recursive: true, force: true });
        reject(e);
      }
    };
    child.on('error', finish);
    child.on('close', (code, signal) =>
      code === 0
        ? finish()
        : finish(new Error(`go build in ${NODE_MODULE_DIR} failed (${signal ?? `exit ${code}`}):\n${output}`)),
    );
  });
}

/** Installs the node's Debian packages when missing, builds the Go parts when missing; resolves to their directory. */
export async function buildNode() {
  ensureHostPackages(NODE_PACKAGES);
  const version = nodeVersion();
  const outDir = nodeBinDir(version);
  if (NODE_COMMANDS.every((name) => isExecutableFile(join(outDir, name)))) {
    log(`using cached ${NODE_COMMANDS.join(', ')} ${version} in ${outDir}`);
    return outDir;
  }
  log(
    `using ${requireGo('the kubelet node (kubelet, containerd shims: npm run test:node)', 'point CLUSTER_PROBE_NODE_BIN at a directory that already holds them')}`,
  );
  mkdirSync(outDir, { recursive: true });
  await goBuildAll(version, outDir);
  return outDir;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  buildNode().then(
    (dir) => {
      if (!existsSync(join(dir, 'kubelet'))) process.exit(1);
      console.log(dir);
    },
    (err) => {
      log(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
