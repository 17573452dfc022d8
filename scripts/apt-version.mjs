// Which version of a Debian package to install, given the version the project measured with (the pin) and what
// `apt-cache policy <package>` says the archive offers today. A pin is what we measured with, not the only version
// that may install: Debian's security archive keeps only its newest build and a point release replaces the others,
// so a pin that was offered last week can be gone today (issue 48). Pure: policy text in, a decision out; no I/O.
// Plain Node, no dependencies: scripts/ensure-chromium.mjs and scripts/host-packages.mjs run before any build.

/**
 * Reads `apt-cache policy <package>` (one package): the installed version, apt's candidate and the version table,
 * newest first (apt prints it in descending version order), each with the archives that offer it. A version that
 * only `/var/lib/dpkg/status` lists (installed, no longer in any archive) is not offered.
 * @param {string} text
 * @returns {{ installed?: string, candidate?: string, offered: string[] }}
 */
export function parsePolicy(text) {
  const field = (name) => {
    const m = new RegExp(`^\\s+${name}:\\s+(\\S+)\\s*$`, 'm').exec(text);
    return m && m[1] !== '(none)' ? m[1] : undefined;
  };
  const offered = [];
  const table = text.split(/^\s+Version table:\s*$/m)[1] ?? '';
  let current;
  let archives = 0;
  const close = () => {
    if (current !== undefined && archives > 0) offered.push(current);
  };
  for (const line of table.split('\n')) {
    const version = /^\s+(?:\*\*\*\s+)?(\S+)\s+-?\d+\s*$/.exec(line);
    if (version) {
      close();
      current = version[1];
      archives = 0;
      continue;
    }
    const source = /^\s+-?\d+\s+(\S+)/.exec(line);
    if (source && current !== undefined && source[1] !== '/var/lib/dpkg/status') archives++;
  }
  close();
  return { installed: field('Installed'), candidate: field('Candidate'), offered };
}

/** The upstream major of a Debian version: `2:156.0.8078.114-1~deb12u1` -> `156`, `1.6.20~ds1-1+deb12u3` -> `1`. */
export function upstreamMajor(version) {
  const noEpoch = version.replace(/^\d+:/, '');
  const dash = noEpoch.lastIndexOf('-');
  const upstream = dash > 0 ? noEpoch.slice(0, dash) : noEpoch;
  return /^\d+/.exec(upstream)?.[0] ?? upstream;
}

/**
 * The version to install, and why, in one line a person reads in the test log.
 *
 * - `explicit` (an operator's override, e.g. CLUSTER_PROBE_CHROMIUM_VERSION): installed when offered, else refused:
 *   the operator asked for that build and no other.
 * - the pin, when offered;
 * - else apt's candidate when it has the pin's upstream major (a newer security build, the usual case), else the
 *   newest offered version of that major;
 * - else, no version of that major offered (a new Debian release, or only an older one left), apt's candidate: the
 *   suite is better run on the browser Debian ships than not at all, and the line says the major changed.
 * - nothing offered: refused, naming what was seen and the command that fixes it.
 *
 * @param {{ name: string, pin: string, policy: string, explicit?: string, fix?: string }} request
 * @returns {{ ok: true, version: string, reason: string } | { ok: false, message: string }}
 */
export function resolveVersion({ name, pin, policy, explicit, fix }) {
  const { candidate, offered } = parsePolicy(policy);
  const seen = offered.length > 0 ? offered.join(', ') : 'nothing';
  const fixText =
    fix ?? `check the apt sources (/etc/apt/sources.list.d/), run \`apt-get update\`, then run this again`;
  if (explicit) {
    if (offered.includes(explicit)) return { ok: true, version: explicit, reason: `${name} ${explicit}, as requested` };
    return {
      ok: false,
      message: `${name} ${explicit} was requested but is not offered (apt-cache policy ${name} offers: ${seen}); set it to one of those, or unset it to take the pin's major`,
    };
  }
  if (offered.includes(pin)) return { ok: true, version: pin, reason: `${name} ${pin}, the pinned version` };
  if (offered.length === 0) {
    return {
      ok: false,
      message: `${name}: no version offered (pinned ${pin}; apt-cache policy ${name} offers: nothing); ${fixText}`,
    };
  }
  const major = upstreamMajor(pin);
  const sameMajor = offered.filter((v) => upstreamMajor(v) === major);
  if (sameMajor.length > 0) {
    const version = candidate !== undefined && sameMajor.includes(candidate) ? candidate : sameMajor[0];
    return {
      ok: true,
      version,
      reason: `${name} ${version}: the pin ${pin} is no longer offered; the archive's build of the same major (${major}) (offered: ${seen})`,
    };
  }
  const version = candidate !== undefined && offered.includes(candidate) ? candidate : offered[0];
  return {
    ok: true,
    version,
    reason: `${name} ${version}: the pin ${pin} is no longer offered and no ${major}.x is; the archive's candidate, major ${upstreamMajor(version)} (offered: ${seen})`,
  };
}
