// The Debian packages the image build and the one-node cluster need, with the versions they were measured with
// (Debian 12, ../shared/real-node/README.md), installed with apt-get only when a command is missing: a fresh CI
// machine has none of them. One table, imported by scripts/build-image.mjs and scripts/build-node.mjs.
import { spawnSync } from 'node:child_process';
import process from 'node:process';

/** package -> { version pinned, a command that proves it installed }. */
export const DEBIAN_PACKAGES = {
  podman: { version: '4.3.1+ds1-8+deb12u1+b3', command: 'podman' },
  buildah: { version: '1.28.2+ds1-3+deb12u1+b3', command: 'buildah' },
  // crun refuses this VM's hybrid cgroups; podman runs with --runtime runc.
  runc: { version: '1.1.5+ds1-1+deb12u1', command: 'runc' },
  mmdebstrap: { version: '1.3.5-7', command: 'mmdebstrap' },
  containerd: { version: '1.6.20~ds1-1+deb12u3', command: 'containerd' },
  'containernetworking-plugins': { version: '1.1.1+ds1-3+b5', path: '/usr/lib/cni/bridge' },
  iptables: { version: '1.8.9-2', command: 'iptables' },
};
export const IMAGE_PACKAGES = ['podman', 'buildah', 'runc', 'mmdebstrap'];
export const NODE_PACKAGES = ['containerd', 'runc', 'containernetworking-plugins', 'iptables'];

function log(line) {
  process.stderr.write(`host-packages: ${line}\n`);
}

function present(name) {
  const spec = DEBIAN_PACKAGES[name];
  if (spec.path) return spawnSync('test', ['-x', spec.path]).status === 0;
  return spawnSync('sh', ['-c', `command -v ${spec.command}`], { stdio: 'ignore' }).status === 0;
}

function installedVersion(name) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Version}', name], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/**
 * Installs the named packages that are missing at their pinned versions (apt-get update first when apt does not know
 * that version). Throws with apt's output when that fails; logs the version of each package found already installed
 * at another version (left as it is: the machine's owner chose it).
 */
export function ensureHostPackages(names) {
  const missing = names.filter((name) => !present(name));
  for (const name of names.filter((n) => !missing.includes(n))) {
    const version = installedVersion(name);
    if (version && version !== DEBIAN_PACKAGES[name].version) {
      log(`${name} ${version} is installed (measured with ${DEBIAN_PACKAGES[name].version}); using it`);
    }
  }
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`missing ${missing.join(', ')}: run as root, or install them with apt-get first`);
  }
  const specs = missing.map((name) => `${name}=${DEBIAN_PACKAGES[name].version}`);
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...specs], {
      encoding: 'utf8',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      maxBuffer: 64 * 1024 * 1024,
    });
  const started = Date.now();
  log(`installing ${specs.join(' ')} with apt-get...`);
  let result = install();
  if (result.status !== 0) {
    log('apt-get install failed; running apt-get update and trying again...');
    spawnSync('apt-get', ['update'], { stdio: 'ignore' });
    result = install();
  }
  if (result.status !== 0) {
    throw new Error(`apt-get install ${specs.join(' ')} failed:\n${(result.stderr || result.stdout).slice(-4000)}`);
  }
  const still = missing.filter((name) => !present(name));
  if (still.length > 0)
    throw new Error(`apt-get installed ${specs.join(' ')} but ${still.join(', ')} is still missing`);
  log(`installed ${missing.join(', ')} in ${Math.round((Date.now() - started) / 1000)}s`);
}
