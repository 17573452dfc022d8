// Installing Debian packages for the tests at the version the project measured with, or at what the archive offers
// instead when that version is gone (the rule is scripts/apt-version.mjs's, pure). The apt commands are one object a
// test replaces (`realApt`), so the whole flow, the update, the refusal and its one line, runs on recorded
// `apt-cache policy` outputs. Plain Node, no dependencies: it runs before any build.
import { spawnSync } from 'node:child_process';
import process from 'node:process';
import { resolveVersion } from './apt-version.mjs';

/**
 * @typedef {object} Apt
 * @property {(name: string) => string} policy `apt-cache policy <name>`'s output ('' when it fails)
 * @property {() => { ok: boolean, detail: string }} update `apt-get update`
 * @property {(specs: string[]) => { ok: boolean, detail: string }} install `apt-get install -y --no-install-recommends`
 */

const APT_ENV = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };

/** The machine's apt. */
export const realApt = {
  policy(name) {
    const r = spawnSync('apt-cache', ['policy', name], { encoding: 'utf8', timeout: 120_000 });
    return r.status === 0 ? r.stdout : '';
  },
  update() {
    const r = spawnSync('apt-get', ['update'], {
      encoding: 'utf8',
      env: APT_ENV,
      maxBuffer: 64 << 20,
      timeout: 600_000,
    });
    return { ok: r.status === 0, detail: lastLines(r) };
  },
  install(specs) {
    const r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...specs], {
      encoding: 'utf8',
      env: APT_ENV,
      maxBuffer: 64 << 20,
      timeout: 1_800_000,
    });
    return { ok: r.status === 0, detail: lastLines(r) };
  },
};

function lastLines(r) {
  if (r.error) return r.error.message;
  const text = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n');
  return text.slice(-12).join('\n');
}

/**
 * The version to install of each package: the pin when offered, else what resolveVersion() takes. Runs
 * `apt-get update` once, only when some pin (or explicit version) is not in the lists apt has, since they may be old.
 * An update that fails (the archive unreachable) is said in the refusal; the lists apt already has still count.
 * Throws one Error naming every package it cannot resolve, one line each.
 *
 * @param {{ name: string, pin: string, explicit?: string }[]} requests
 * @param {{ apt?: Apt, log: (line: string) => void, fix?: string }} options
 * @returns {{ name: string, version: string, reason: string }[]}
 */
export function chooseVersions(requests, { apt = realApt, log, fix }) {
  const resolveAll = () =>
    requests.map((r) => ({ request: r, result: resolveVersion({ ...r, policy: apt.policy(r.name), fix }) }));
  let results = resolveAll();
  const exact = (x) => x.result.ok && x.result.version === (x.request.explicit || x.request.pin);
  let updateNote = '';
  if (!results.every(exact)) {
    log(
      `apt-get update (apt's lists lack ${results
        .filter((x) => !exact(x))
        .map((x) => x.request.name)
        .join(', ')} at the pinned version)`,
    );
    const updated = apt.update();
    if (!updated.ok) {
      updateNote = ` (apt-get update failed: ${updated.detail.split('\n').filter(Boolean).slice(-1)[0] ?? 'no output'})`;
      log(`apt-get update failed; using the lists apt already has${updateNote}`);
    }
    results = resolveAll();
  }
  const refused = results.filter((x) => !x.result.ok);
  if (refused.length > 0) throw new Error(refused.map((x) => x.result.message + updateNote).join('\n'));
  return results.map((x) => {
    log(`installing ${x.result.reason}`);
    return { name: x.request.name, version: x.result.version, reason: x.result.reason };
  });
}

/**
 * Chooses each package's version (chooseVersions) and installs them in one `apt-get install`, with each package's
 * companions (packages of the same source required at exactly its version, e.g. chromium-common) at the same version.
 * An install that fails on lists that looked current (a mirror moved on, a 404) is retried once after
 * `apt-get update`, choosing again; a second failure throws with apt's last lines.
 *
 * @param {{ name: string, pin: string, explicit?: string }[]} requests
 * @param {{ apt?: Apt, log: (line: string) => void, fix?: string, companions?: Record<string, string[]> }} options
 * @returns {{ choices: { name: string, version: string, reason: string }[], specs: string[] }}
 */
export function aptInstall(requests, { apt = realApt, log, fix, companions = {} }) {
  const specsOf = (choices) =>
    choices.flatMap((c) => [c.name, ...(companions[c.name] ?? [])].map((n) => `${n}=${c.version}`));
  let choices = chooseVersions(requests, { apt, log, fix });
  let specs = specsOf(choices);
  log(`apt-get install ${specs.join(' ')}`);
  let r = apt.install(specs);
  if (!r.ok) {
    log('apt-get install failed; running apt-get update and choosing again...');
    apt.update();
    choices = chooseVersions(requests, { apt, log, fix });
    specs = specsOf(choices);
    r = apt.install(specs);
  }
  if (!r.ok) throw new Error(`apt-get install ${specs.join(' ')} failed:\n${r.detail}`);
  return { choices, specs };
}
