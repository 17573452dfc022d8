// Builds kubeconform from its Go module, pinned by test/oracle/kubeconform/go.mod and go.sum, only when it is missing,
// into a cache directory outside the repo keyed by those inputs and the Go toolchain. Prints the binary's path.
// test/oracle/json-schema.test.ts runs it against the generated JSON Schemas (docs/validation.md, "JSON Schemas for
// kubeconform and editors"). Missing Go is an error, never a skip. Plain Node, no dependencies.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildOne, formatElapsed, isExecutableFile, requireGo } from './build-controlplane.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MODULE_DIR = join(repoRoot, 'test', 'oracle', 'kubeconform');
const PACKAGE = 'github.com/yannh/kubeconform/cmd/kubeconform';
const KEEP_BUILDS = 3;

function log(line) {
  process.stderr.write(`build-kubeconform: ${line}\n`);
}

/** The version of kubeconform go.mod requires: go.mod is the one home of the pin. */
export function kubeconformVersion() {
  const text = readFileSync(join(MODULE_DIR, 'go.mod'), 'utf8');
  const match = /^\s*(?:require\s+)?github\.com\/yannh\/kubeconform\s+(v\S+)/m.exec(text);
  if (!match) throw new Error(`${join(MODULE_DIR, 'go.mod')}: no requirement on github.com/yannh/kubeconform`);
  return match[1];
}

/** CLUSTER_PROBE_KUBECONFORM_DIR, else the cache keyed by go.mod, go.sum and `go version`. */
export function kubeconformDir(
  goVersion = requireGo(
    'kubeconform (the JSON Schema oracle of npm run test:oracle)',
    'point CLUSTER_PROBE_KUBECONFORM_DIR at a directory that already holds it',
  ),
) {
  if (process.env.CLUSTER_PROBE_KUBECONFORM_DIR) return resolve(process.env.CLUSTER_PROBE_KUBECONFORM_DIR);
  const hash = createHash('sha256').update(`${goVersion}\n`);
  for (const file of ['go.mod', 'go.sum']) hash.update(`${file}\n`).update(readFileSync(join(MODULE_DIR, file)));
  const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cacheHome, 'karmada-cluster-probe', 'kubeconform', hash.digest('hex').slice(0, 12));
}

/** Keeps the most recently used builds. */
function pruneOldBuilds(current) {
  const parent = dirname(current);
  const builds = readdirSync(parent, { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^[0-9a-f]{12}$/.test(d.name))
    .map((d) => ({ path: join(parent, d.name), mtime: statSync(join(parent, d.name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of builds.slice(KEEP_BUILDS))
    if (old.path !== current) rmSync(old.path, { recursive: true, force: true });
}

/** Builds kubeconform when it is missing and resolves to its path. */
export async function buildKubeconform() {
  const goVersion = requireGo(
    'kubeconform (the JSON Schema oracle of npm run test:oracle)',
    'point CLUSTER_PROBE_KUBECONFORM_DIR at a directory that already holds it',
  );
  const outDir = kubeconformDir(goVersion);
  const binary = join(outDir, 'kubeconform');
  if (isExecutableFile(binary)) {
    log(`using the cached ${binary}`);
    const now = new Date();
    utimesSync(outDir, now, now);
    return binary;
  }
  const version = kubeconformVersion();
  const started = Date.now();
  log(`using ${goVersion}`);
  mkdirSync(outDir, { recursive: true });
  await buildOne(
    {
      name: 'kubeconform',
      version,
      moduleDir: MODULE_DIR,
      pkg: PACKAGE,
      // kubeconform prints main.version for -v; its releases set it the same way
      ldflags: `-s -w -X main.version=${version}`,
      versionArgs: ['-v'],
      versionCheck: version,
      goflags: '-mod=readonly',
    },
    outDir,
  );
  if (!process.env.CLUSTER_PROBE_KUBECONFORM_DIR) pruneOldBuilds(outDir);
  log(`kubeconform ${version} ready in ${outDir} (${formatElapsed(Date.now() - started)})`);
  return binary;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  buildKubeconform().then(
    (binary) => console.log(binary),
    (err) => {
      log(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
