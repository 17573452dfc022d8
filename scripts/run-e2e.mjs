// Runs the end-to-end suite: builds (or finds cached) kube-apiserver and etcd, Karmada's control plane, and prometheus
// (test/e2e/monitoring.test.ts), then runs mocha over test/e2e with their directories in
// CLUSTER_PROBE_CONTROLPLANE_BIN, CLUSTER_PROBE_KARMADA_BIN and CLUSTER_PROBE_PROMETHEUS. Exits with mocha's code.
// Several files run the compiled reconciler (bench-karmada, sharding, controlplane-faults): a dist/ older than the
// sources is rebuilt first (`npm run build`), so that they test the tree and not an old build.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { constants } from 'node:os';
import process from 'node:process';
import { buildControlPlane } from './build-controlplane.mjs';
import { buildKarmada } from './build-karmada.mjs';
import { buildPrometheus } from './build-prometheus.mjs';

/** The newest mtime of the TypeScript sources dist/ is built from (src/ and the workspace packages' src/). */
function newestSource() {
  let newest = 0;
  for (const dir of ['src', 'packages/schema/src', 'packages/probe/src']) {
    for (const f of readdirSync(dir, { recursive: true })) {
      if (String(f).endsWith('.ts')) newest = Math.max(newest, statSync(join(dir, String(f))).mtimeMs);
    }
  }
  return newest;
}

let built = 0;
try {
  built = statSync('dist/src/cli/main.js').mtimeMs;
} catch {
  // Missing: built below.
}
if (built < newestSource()) {
  process.stderr.write('run-e2e: dist/ is missing or older than the sources: npm run build\n');
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) {
    process.stderr.write(`run-e2e: npm run build failed (${build.status ?? build.signal})\n`);
    process.exit(1);
  }
}

let binDir;
let karmadaDir;
let prometheusDir;
try {
  binDir = await buildControlPlane();
  karmadaDir = await buildKarmada();
  prometheusDir = await buildPrometheus();
} catch (err) {
  process.stderr.write(
    `run-e2e: cannot build the control plane or prometheus: ${err instanceof Error ? err.message : err}\n`,
  );
  process.exit(1);
}

const args = ['mocha', '--timeout', '120000', 'test/e2e/**/*.test.ts', ...process.argv.slice(2)];
process.stderr.write(
  `run-e2e: npx ${args.join(' ')} (CLUSTER_PROBE_CONTROLPLANE_BIN=${binDir} CLUSTER_PROBE_KARMADA_BIN=${karmadaDir})\n`,
);
const mocha = spawn('npx', args, {
  stdio: 'inherit',
  // Its own process group: npx -> sh -> mocha -> node is a chain that does not pass signals on reliably, so a signal
  // goes to the whole group and reaches the test process, whose harness then stops the control plane.
  detached: true,
  env: {
    ...process.env,
    CLUSTER_PROBE_CONTROLPLANE_BIN: binDir,
    CLUSTER_PROBE_KARMADA_BIN: karmadaDir,
    CLUSTER_PROBE_PROMETHEUS: prometheusDir,
  },
});
const forward = (signal) => () => {
  try {
    process.kill(-mocha.pid, signal);
  } catch {
    // ESRCH: mocha is already gone.
  }
};
process.on('SIGTERM', forward('SIGTERM'));
process.on('SIGINT', forward('SIGINT'));
mocha.on('error', (err) => {
  process.stderr.write(`run-e2e: could not run mocha: ${err.message}\n`);
  process.exit(1);
});
mocha.on('close', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
