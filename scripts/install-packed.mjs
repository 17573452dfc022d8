// Installs the package as the container image ships it, in one place for the Dockerfile and its test
// (test/integration/package-image.test.ts): `npm run build`, `npm pack` of the application and of its two workspace
// packages (@karmada-cluster-probe/schema and /probe), the application's tarball unpacked into an empty directory and
// each package's into packages/<name> beside it (the workspace layout of the checkout, so npm links them), and the
// production dependencies installed there with `npm ci --omit=dev` from the repository's package-lock.json, so the
// image runs exactly the dependency versions the tests ran. Nothing else of the checkout is copied: whatever the
// tarballs miss, the image misses.
//
//   node scripts/install-packed.mjs --prefix /opt/cluster-probe
//   node scripts/install-packed.mjs --pack DIR     (only the tarballs, into DIR; prints {app, packages} as JSON)
//
// Prints the prefix. Plain Node, no dependencies.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function log(line) {
  process.stderr.write(`install-packed: ${line}\n`);
}

function run(command, args, cwd) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw new Error(`${command} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** The workspace packages, by the directory each has under packages/ (read from the root package.json). */
export function workspaces() {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  return pkg.workspaces ?? [];
}

/**
 * `npm run build`, then `npm pack` of the application and of every workspace package into dir. Resolves to the
 * application's tarball and each package's, by its workspace directory (`packages/schema`).
 */
export function packAll(dir) {
  log('npm run build, npm pack of the application and its workspace packages...');
  run('npm', ['run', '-s', 'build'], repoRoot);
  // --ignore-scripts: `prepare` would build once more; the build above is the one packed.
  const out = run(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--workspaces', '--include-workspace-root', '--pack-destination', dir],
    repoRoot,
  );
  const packed = JSON.parse(out.slice(out.indexOf('[')));
  const byName = new Map(packed.map((p) => [p.name, join(dir, p.filename)]));
  const rootName = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).name;
  const packages = {};
  for (const ws of workspaces()) {
    const name = JSON.parse(readFileSync(join(repoRoot, ws, 'package.json'), 'utf8')).name;
    const tarball = byName.get(name);
    if (!tarball) throw new Error(`npm pack made no tarball for ${name} (${ws})`);
    packages[ws] = tarball;
  }
  return { app: byName.get(rootName), packages };
}

/** Unpacks the tarballs into prefix (which must be empty or absent) and installs their production dependencies. */
export function installPacked({ app, packages }, prefix) {
  if (existsSync(prefix) && readdirSync(prefix).length > 0) throw new Error(`${prefix} is not empty`);
  mkdirSync(prefix, { recursive: true });
  run('tar', ['-xzf', app, '-C', prefix, '--strip-components=1', '--no-same-owner'], repoRoot);
  for (const [ws, tarball] of Object.entries(packages)) {
    mkdirSync(join(prefix, ws), { recursive: true });
    run('tar', ['-xzf', tarball, '-C', join(prefix, ws), '--strip-components=1', '--no-same-owner'], repoRoot);
  }
  copyFileSync(join(repoRoot, 'package-lock.json'), join(prefix, 'package-lock.json'));
  log(`npm ci --omit=dev in ${prefix}...`);
  // --ignore-scripts: no `prepare` (dist/ is in the tarball, tsc is not installed) and no dependency's install script.
  run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], prefix);
  // npm pack stores every file 0644; npm sets a bin's mode when it links it, which this install does not do.
  chmodSync(join(prefix, 'bin', 'cluster-probe.js'), 0o755);
  return prefix;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const arg = (name) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const prefix = arg('--prefix');
  const packDir = arg('--pack');
  if (!prefix && !packDir) {
    log('usage: node scripts/install-packed.mjs --prefix DIR | --pack DIR');
    process.exit(2);
  }
  const temp = mkdtempSync(join(tmpdir(), 'cluster-probe-pack-'));
  try {
    if (packDir) {
      mkdirSync(packDir, { recursive: true });
      console.log(JSON.stringify(packAll(resolve(packDir))));
    } else {
      installPacked(packAll(temp), resolve(prefix));
      console.log(resolve(prefix));
    }
  } catch (err) {
    log(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
