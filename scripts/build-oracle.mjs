// Builds the validation oracles of test/oracle (see docs/validation.md, "Agreement with Karmada and Kubernetes"), only
// when they are missing, into a cache directory outside the repo keyed by their inputs. Prints that directory.
//
// - karmada-oracle: test/oracle/karmada/main.go compiled inside Karmada's source tree (the tree scripts/build-karmada.mjs
//   builds the Karmada control plane from) through `go build -overlay`, with -mod=vendor: Karmada's own Cluster strategy
//   and validation with exactly the modules Karmada vendors. Nothing is written into that tree.
// - kube-oracle: the Go module test/oracle/kubernetes (k8s.io/kubernetes at the control plane's version), -mod=readonly.
//
// The key is a digest of the Go sources, go.mod, go.sum and the Karmada version, so editing an oracle builds afresh;
// older builds beyond the last few are removed. Plain Node, no dependencies.
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
const KEEP_BUILDS = 3;

export const ORACLES = { karmada: 'karmada-oracle', kubernetes: 'kube-oracle' };

function log(line) {
  process.stderr.write(`build-oracle: ${line}\n`);
}

function cacheHome() {
  return process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
}

/** Everything the binaries are made from that lives in this repo, plus the Karmada version. */
function inputsDigest() {
  const hash = createHash('sha256').update(`karmada ${KARMADA_VERSION}\n`);
  for (const file of [KARMADA_MAIN, ...['main.go', 'go.mod', 'go.sum'].map((f) => join(KUBE_MODULE, f))]) {
    hash.update(`${file.slice(repoRoot.length)}\n`).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 12);
}

/** Where the oracles live: CLUSTER_PROBE_ORACLE_DIR, else the cache keyed by the inputs. */
export function oracleDir() {
  if (process.env.CLUSTER_PROBE_ORACLE_DIR) return resolve(process.env.CLUSTER_PROBE_ORACLE_DIR);
  return join(cacheHome(), 'karmada-cluster-probe', 'oracle', inputsDigest());
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

/** Builds whichever oracle is missing and resolves to the directory holding both. */
export async function buildOracle() {
  const outDir = oracleDir();
  const missing = Object.values(ORACLES).filter((name) => !isExecutableFile(join(outDir, name)));
  if (missing.length === 0) {
    log(`using cached oracles in ${outDir}`);
    const now = new Date();
    utimesSync(outDir, now, now); // marks it recently used for pruneOldBuilds
    return outDir;
  }
  const started = Date.now();
  log(`using ${requireGo()}`);
  mkdirSync(outDir, { recursive: true });
  const common = { ldflags: '-s -w', versionArgs: ['--version'] };
  if (missing.includes(ORACLES.karmada)) {
    const srcDir = await karmadaSource();
    const overlay = join(outDir, 'karmada-overlay.json');
    writeFileSync(
      overlay,
      JSON.stringify({ Replace: { [join(srcDir, KARMADA_ORACLE_PKG, 'main.go')]: KARMADA_MAIN } }),
    );
    await buildOne(
      {
        ...common,
        name: ORACLES.karmada,
        version: `(Karmada ${KARMADA_VERSION})`,
        moduleDir: srcDir,
        pkg: `./${KARMADA_ORACLE_PKG}`,
        extraArgs: [`-overlay=${overlay}`],
        goflags: '-mod=vendor',
        versionCheck: 'cluster-probe-karmada-oracle',
      },
      outDir,
    );
  }
  if (missing.includes(ORACLES.kubernetes)) {
    await buildOne(
      {
        ...common,
        name: ORACLES.kubernetes,
        version: '(k8s.io/kubernetes, test/oracle/kubernetes/go.mod)',
        moduleDir: KUBE_MODULE,
        goflags: '-mod=readonly',
        versionCheck: 'cluster-probe-kube-oracle',
      },
      outDir,
    );
  }
  if (!process.env.CLUSTER_PROBE_ORACLE_DIR) pruneOldBuilds(outDir);
  log(`oracles ready in ${outDir} (${formatElapsed(Date.now() - started)})`);
  return outDir;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  buildOracle().then(
    (dir) => console.log(dir),
    (err) => {
      log(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
