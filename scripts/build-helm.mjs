// Builds `helm` from its Go module (helm.sh/helm/v3, the version test/helm/helm-cli/go.mod requires) for the chart
// tests, only when the binary is missing, into a cache directory outside the repo keyed by that version. Prints that
// directory. Plain Node, no dependencies: it runs before the chart tests in `npm run test:helm`.
import { readFileSync, existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildOne, isExecutableFile, log, requireGo } from './build-controlplane.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** A module of its own with `tool helm.sh/helm/v3/cmd/helm`: go.mod and go.sum pin helm and everything it uses. */
export const HELM_MODULE_DIR = join(repoRoot, 'test', 'helm', 'helm-cli');
const HELM_PACKAGE = 'helm.sh/helm/v3/cmd/helm';

function requiredVersion(modulePath) {
  const goMod = join(HELM_MODULE_DIR, 'go.mod');
  const escaped = modulePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^\\s*(?:require\\s+)?${escaped}\\s+(v\\S+)`, 'm').exec(readFileSync(goMod, 'utf8'));
  if (!match) throw new Error(`${goMod}: no requirement on ${modulePath}`);
  return match[1];
}

/** helm's version and the Kubernetes version it renders for by default (its client-go, as helm's Makefile sets). */
export function helmVersions() {
  const clientGo = requiredVersion('k8s.io/client-go');
  const [, minor] = /^v0\.(\d+)\./.exec(clientGo) ?? [];
  if (!minor) throw new Error(`k8s.io/client-go ${clientGo}: not a v0.N.M version`);
  return { helm: requiredVersion('helm.sh/helm/v3'), kubeMajor: '1', kubeMinor: minor };
}

export function helmDir(version = helmVersions().helm) {
  if (process.env.CLUSTER_PROBE_HELM_DIR) return resolve(process.env.CLUSTER_PROBE_HELM_DIR);
  const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cacheHome, 'karmada-cluster-probe', 'helm', version);
}

/** The same -X stamps as helm's own Makefile, so `helm version` and the default KubeVersion are right. */
function helmLdflags({ helm, kubeMajor, kubeMinor }) {
  const flags = ['-s', '-w', `-X helm.sh/helm/v3/internal/version.version=${helm}`];
  flags.push('-X helm.sh/helm/v3/internal/version.gitTreeState=clean');
  for (const pkg of ['helm.sh/helm/v3/pkg/lint/rules', 'helm.sh/helm/v3/pkg/chartutil']) {
    flags.push(`-X ${pkg}.k8sVersionMajor=${kubeMajor}`, `-X ${pkg}.k8sVersionMinor=${kubeMinor}`);
  }
  return flags.join(' ');
}

/** Builds helm when missing and resolves to the directory holding it. */
export async function buildHelm() {
  const versions = helmVersions();
  const outDir = helmDir(versions.helm);
  if (isExecutableFile(join(outDir, 'helm'))) {
    log(`using cached helm ${versions.helm} in ${outDir}`);
    return outDir;
  }
  log(
    `using ${requireGo('helm (npm run test:helm)', 'point CLUSTER_PROBE_HELM_DIR at a directory that already holds it')}`,
  );
  mkdirSync(outDir, { recursive: true });
  await buildOne(
    {
      name: 'helm',
      version: versions.helm,
      moduleDir: HELM_MODULE_DIR,
      pkg: HELM_PACKAGE,
      ldflags: helmLdflags(versions),
      versionArgs: ['version', '--short'],
      versionCheck: versions.helm,
    },
    outDir,
  );
  return outDir;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  buildHelm().then(
    (dir) => {
      if (!existsSync(join(dir, 'helm'))) process.exit(1);
      console.log(dir);
    },
    (err) => {
      log(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
