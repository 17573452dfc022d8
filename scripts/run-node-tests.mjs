// Runs the tests on a real one-node host cluster (test/node): builds (or finds cached) the image
// (scripts/build-image.mjs), the node's binaries (scripts/build-node.mjs), helm, kube-apiserver and etcd and Karmada,
// writes the image and the pause image as archives for containerd, then runs mocha with their locations in
// CLUSTER_PROBE_IMAGE, CLUSTER_PROBE_IMAGE_ARCHIVES, CLUSTER_PROBE_NODE_BIN, CLUSTER_PROBE_HELM,
// CLUSTER_PROBE_CONTROLPLANE_BIN and CLUSTER_PROBE_KARMADA_BIN. Exits with mocha's code. Needs root (containerd,
// kubelet, a bridge); elsewhere it says so and exits 0 unless CLUSTER_PROBE_NODE_TESTS=1.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { constants } from 'node:os';
import process from 'node:process';
import { buildControlPlane, formatElapsed } from './build-controlplane.mjs';
import { buildHelm } from './build-helm.mjs';
import { buildImage, buildPauseImage, imageArchive } from './build-image.mjs';
import { buildKarmada } from './build-karmada.mjs';
import { buildNode } from './build-node.mjs';

function log(line) {
  process.stderr.write(`run-node-tests: ${line}\n`);
}

if (process.getuid?.() !== 0 && process.env.CLUSTER_PROBE_NODE_TESTS !== '1') {
  log('skipped: a kubelet, containerd and a bridge need root (CLUSTER_PROBE_NODE_TESTS=1 runs them anyway)');
  process.exit(0);
}

let env;
try {
  const timings = [];
  const timed = async (what, fn) => {
    const started = Date.now();
    const result = await fn();
    timings.push(`${what} ${formatElapsed(Date.now() - started)}`);
    return result;
  };
  const binDir = process.env.CLUSTER_PROBE_CONTROLPLANE_BIN || (await timed('control plane', buildControlPlane));
  const karmadaDir = process.env.CLUSTER_PROBE_KARMADA_BIN || (await timed('karmada', buildKarmada));
  const helmDir = await timed('helm', buildHelm);
  const nodeDir = await timed('node binaries', buildNode);
  const image = await timed('image', buildImage);
  const archives = await timed('image archives', async () => [
    await buildPauseImage(join(nodeDir, 'pause')),
    imageArchive(image.image),
  ]);
  log(`ready: ${timings.join(', ')}`);
  env = {
    CLUSTER_PROBE_IMAGE: image.image,
    CLUSTER_PROBE_IMAGE_ARCHIVES: archives.join(':'),
    CLUSTER_PROBE_NODE_BIN: nodeDir,
    CLUSTER_PROBE_HELM: join(helmDir, 'helm'),
    CLUSTER_PROBE_CONTROLPLANE_BIN: binDir,
    CLUSTER_PROBE_KARMADA_BIN: karmadaDir,
  };
} catch (err) {
  log(`cannot build what the node tests need: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}

const args = ['mocha', '--timeout', '300000', 'test/node/**/*.test.ts', ...process.argv.slice(2)];
log(
  `npx ${args.join(' ')} (${Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')})`,
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
  log(`could not run mocha: ${err.message}`);
  process.exit(1);
});
mocha.on('close', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
