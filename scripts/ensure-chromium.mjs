// Makes sure Debian's Chromium is at /usr/bin/chromium for the browser test (test/browser/): when it is missing, runs
// `apt-get install -y chromium=<PINNED>` as root; when not root, fails naming that command. Never downloads a browser
// of playwright's own (the machine's network refuses it, and the test must run the distribution's build).
// Plain Node, no dependencies: it runs before mocha in `npm run test:browser`.
import { execFileSync, spawnSync } from 'node:child_process';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export const CHROMIUM_PATH = '/usr/bin/chromium';
/**
 * The Debian package version installed, read off `apt-cache policy chromium` (bookworm-security). Debian's security
 * archive keeps only the newest build, so when this one is gone the script says so; update it here (or set
 * CLUSTER_PROBE_CHROMIUM_VERSION for one run).
 */
export const PINNED_CHROMIUM = '156.0.8078.114-1~deb12u1';

function log(line) {
  process.stderr.write(`ensure-chromium: ${line}\n`);
}

function installedVersion() {
  try {
    return execFileSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8', timeout: 30_000 }).trim();
  } catch {
    return undefined;
  }
}

/** The versions `apt-cache policy chromium` offers (its version table), newest first. */
function offeredVersions() {
  const out = spawnSync('apt-cache', ['policy', 'chromium'], { encoding: 'utf8' });
  if (out.status !== 0) return [];
  const table = out.stdout.split('Version table:')[1] ?? '';
  return [...table.matchAll(/^\s+(?:\*\*\*\s+)?(\S+)\s+\d+\s*$/gm)].map((m) => m[1]);
}

function run(cmd, args) {
  log(`running: ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (r.status !== 0) throw new Error(`${[cmd, ...args].join(' ')} failed (exit ${r.status ?? r.signal})`);
}

/** Resolves to the path of Chromium, installing Debian's package first when it is missing. */
export function ensureChromium() {
  const have = installedVersion();
  if (have !== undefined) {
    log(`using ${have} at ${CHROMIUM_PATH}`);
    return CHROMIUM_PATH;
  }
  const version = process.env.CLUSTER_PROBE_CHROMIUM_VERSION || PINNED_CHROMIUM;
  const command = `apt-get update && apt-get install -y --no-install-recommends chromium=${version}`;
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new Error(
      `${CHROMIUM_PATH} is missing and this is not root: install Debian's chromium with \`sudo sh -c '${command}'\`, then run the browser test again`,
    );
  }
  let offered = offeredVersions();
  if (!offered.includes(version)) {
    run('apt-get', ['update']);
    offered = offeredVersions();
  }
  if (!offered.includes(version)) {
    throw new Error(
      `Debian no longer offers chromium ${version} (apt-cache policy chromium offers: ${offered.join(', ') || 'nothing'}); ` +
        `update PINNED_CHROMIUM in scripts/ensure-chromium.mjs or set CLUSTER_PROBE_CHROMIUM_VERSION`,
    );
  }
  log(`installing Debian's chromium ${version} (a few minutes)`);
  run('apt-get', ['install', '-y', '--no-install-recommends', `chromium=${version}`]);
  const now = installedVersion();
  if (now === undefined) throw new Error(`apt-get installed chromium ${version} but ${CHROMIUM_PATH} does not run`);
  log(`installed ${now} at ${CHROMIUM_PATH}`);
  return CHROMIUM_PATH;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    ensureChromium();
  } catch (err) {
    log(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
