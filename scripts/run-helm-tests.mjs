// Runs the Helm chart's tests (test/helm): builds (or finds cached) helm, and the control plane the server-side dry
// run applies to (kube-apiserver and etcd; Karmada's build for its ClusterTaintPolicy CRD, cached by `npm run
// test:e2e` before this runs in `npm test`), then mocha with their locations in CLUSTER_PROBE_HELM,
// CLUSTER_PROBE_CONTROLPLANE_BIN and CLUSTER_PROBE_KARMADA_BIN. Exits with mocha's code.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { constants } from 'node:os';
import process from 'node:process';
import { buildControlPlane } from './build-controlplane.mjs';
import { buildHelm } from './build-helm.mjs';
import { buildKarmada } from './build-karmada.mjs';

let env;
try {
  const helmDir = await buildHelm();
  const binDir = process.env.CLUSTER_PROBE_CONTROLPLANE_BIN || (await buildControlPlane());
  const karmadaDir = process.env.CLUSTER_PROBE_KARMADA_BIN || (await buildKarmada());
  env = {
    CLUSTER_PROBE_HELM: join(helmDir, 'helm'),
    CLUSTER_PROBE_CONTROLPLANE_BIN: binDir,
    CLUSTER_PROBE_KARMADA_BIN: karmadaDir,
  };
} catch (err) {
  process.stderr.write(
    `run-helm-tests: cannot build helm or the control plane: ${err instanceof Error ? err.message : err}\n`,
  );
  process.exit(1);
}

const args = ['mocha', '--timeout', '120000', 'test/helm/**/*.test.ts', ...process.argv.slice(2)];
process.stderr.write(
  `run-helm-tests: npx ${args.join(' ')} (${Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')})\n`,
);
const mocha = spawn('npx', args, { stdio: 'inherit', detached: true, env: { ...process.env, ...env } });
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
  process.stderr.write(`run-helm-tests: could not run mocha: ${err.message}\n`);
  process.exit(1);
});
mocha.on('close', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
