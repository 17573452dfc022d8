// Runs the monitoring tests (test/monitoring): builds (or finds cached) prometheus and promtool, helm (cached by
// `npm run test:helm` before this runs in `npm test`) and the control plane the end-to-end test starts (cached by
// `npm run test:e2e`), then mocha with their locations in CLUSTER_PROBE_PROMETHEUS, CLUSTER_PROBE_HELM and
// CLUSTER_PROBE_CONTROLPLANE_BIN. Exits with mocha's code.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { constants } from 'node:os';
import process from 'node:process';
import { buildControlPlane } from './build-controlplane.mjs';
import { buildHelm } from './build-helm.mjs';
import { buildPrometheus } from './build-prometheus.mjs';

let env;
try {
  env = {
    CLUSTER_PROBE_PROMETHEUS: await buildPrometheus(),
    CLUSTER_PROBE_HELM: join(await buildHelm(), 'helm'),
    CLUSTER_PROBE_CONTROLPLANE_BIN: process.env.CLUSTER_PROBE_CONTROLPLANE_BIN || (await buildControlPlane()),
  };
} catch (err) {
  process.stderr.write(`run-monitoring-tests: cannot build a tool: ${err instanceof Error ? err.message : err}\n`);
  process.exit(1);
}

const args = ['mocha', '--timeout', '180000', 'test/monitoring/**/*.test.ts', ...process.argv.slice(2)];
process.stderr.write(`run-monitoring-tests: npx ${args.join(' ')}\n`);
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
  process.stderr.write(`run-monitoring-tests: could not run mocha: ${err.message}\n`);
  process.exit(1);
});
mocha.on('close', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
