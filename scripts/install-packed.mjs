// Installs the package as the container image ships it, in one place for the Dockerfile and its test
// (test/integration/package-image.test.ts): `npm pack` (which builds dist/ through `prepare`), the tarball unpacked
// into an empty directory, and its production dependencies installed there with `npm ci --omit=dev` from the
// repository's package-lock.json, so the image runs exactly the dependency versions the tests ran. Nothing else of the
// checkout is copied: whatever the tarball misses, the image misses.
//
//   node scripts/install-packed.mjs --prefix /opt/cluster-probe [--tarball FILE]
//
// Prints the prefix. Plain Node, no dependencies.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
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

/** `npm pack` of the checkout into dir; resolves to the tarball's path. */
export function pack(dir) {
  log('npm pack (builds dist/ through prepare)...');
  const out = run('npm', ['pack', '--json', '--pack-destination', dir], repoRoot);
  // prepare's own output (tsc) may come before the JSON on stdout.
  const [{ filename }] = JSON.parse(out.slice(out.indexOf('[')));
  return join(dir, filename);
}

/** Unpacks the tarball into prefix (which must be empty or absent) and installs its production dependencies. */
export function installPacked(tarball, prefix) {
  if (existsSync(prefix) && readdirSync(prefix).length > 0) throw new Error(`${prefix} is not empty`);
  mkdirSync(prefix, { recursive: true });
  run('tar', ['-xzf', tarball, '-C', prefix, '--strip-components=1', '--no-same-owner'], repoRoot);
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
  if (!prefix) {
    log('usage: node scripts/install-packed.mjs --prefix DIR [--tarball FILE]');
    process.exit(2);
  }
  const temp = mkdtempSync(join(tmpdir(), 'cluster-probe-pack-'));
  try {
    installPacked(arg('--tarball') ?? pack(temp), resolve(prefix));
    console.log(resolve(prefix));
  } catch (err) {
    log(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
