// The Debian packages the image build and the one-node cluster need, with the versions they were measured with
// (Debian 12, ../shared/real-node/README.md), installed with apt-get only when a command is missing: a fresh CI
// machine has none of them. A pin Debian no longer offers gives way to its build of the same major
// (scripts/apt.mjs, scripts/apt-version.mjs). One table, imported by scripts/build-image.mjs and scripts/build-node.mjs.
import { spawnSync } from 'node:child_process';
import process from 'node:process';
import { aptInstall, realApt } from './apt.mjs';

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
 * Installs the named packages that are missing: each at its pinned version when Debian still offers it, else at the
 * archive's build of the same upstream major (scripts/apt-version.mjs; a point release replaces them), saying which
 * and why. Throws one line a package it cannot resolve, or apt's last lines when the install fails; logs the version
 * of each package found already installed at another version (left as it is: the machine's owner chose it).
 * @param {string[]} names
 * @param {{ apt?: import('./apt.mjs').Apt, isRoot?: boolean, present?: (name: string) => boolean,
 *   installed?: (name: string) => string | undefined, log?: (line: string) => void }} [options]
 */
export function ensureHostPackages(names, options = {}) {
  const {
    apt = realApt,
    isRoot = process.getuid?.() === 0,
    present: isPresent = present,
    installed = installedVersion,
    log: say = log,
  } = options;
  const missing = names.filter((name) => !isPresent(name));
  for (const name of names.filter((n) => !missing.includes(n))) {
    const version = installed(name);
    if (version && version !== DEBIAN_PACKAGES[name].version) {
      say(`${name} ${version} is installed (measured with ${DEBIAN_PACKAGES[name].version}); using it`);
    }
  }
  if (missing.length === 0) return [];
  if (!isRoot) {
    throw new Error(
      `missing ${missing.join(', ')}: run as root, or install them with apt-get first (apt-get install ${missing.join(' ')})`,
    );
  }
  const started = Date.now();
  const { choices, specs } = aptInstall(
    missing.map((name) => ({ name, pin: DEBIAN_PACKAGES[name].version })),
    { apt, log: say },
  );
  const still = missing.filter((name) => !isPresent(name));
  if (still.length > 0)
    throw new Error(`apt-get installed ${specs.join(' ')} but ${still.join(', ')} is still missing`);
  say(`installed ${specs.join(' ')} in ${Math.round((Date.now() - started) / 1000)}s`);
  return choices;
}
