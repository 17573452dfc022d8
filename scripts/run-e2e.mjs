// Runs the end-to-end suite: builds (or finds cached) kube-apiserver and etcd, then runs mocha over test/e2e with
// their directory in CLUSTER_PROBE_CONTROLPLANE_BIN. Exits with mocha's code.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import process from 'node:process';
import { buildControlPlane } from './build-controlplane.mjs';

let binDir;
try {
  binDir = await buildControlPlane();
} catch (err) {
  process.stderr.write(`run-e2e: cannot build the control plane: ${err instanceof Error ? err.message : err}\n`);
  process.exit(1);
}

const args = ['mocha', '--timeout', '120000', 'test/e2e/**/*.test.ts', ...process.argv.slice(2)];
process.stderr.write(`run-e2e: npx ${args.join(' ')} (CLUSTER_PROBE_CONTROLPLANE_BIN=${binDir})\n`);
const mocha = spawn('npx', args, {
  stdio: 'inherit',
  env: { ...process.env, CLUSTER_PROBE_CONTROLPLANE_BIN: binDir },
});
// The terminal sends Ctrl-C to mocha too; forward TERM from a CI runner so the harness can clean up.
const forward = (signal) => () => mocha.kill(signal);
process.on('SIGTERM', forward('SIGTERM'));
process.on('SIGINT', () => undefined);
mocha.on('error', (err) => {
  process.stderr.write(`run-e2e: could not run mocha: ${err.message}\n`);
  process.exit(1);
});
mocha.on('close', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
