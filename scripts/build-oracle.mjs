// Builds the validation oracles of test/oracle (see docs/validation.md, "Agreement with Karmada and Kubernetes"), only
// when they are missing, into a cache directory outside the repo keyed by their inputs. Prints that directory.
//
// - karmada-oracle: test/oracle/karmada/main.go compiled inside Karmada's source tree (the tree scripts/build-karmada.mjs
//   builds the Karmada control plane from) through `go build -overlay`, with -mod=vendor: Karmada's own Cluster strategy
//   and validation with exactly the modules Karmada vendors. Nothing is written into that tree.
// - kube-oracle: the Go module test/oracle/kubernetes (k8s.io/kubernetes at the control plane's version), -mod=readonly.
// - kube-prober-oracle: the package prober/ of the same module: the kubelet's pkg/probe/{http,tcp,grpc} driven as
//   pkg/kubelet/prober drives them (test/oracle/prober.test.ts). k8s.io/component-base/version is stamped with the
//   version go.mod requires, as Kubernetes' build stamps it, so its User-Agent is the kubelet's kube-probe/1.35.
//
// The key is a digest of the Go sources, go.mod, go.sum and the Karmada version, so editing an oracle builds afresh;
// older builds beyond the last few are removed. Plain Node, no dependencies.
//
// With --prober it builds the oracles as without it and prints the path of kube-prober-oracle (test/oracle/prober).
//
// With --webhook-peer it builds (when missing) and prints the path of webhook-peer instead: bench/webhook/peer/main.go,
// the Go webhook the webhook bench compares against (controller-runtime's admission.Webhook over Karmada's Cluster
// validation and mutation), compiled inside Karmada's tree the same way as karmada-oracle, in its own cache directory
// keyed by its source, the Karmada version and `go version` (so a peer change does not rebuild the oracles).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildOne, formatElapsed, isExecutableFile, requireGo } from './build-controlplane.mjs';
import { buildKarmada, KARMADA_VERSION } from './build-karmada.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const oracleRoot = join(repoRoot, 'test', 'oracle');
const KARMADA_MAIN = join(oracleRoot, 'karmada', 'main.go');
const KUBE_MODULE = join(oracleRoot, 'kubernetes');
/** The package path the Karmada oracle takes inside Karmada's tree (only in the overlay, never on disk). */
const KARMADA_ORACLE_PKG = join('cmd', 'cluster-probe-oracle');
const PEER_MAIN = join(repoRoot, 'bench', 'webhook', 'peer', 'main.go');
/** The package path the webhook peer takes inside Karmada's tree (only in the overlay). */
const PEER_PKG = join('cmd', 'cluster-probe-webhook-peer');
const KEEP_BUILDS = 3;

export const ORACLES = { karmada: 'karmada-oracle', kubernetes: 'kube-oracle', prober: 'kube-prober-oracle' };
export const WEBHOOK_PEER = 'webhook-peer';

function log(line) {
  process.stderr.write(`build-oracle: ${line}\n`);
}

function cacheHome() {
  return process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
}

/** A digest of files of this repo (path and content) and of the extra lines given (versions). */
function inputsDigest(files, extra = []) {
  const hash = createHash('sha256').update(`karmada ${KARMADA_VERSION}\n`);
  for (const line of extra) hash.update(`${line}\n`);
  for (const file of files) {
    hash.update(`${file.slice(repoRoot.length)}\n`).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 12);
}

/** Everything the oracles are made from that lives in this repo, plus the Karmada version. */
const oracleInputs = () => [
  KARMADA_MAIN,
  ...['main.go', join('prober', 'main.go'), 'go.mod', 'go.sum'].map((f) => join(KUBE_MODULE, f)),
];

/**
 * -X flags stamping k8s.io/component-base/version with the k8s.io/kubernetes version test/oracle/kubernetes/go.mod
 * requires (the one place it is written), as Kubernetes' hack/lib/version.sh does: pkg/probe's User-Agent is built
 * from it (kube-probe/<major>.<minor>), and unstamped it would be `kube-probe/.`.
 */
function kubeVersionLdflags() {
  const goMod = readFileSync(join(KUBE_MODULE, 'go.mod'), 'utf8');
  const match = /^\s*k8s\.io\/kubernetes v(\d+)\.(\d+)\.(\d+)\s*$/m.exec(goMod);
  if (!match) throw new Error(`${join(KUBE_MODULE, 'go.mod')} requires no k8s.io/kubernetes vX.Y.Z`);
  const [, major, minor, patch] = match;
  const pkg = 'k8s.io/component-base/version';
  return [
    `-X ${pkg}.gitMajor=${major}`,
    `-X ${pkg}.gitMinor=${minor}`,
    `-X ${pkg}.gitVersion=v${major}.${minor}.${patch}`,
  ];
}

/** Where the oracles live: CLUSTER_PROBE_ORACLE_DIR, else the cache keyed by the inputs. */
export function oracleDir() {
  if (process.env.CLUSTER_PROBE_ORACLE_DIR) return resolve(process.env.CLUSTER_PROBE_ORACLE_DIR);
  return join(cacheHome(), 'karmada-cluster-probe', 'oracle', inputsDigest(oracleInputs()));
}

/** Where the webhook peer lives: the cache keyed by its source, the Karmada version and the Go toolchain. */
export function webhookPeerDir() {
  return join(
    cacheHome(),
    'karmada-cluster-probe',
    'webhook-peer',
    inputsDigest(
      [PEER_MAIN],
      [
        requireGo(
          "the oracles of npm run test:oracle (Kubernetes' and Karmada's own code)",
          'point CLUSTER_PROBE_ORACLE_DIR at a directory that already holds them',
        ),
      ],
    ),
  );
}

/**
 * Karmada's source tree, as scripts/build-karmada.mjs leaves it: CLUSTER_PROBE_KARMADA_SRC when it is a directory,
 * else its extracted copy in the cache. When that copy is missing, buildKarmada() makes it (and builds the Karmada
 * control plane, which `npm test` needs anyway): its source step is not exported on its own.
 */
async function karmadaSource() {
  const fromEnv = process.env.CLUSTER_PROBE_KARMADA_SRC;
  if (fromEnv && existsSync(fromEnv) && statSync(fromEnv).isDirectory()) return fromEnv;
  const cached = join(cacheHome(), 'karmada-cluster-probe', 'karmada', `src-${KARMADA_VERSION}`);
  const ready = () => existsSync(join(cached, 'go.mod')) && existsSync(join(cached, 'vendor', 'modules.txt'));
  if (!ready()) {
    log(`no Karmada ${KARMADA_VERSION} source in ${cached}: running scripts/build-karmada.mjs, which extracts it`);
    await buildKarmada();
  }
  if (!ready()) throw new Error(`scripts/build-karmada.mjs left no Karmada source in ${cached}`);
  return cached;
}

/**
 * Builds one main.go of this repo inside Karmada's source tree, as package `pkg` of it (a path that exists only in the
 * overlay), with -mod=vendor: exactly the code and vendored modules the Karmada control plane builds from.
 */
async function buildInKarmadaTree({ name, main, pkg, versionCheck }, outDir) {
  const srcDir = await karmadaSource();
  const overlay = join(outDir, `${name}-overlay.json`);
  writeFileSync(overlay, JSON.stringify({ Replace: { [join(srcDir, pkg, 'main.go')]: main } }));
  return buildOne(
    {
      ldflags: '-s -w',
      versionArgs: ['--version'],
      name,
      version: `(Karmada ${KARMADA_VERSION})`,
      moduleDir: srcDir,
      pkg: `./${pkg}`,
      extraArgs: [`-overlay=${overlay}`],
      goflags: '-mod=vendor',
      versionCheck,
    },
    outDir,
  );
}

/** Marks a cache directory recently used, for pruneOldBuilds. */
function touch(dir) {
  const now = new Date();
  utimesSync(dir, now, now);
}

/** Keeps the most recently used builds, so a changed oracle does not pile up old binaries. */
function pruneOldBuilds(current) {
  const parent = dirname(current);
  const builds = readdirSync(parent, { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^[0-9a-f]{12}$/.test(d.name))
    .map((d) => ({ path: join(parent, d.name), mtime: statSync(join(parent, d.name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of builds.slice(KEEP_BUILDS)) {
    if (old.path !== current) rmSync(old.path, { recursive: true, force: true });
  }
}

/** Builds whichever oracle is missing and resolves to the directory holding them all. */
export async function buildOracle() {
  const outDir = oracleDir();
  const missing = Object.values(ORACLES).filter((name) => !isExecutableFile(join(outDir, name)));
  if (missing.length === 0) {
    log(`using cached oracles in ${outDir}`);
    touch(outDir);
    return outDir;
  }
  const started = Date.now();
  log(
    `using ${requireGo("the oracles of npm run test:oracle (Kubernetes' and Karmada's own code)", 'point CLUSTER_PROBE_ORACLE_DIR at a directory that already holds them')}`,
  );
  mkdirSync(outDir, { recursive: true });
  if (missing.includes(ORACLES.karmada)) {
    await buildInKarmadaTree(
      {
        name: ORACLES.karmada,
        main: KARMADA_MAIN,
        pkg: KARMADA_ORACLE_PKG,
        versionCheck: 'cluster-probe-karmada-oracle',
      },
      outDir,
    );
  }
  if (missing.includes(ORACLES.kubernetes)) {
    await buildOne(
      {
        ldflags: '-s -w',
        versionArgs: ['--version'],
        name: ORACLES.kubernetes,
        version: '(k8s.io/kubernetes, test/oracle/kubernetes/go.mod)',
        moduleDir: KUBE_MODULE,
        goflags: '-mod=readonly',
        versionCheck: 'cluster-probe-kube-oracle',
      },
      outDir,
    );
  }
  if (missing.includes(ORACLES.prober)) {
    await buildOne(
      {
        ldflags: ['-s -w', ...kubeVersionLdflags()].join(' '),
        versionArgs: ['--version'],
        name: ORACLES.prober,
        version: '(k8s.io/kubernetes pkg/probe, test/oracle/kubernetes/prober)',
        moduleDir: KUBE_MODULE,
        pkg: './prober',
        goflags: '-mod=readonly',
        versionCheck: 'cluster-probe-kube-prober-oracle',
      },
      outDir,
    );
  }
  if (!process.env.CLUSTER_PROBE_ORACLE_DIR) pruneOldBuilds(outDir);
  log(`oracles ready in ${outDir} (${formatElapsed(Date.now() - started)})`);
  return outDir;
}

/** Builds the webhook peer when it is missing and resolves to its path. */
export async function buildWebhookPeer() {
  const outDir = webhookPeerDir();
  const binary = join(outDir, WEBHOOK_PEER);
  if (isExecutableFile(binary)) {
    log(`using the cached webhook peer ${binary}`);
    touch(outDir);
    return binary;
  }
  const started = Date.now();
  mkdirSync(outDir, { recursive: true });
  await buildInKarmadaTree(
    { name: WEBHOOK_PEER, main: PEER_MAIN, pkg: PEER_PKG, versionCheck: 'cluster-probe-webhook-peer' },
    outDir,
  );
  pruneOldBuilds(outDir);
  log(`webhook peer ready in ${outDir} (${formatElapsed(Date.now() - started)})`);
  return binary;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const which = process.argv.includes('--webhook-peer')
    ? buildWebhookPeer()
    : process.argv.includes('--prober')
      ? buildOracle().then((dir) => join(dir, ORACLES.prober))
      : buildOracle();
  which.then(
    (dir) => console.log(dir),
    (err) => {
      log(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
