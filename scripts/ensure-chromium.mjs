// Makes sure Debian's Chromium is at /usr/bin/chromium for the browser test (test/browser/): when it is missing, runs
// `apt-get install -y chromium=<version>` as root, the version being the pin when Debian still offers it, else the
// archive's build of the same major (scripts/apt-version.mjs); when not root, fails naming that command. Never
// downloads a browser of playwright's own (the machine's network refuses it, and the test must run the
// distribution's build). Plain Node, no dependencies: it runs before mocha in `npm run test:browser`.
import { execFileSync } from 'node:child_process';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { aptInstall, realApt } from './apt.mjs';

export const CHROMIUM_PATH = '/usr/bin/chromium';
/**
 * The Debian package version the browser test was measured with (bookworm-security). Debian's security archive
 * keeps only its newest build, so this one is withdrawn every few weeks: then the archive's build of the same major
 * installs instead, and the log says so. CLUSTER_PROBE_CHROMIUM_VERSION asks for one exact build (and fails when it is
 * not offered).
 */
export const PINNED_CHROMIUM = '156.0.8078.129-1~deb12u1';
/** Built from the same source and required at exactly chromium's version. */
const COMPANIONS = { chromium: ['chromium-common'] };

function log(line) {
  process.stderr.write(`ensure-chromium: ${line}\n`);
}

function runningVersion(path) {
  try {
    return execFileSync(path, ['--version'], {
      encoding: 'utf8',
      timeout: 30_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

/**
 * Resolves to the path of Chromium, installing Debian's package first when it is missing.
 * @param {{ apt?: import('./apt.mjs').Apt, env?: NodeJS.ProcessEnv, isRoot?: boolean, path?: string,
 *   version?: (path: string) => string | undefined, log?: (line: string) => void }} [options]
 */
export function ensureChromium(options = {}) {
  const {
    apt = realApt,
    env = process.env,
    isRoot = typeof process.getuid !== 'function' || process.getuid() === 0,
    path = CHROMIUM_PATH,
    version = runningVersion,
    log: say = log,
  } = options;
  const have = version(path);
  if (have !== undefined) {
    say(`using ${have} at ${path}`);
    return path;
  }
  const explicit = env.CLUSTER_PROBE_CHROMIUM_VERSION || undefined;
  if (!isRoot) {
    const spec = explicit ?? PINNED_CHROMIUM;
    throw new Error(
      `${path} is missing and this is not root: install Debian's chromium with \`sudo sh -c 'apt-get update && apt-get install -y --no-install-recommends chromium'\` (measured with ${spec}), then run the browser test again`,
    );
  }
  say(`${path} is missing: installing Debian's chromium (a few minutes)`);
  const {
    choices: [choice],
  } = aptInstall([{ name: 'chromium', pin: PINNED_CHROMIUM, explicit }], {
    apt,
    log: say,
    companions: COMPANIONS,
    fix: 'check the apt sources (/etc/apt/sources.list.d/) and run `apt-get update`, or install it yourself: `apt-get install chromium`',
  });
  const now = version(path);
  if (now === undefined) throw new Error(`apt-get installed chromium ${choice.version} but ${path} does not run`);
  say(`installed ${now} at ${path} (${choice.reason})`);
  return path;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    ensureChromium();
  } catch (err) {
    for (const line of (err instanceof Error ? err.message : String(err)).split('\n')) log(line);
    process.exit(1);
  }
}
