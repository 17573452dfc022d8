// The container image without a container engine: the Dockerfile's runtime is `npm pack` unpacked into an empty
// /opt/cluster-probe with its production dependencies (scripts/install-packed.mjs), node on PATH, a `cluster-probe`
// link, UID 65532 and nothing writable. This test builds the same tree in a temporary root, from the Dockerfile's own
// paths, and runs `serve` (TLS, /healthz, /readyz, a review) and `reconcile --help` from it as that user (as root;
// with the tree made read-only otherwise), in a read-only working directory, HOME and TMPDIR. Whatever the packed
// tarball misses, this test misses too; and it fails when the Dockerfile stops matching what it reproduces.
import { expect } from 'chai';
import { spawn, spawnSync, type SpawnOptions } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { clusterReview } from './webhook/helpers.js';

const repo = resolve(import.meta.dirname, '..', '..');
const dockerfile = readFileSync(join(repo, 'Dockerfile'), 'utf8');
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
  version: string;
  license: string;
  devDependencies: Record<string, string>;
  workspaces: string[];
};
/**
 * What only development needs: the root's devDependencies, less what a workspace package (the schema and probe
 * packages the application installs) needs at run time (ajv, @grpc/grpc-js are both).
 */
const DEV_ONLY = ((): string[] => {
  const runtime = new Set(
    pkg.workspaces.flatMap((ws) =>
      Object.keys(
        (JSON.parse(readFileSync(join(repo, ws, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> })
          .dependencies ?? {},
      ),
    ),
  );
  return Object.keys(pkg.devDependencies).filter((d) => !d.startsWith('@types/') && !runtime.has(d));
})();
/** The user of the image and of every Deployment the project ships. */
const IMAGE_UID = 65532;

/** Dockerfile instructions of the last stage (the runtime), continuation lines joined. */
function runtimeStage(): string[] {
  const lines = dockerfile
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  const lastFrom = lines.map((l) => l.startsWith('FROM ')).lastIndexOf(true);
  return lines.slice(lastFrom);
}

function dockerPath(pattern: RegExp, what: string): string {
  const match = pattern.exec(dockerfile);
  if (!match?.[1]) throw new Error(`Dockerfile: no ${what} (${pattern})`);
  return match[1];
}

/** Every file and link under dir with its size and mtime, to prove that nothing was written. */
function snapshot(dir: string, skip: string[] = []): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (skip.includes(p)) continue;
      const st = lstatSync(p);
      out.push(`${relative(dir, p)} ${st.size} ${st.mtimeMs}`);
      if (st.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out.sort();
}

describe('the container image, reproduced without a container engine', function () {
  this.timeout(300_000);
  const asRoot = process.getuid?.() === 0;
  let root: string;
  let prefix: string;
  let binDir: string;
  let workdir: string;
  let certDir: string;
  let untouched: string[];

  // The Dockerfile's own paths: the install prefix and the link on PATH.
  const prefixInImage = dockerPath(/install-packed\.mjs --prefix (\S+)/, 'install-packed.mjs --prefix');
  const linkInImage = dockerPath(/ln -s \S+ (\S+)/, 'ln -s of the CLI');

  const childOptions = (): SpawnOptions => ({
    cwd: workdir,
    env: { PATH: `${binDir}:/usr/bin:/bin`, HOME: workdir, TMPDIR: workdir, NODE_ENV: 'production' },
    ...(asRoot ? { uid: IMAGE_UID, gid: IMAGE_UID } : {}),
  });

  before(function () {
    root = mkdtempSync(join(tmpdir(), 'cluster-probe-image-'));
    chmodSync(root, 0o755);
    prefix = join(root, prefixInImage);
    binDir = join(root, dirname(linkInImage));
    const install = spawnSync(process.execPath, [join(repo, 'scripts', 'install-packed.mjs'), '--prefix', prefix], {
      cwd: repo,
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(install.status, `${install.stdout}${install.stderr}`).to.equal(0);

    // node where the base image has it (a hard link: the running node may sit in a directory UID 65532 cannot enter).
    mkdirSync(binDir, { recursive: true });
    try {
      linkSync(process.execPath, join(binDir, 'node'));
    } catch {
      copyFileSync(process.execPath, join(binDir, 'node'));
      chmodSync(join(binDir, 'node'), 0o755);
    }
    symlinkSync(join(prefix, 'bin', 'cluster-probe.js'), join(root, linkInImage));

    // Certificates as a Secret volume gives them: made beforehand, readable by the pod's group (fsGroup).
    certDir = join(root, 'certs');
    const certs = spawnSync(join(prefix, 'bin', 'cluster-probe.js'), ['certs', '--out', certDir], {
      env: { PATH: `${binDir}:/usr/bin:/bin` },
      encoding: 'utf8',
    });
    expect(certs.status, `${certs.stdout}${certs.stderr}`).to.equal(0);
    for (const f of readdirSync(certDir)) {
      if (asRoot) chownSync(join(certDir, f), IMAGE_UID, IMAGE_UID);
    }

    workdir = join(root, 'work');
    mkdirSync(workdir, { mode: 0o555 });
    chmodSync(workdir, 0o555);
    if (!asRoot) spawnSync('chmod', ['-R', 'a-w', prefix, binDir]);
    untouched = snapshot(root, [certDir]);
  });

  after(() => {
    if (!root) return;
    if (!asRoot) spawnSync('chmod', ['-R', 'u+w', root]);
    rmSync(root, { recursive: true, force: true });
  });

  it('matches the Dockerfile: Node 24 pinned like the tests, multi-stage, non-root, OCI labels, ENTRYPOINT', () => {
    const node24 = /NODE24_VERSION = '([\d.]+)'/.exec(readFileSync(join(repo, 'scripts', 'node24.mjs'), 'utf8'))?.[1];
    expect(dockerfile).to.match(
      new RegExp(`^ARG NODE_IMAGE=node:${node24?.replace(/\./g, '\\.')}-[a-z]+-slim(@sha256:[a-f0-9]{64})?$`, 'm'),
    );
    expect(dockerfile.match(/^FROM /gm)).to.have.length.of.at.least(2);
    const stage = runtimeStage();
    expect(stage.filter((l) => l.startsWith('USER ')).pop()).to.equal(`USER ${IMAGE_UID}:${IMAGE_UID}`);
    expect(stage.filter((l) => l.startsWith('ENTRYPOINT ')).pop()).to.equal('ENTRYPOINT ["cluster-probe"]');
    expect(stage).to.include(`COPY --from=build ${prefixInImage} ${prefixInImage}`);
    expect(stage.join('\n')).to.contain(`ln -s ${prefixInImage}/bin/cluster-probe.js ${linkInImage}`);
    expect(dockerfile).to.match(new RegExp(`^ARG VERSION=${pkg.version.replace(/\./g, '\\.')}$`, 'm'));
    for (const label of ['title', 'description', 'version', 'revision', 'licenses', 'base.name']) {
      expect(stage.join('\n')).to.contain(`org.opencontainers.image.${label}=`);
    }
    expect(dockerfile).to.contain(`org.opencontainers.image.licenses="${pkg.license}"`);
    // The build context keeps what install-packed.mjs and `npm pack` need.
    const ignored = readFileSync(join(repo, '.dockerignore'), 'utf8').split('\n');
    for (const needed of [
      'src',
      'schemas',
      'bin',
      'manifests',
      'scripts',
      'package-lock.json',
      'tsconfig.build.json',
    ]) {
      expect(ignored, `.dockerignore must keep ${needed}`).not.to.include(needed);
    }
  });

  it('holds the production dependencies only', () => {
    const modules = readdirSync(join(prefix, 'node_modules'));
    expect(DEV_ONLY).to.include.members(['typescript', 'mocha', 'esbuild']);
    for (const dev of DEV_ONLY) {
      expect(modules, dev).not.to.include(dev.startsWith('@') ? dev.split('/')[0] : dev);
    }
    expect(existsSync(join(prefix, 'dist', 'src', 'cli', 'main.js'))).to.equal(true);
    expect(existsSync(join(prefix, 'src')), 'TypeScript sources are not shipped').to.equal(false);
  });

  it(`serves /healthz, /readyz and a review over TLS as UID ${IMAGE_UID}, exits 0 on SIGTERM`, async () => {
    const child = spawn('cluster-probe', ['serve', '--port', '0', '--cert-dir', certDir, '--shutdown-delay', '0'], {
      ...childOptions(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
    try {
      const url = await new Promise<string>((res, rej) => {
        const timer = setTimeout(() => rej(new Error(`serve did not start in 30 s: ${stderr}`)), 30_000);
        createInterface({ input: child.stdout! }).on('line', (line) => {
          if (line.includes('"webhook listening"')) {
            clearTimeout(timer);
            res((JSON.parse(line) as { url: string }).url);
          }
        });
        void exited.then((code) => rej(new Error(`serve exited with ${code}: ${stderr}`)));
      });
      const ca = readFileSync(join(certDir, 'ca.crt'));
      const request = (path: string, body?: unknown) =>
        new Promise<{ status: number; body: string }>((res, rej) => {
          const req = https.request(
            new URL(path, url),
            {
              ca,
              method: body ? 'POST' : 'GET',
              headers: body ? { 'content-type': 'application/json' } : {},
            },
            (r) => {
              let text = '';
              r.on('data', (d: Buffer) => (text += d.toString()));
              r.on('end', () => res({ status: r.statusCode ?? 0, body: text }));
            },
          );
          req.on('error', rej);
          req.end(body ? JSON.stringify(body) : undefined);
        });
      expect((await request('/healthz')).status).to.equal(200);
      let ready = await request('/readyz');
      for (let i = 0; ready.status !== 200 && i < 50; i++) {
        await new Promise((r) => setTimeout(r, 100));
        ready = await request('/readyz');
      }
      expect(ready.status).to.equal(200);
      // The schemas, the validators and express all load from the installed tree.
      const review = await request('/validate', clusterReview('image-1', { httpGet: { port: 70000 } }));
      expect(review.status).to.equal(200);
      const response = (JSON.parse(review.body) as { response: { allowed: boolean; status: { message: string } } })
        .response;
      expect(response.allowed).to.equal(false);
      expect(response.status.message).to.contain('spec.livenessProbe.httpGet.port: Invalid value: 70000');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, stderr).to.equal(0);
    expect(stderr).not.to.match(/EACCES|EROFS|EPERM/);
  });

  it(`answers reconcile --help as UID ${IMAGE_UID}`, () => {
    const r = spawnSync('cluster-probe', ['reconcile', '--help'], { ...childOptions(), encoding: 'utf8' });
    expect(r.status, `${r.stdout}${r.stderr}`).to.equal(0);
    expect(r.stdout).to.contain('--taint-effect').and.to.contain('--kubeconfig');
  });

  it(`could not have written: UID ${IMAGE_UID} is refused a file in the working directory and the install`, () => {
    for (const dir of [workdir, prefix]) {
      const r = spawnSync('node', ['-e', `require('fs').writeFileSync(${JSON.stringify(join(dir, 'probe'))}, '')`], {
        ...childOptions(),
        encoding: 'utf8',
      });
      expect(r.status, dir).to.equal(1);
      expect(r.stderr).to.match(/EACCES|EROFS|EPERM/);
    }
  });

  it('wrote nothing: not in the install, the working directory, HOME or TMPDIR', () => {
    expect(snapshot(root, [certDir])).to.deep.equal(untouched);
    expect(readdirSync(workdir)).to.deep.equal([]);
  });
});

/** What scripts/build-image.mjs prints with --json. */
interface BuiltImage {
  image: string;
  releaseTag: string;
  id: string;
  size: number;
  baseImage: string;
  baseSize: number;
  built: boolean;
  seconds: number;
}

/** The image's files are added to what the base holds by this much at most (today about 50 MB: dist + dependencies). */
const IMAGE_BUDGET_OVER_BASE = 100e6;

describe('the container image, built by podman from the Dockerfile unchanged (scripts/build-image.mjs)', function () {
  // Cold: apt-get of podman, buildah, runc, mmdebstrap (20 s), the stand-in base (1 min), the build (1 min).
  this.timeout(1_800_000);
  let built: BuiltImage;
  let files: Map<string, number>;
  const podmanEnv = (): NodeJS.ProcessEnv => ({
    ...process.env,
    CONTAINERS_CONF: join(
      process.env.XDG_CACHE_HOME ?? join(process.env.HOME ?? '/root', '.cache'),
      'karmada-cluster-probe',
      'image',
      'build-config',
      'containers.conf',
    ),
  });
  const podman = (args: string[], timeout = 120_000) =>
    spawnSync('podman', ['--runtime', 'runc', '--cgroup-manager', 'cgroupfs', ...args], {
      encoding: 'utf8',
      env: podmanEnv(),
      timeout,
      maxBuffer: 256 * 1024 * 1024,
    });

  before(function () {
    const hasPodman = spawnSync('sh', ['-c', 'command -v podman'], { stdio: 'ignore' }).status === 0;
    if (process.getuid?.() !== 0 && !hasPodman) {
      // The script installs podman with apt-get, which needs root; CI runs as root.
      this.skip();
    }
    const started = Date.now();
    const r = spawnSync(process.execPath, [join(repo, 'scripts', 'build-image.mjs'), '--json'], {
      cwd: repo,
      encoding: 'utf8',
      timeout: 1_700_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(r.status, `node scripts/build-image.mjs failed:\n${r.stderr.slice(-6000)}`).to.equal(0);
    built = JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as BuiltImage;
    process.stderr.write(
      `      image ${built.image}: ${(built.size / 1e6).toFixed(0)} MB, base ${built.baseImage} ` +
        `${(built.baseSize / 1e6).toFixed(0)} MB (+${((built.size - built.baseSize) / 1e6).toFixed(0)} MB); ` +
        `${built.built ? 'built' : 'cached'}, ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );
    // The runtime's files: a container's filesystem exported as a tar and listed (no engine run needed).
    const created = podman(['create', built.image]);
    expect(created.status, created.stderr).to.equal(0);
    const container = created.stdout.trim();
    try {
      const exported = spawnSync(
        'sh',
        ['-c', `podman --runtime runc --cgroup-manager cgroupfs export "$1" | tar -tv`, 'list', container],
        { encoding: 'utf8', env: podmanEnv(), timeout: 300_000, maxBuffer: 256 * 1024 * 1024 },
      );
      expect(exported.status, exported.stderr).to.equal(0);
      files = new Map();
      for (const line of exported.stdout.split('\n')) {
        // -rw-r--r-- 0/0 1234 2025-01-01 00:00 path [-> target]
        const m = /^\S+\s+\S+\s+(\d+)\s+\S+\s+\S+\s+(.+?)(?: -> .*)?$/.exec(line);
        if (m?.[1] && m[2]) files.set(m[2].replace(/^\.?\//, ''), Number(m[1]));
      }
    } finally {
      podman(['rm', '-f', container]);
    }
    expect(files.size).to.be.greaterThan(1000);
  });

  it(`adds at most ${IMAGE_BUDGET_OVER_BASE / 1e6} MB to the base image`, () => {
    expect(built.size - built.baseSize).to.be.lessThan(IMAGE_BUDGET_OVER_BASE);
  });

  it('holds no dev dependency, no npm, no npm cache, no build stage and nothing of the build mounts', () => {
    const paths = [...files.keys()];
    const modules = join(dockerPath(/install-packed\.mjs --prefix (\S+)/, 'prefix'), 'node_modules').slice(1);
    for (const dev of DEV_ONLY) {
      expect(
        paths.filter((p) => p.startsWith(`${modules}/${dev}/`)),
        dev,
      ).to.deep.equal([]);
    }
    const forbidden = [
      /^usr\/local\/lib\/node_modules\/(npm|corepack)\//,
      /^usr\/local\/bin\/(npm|npx|corepack)$/,
      /(^|\/)\.npm\//,
      /_cacache\//,
      /^src\//, // the build stage's WORKDIR
      /^tmp\/./,
      /^root\/\.(npm|cache|config)\//,
      /^etc\/ssl\/host-ca\.crt$/,
    ];
    for (const re of forbidden)
      expect(
        paths.filter((p) => re.test(p)),
        String(re),
      ).to.deep.equal([]);
    // The build's npmrc (naming the host's CA) is mounted into RUN steps; buildah leaves its mount point as an empty
    // file. Empty it must be: nothing of this machine's configuration may reach the image.
    expect(files.get('usr/local/etc/npmrc') ?? 0, 'usr/local/etc/npmrc').to.equal(0);
  });

  it('holds no source that is not run: no TypeScript, declarations, source maps, tests or docs of ours', () => {
    const prefix = dockerPath(/install-packed\.mjs --prefix (\S+)/, 'prefix').slice(1);
    const ours = [...files.keys()].filter((p) => p.startsWith(`${prefix}/`) && !p.includes('/node_modules/'));
    const notRun = [...files.keys()].filter((p) => /\.(ts|mts|cts|map)$/.test(p) && p.startsWith(`${prefix}/`));
    expect(notRun.slice(0, 20), `${notRun.length} files`).to.deep.equal([]);
    for (const dir of ['src', 'test', 'bench', 'docs', 'charts', 'scripts', '.git']) {
      expect(
        ours.filter((p) => p.startsWith(`${prefix}/${dir}/`)),
        dir,
      ).to.deep.equal([]);
    }
    expect(files.has(`${prefix}/dist/src/cli/main.js`)).to.equal(true);
    expect(files.has(`${prefix}/bin/cluster-probe.js`)).to.equal(true);
  });

  it(`runs as ${IMAGE_UID}:${IMAGE_UID} with ENTRYPOINT cluster-probe and the version label`, () => {
    const inspect = podman(['image', 'inspect', built.image]);
    expect(inspect.status, inspect.stderr).to.equal(0);
    const [info] = JSON.parse(inspect.stdout) as {
      Config: { User: string; Entrypoint: string[]; Labels: Record<string, string> };
    }[];
    expect(info?.Config.User).to.equal(`${IMAGE_UID}:${IMAGE_UID}`);
    expect(info?.Config.Entrypoint).to.deep.equal(['cluster-probe']);
    expect(info?.Config.Labels['org.opencontainers.image.version']).to.equal(pkg.version);
  });

  it('answers reconcile --help read-only, without capabilities or a network', () => {
    const r = podman(
      ['run', '--rm', '--read-only', '--cap-drop=ALL', '--network=none', built.image, 'reconcile', '--help'],
      120_000,
    );
    expect(r.status, `${r.stdout}${r.stderr}`).to.equal(0);
    expect(r.stdout).to.contain('--taint-effect');
  });
});
