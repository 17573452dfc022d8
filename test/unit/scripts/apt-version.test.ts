// A pin is the version the project measured with, not the only one that may install (issue 48): which Debian
// version scripts/ensure-chromium.mjs and scripts/host-packages.mjs install, judged on `apt-cache policy` outputs
// recorded on this machine (test/fixtures/apt-policy/README.md says how each was made), and the whole install flow
// on an apt that replays them.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Resolution = { ok: true; version: string; reason: string } | { ok: false; message: string };
interface Apt {
  policy(name: string): string;
  update(): { ok: boolean; detail: string };
  install(specs: string[]): { ok: boolean; detail: string };
}
interface AptVersion {
  parsePolicy(text: string): { installed?: string; candidate?: string; offered: string[] };
  upstreamMajor(version: string): string;
  resolveVersion(r: { name: string; pin: string; policy: string; explicit?: string }): Resolution;
}
interface EnsureChromium {
  PINNED_CHROMIUM: string;
  ensureChromium(o: {
    apt: Apt;
    env: Record<string, string>;
    isRoot: boolean;
    path: string;
    version: (path: string) => string | undefined;
    log: (line: string) => void;
  }): string;
}
interface HostPackages {
  DEBIAN_PACKAGES: Record<string, { version: string }>;
  ensureHostPackages(
    names: string[],
    o: {
      apt: Apt;
      isRoot: boolean;
      present: (name: string) => boolean;
      installed: (name: string) => string | undefined;
      log: (line: string) => void;
    },
  ): { name: string; version: string; reason: string }[];
}

const scripts = join(process.cwd(), 'scripts');
const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(join(scripts, file)).href)) as T;
const policy = (file: string): string =>
  readFileSync(join(process.cwd(), 'test', 'fixtures', 'apt-policy', file), 'utf8');

/** An apt that answers `apt-cache policy` from recorded outputs (a list per package: before and after an update). */
class ReplayApt implements Apt {
  readonly calls: string[] = [];
  private updated = false;
  constructor(
    private readonly outputs: Record<string, [before: string, after?: string]>,
    private readonly answers: { update?: boolean; install?: boolean[] } = {},
  ) {}
  policy(name: string): string {
    const [before, after] = this.outputs[name] ?? [''];
    return this.updated && after !== undefined ? after : before;
  }
  update(): { ok: boolean; detail: string } {
    this.calls.push('update');
    const ok = this.answers.update ?? true;
    if (ok) this.updated = true;
    return ok
      ? { ok, detail: 'Reading package lists...' }
      : {
          ok,
          detail: 'Err:1 http://deb.debian.org/debian bookworm InRelease\n  Temporary failure resolving deb.debian.org',
        };
  }
  install(specs: string[]): { ok: boolean; detail: string } {
    this.calls.push(`install ${specs.join(' ')}`);
    const ok = this.answers.install?.shift() ?? true;
    return { ok, detail: ok ? 'Setting up ...' : 'E: Failed to fetch ... 404  Not Found' };
  }
}

describe('scripts/apt-version.mjs: which Debian version installs (issue 48)', () => {
  let apt: AptVersion;
  before(async () => {
    apt = await load<AptVersion>('apt-version.mjs');
  });

  it('reads the version table newest first, with the installed version and the candidate', () => {
    expect(apt.parsePolicy(policy('chromium-pin-withdrawn.txt'))).to.deep.equal({
      installed: undefined,
      candidate: '156.0.8078.129-1~deb12u1',
      offered: ['156.0.8078.129-1~deb12u1', '150.0.7871.100-1~deb12u1'],
    });
    expect(apt.parsePolicy(policy('chromium-installed-older.txt'))).to.deep.equal({
      installed: '150.0.7871.100-1~deb12u1',
      candidate: '156.0.8078.129-1~deb12u1',
      offered: ['156.0.8078.129-1~deb12u1', '150.0.7871.100-1~deb12u1'],
    });
  });

  it('does not count a version only /var/lib/dpkg/status lists as offered', () => {
    const parsed = apt.parsePolicy(policy('status-only.txt'));
    expect(parsed.installed).to.equal('150.0.7871.100-1~deb12u1');
    expect(parsed.offered).to.deep.equal([]);
  });

  it('takes the upstream major of a Debian version, epoch and revision aside', () => {
    expect(apt.upstreamMajor('156.0.8078.114-1~deb12u1')).to.equal('156');
    expect(apt.upstreamMajor('1.6.20~ds1-1+deb12u3')).to.equal('1');
    expect(apt.upstreamMajor('2:4.3.1+ds1-8+deb12u1+b3')).to.equal('4');
    expect(apt.upstreamMajor('1.3.5-7')).to.equal('1');
    expect(apt.upstreamMajor('1.8.9-2')).to.equal('1');
  });

  it('installs the pin when the archive offers it', () => {
    expect(
      apt.resolveVersion({
        name: 'containerd',
        pin: '1.6.20~ds1-1+deb12u3',
        policy: policy('containerd-pin-offered.txt'),
      }),
    ).to.deep.equal({
      ok: true,
      version: '1.6.20~ds1-1+deb12u3',
      reason: 'containerd 1.6.20~ds1-1+deb12u3, the pinned version',
    });
    // Offered, though not apt's candidate: still the pin.
    const older = apt.resolveVersion({
      name: 'containerd',
      pin: '1.6.20~ds1-1+deb12u2',
      policy: policy('containerd-pin-offered.txt'),
    });
    expect(older).to.include({ ok: true, version: '1.6.20~ds1-1+deb12u2' });
  });

  it('installs the newer build of the same major when the security archive withdrew the pin (2026-12-07)', () => {
    const r = apt.resolveVersion({
      name: 'chromium',
      pin: '156.0.8078.114-1~deb12u1',
      policy: policy('chromium-pin-withdrawn.txt'),
    });
    expect(r.ok).to.equal(true);
    if (!r.ok) return;
    expect(r.version).to.equal('156.0.8078.129-1~deb12u1');
    expect(r.reason).to.contain('156.0.8078.114-1~deb12u1 is no longer offered').and.contain('same major (156)');
  });

  it('installs an older build of the same major when only that is left', () => {
    const r = apt.resolveVersion({
      name: 'containerd',
      pin: '1.6.20~ds1-1+deb12u3',
      policy: policy('containerd-security-only.txt'),
    });
    expect(r).to.include({ ok: true, version: '1.6.20~ds1-1+deb12u2' });
  });

  it('installs the candidate of another major when the pin major is gone, and says the major changed', () => {
    const r = apt.resolveVersion({
      name: 'chromium',
      pin: '156.0.8078.129-1~deb12u1',
      policy: policy('chromium-older-major-only.txt'),
    });
    expect(r.ok).to.equal(true);
    if (!r.ok) return;
    expect(r.version).to.equal('150.0.7871.100-1~deb12u1');
    expect(r.reason).to.contain('no 156.x').and.contain('major 150');
  });

  it('refuses when nothing is offered, in one line naming the package, what was seen and the command to fix it', () => {
    for (const file of ['nothing-offered.txt', 'status-only.txt']) {
      const r = apt.resolveVersion({ name: 'chromium', pin: '156.0.8078.129-1~deb12u1', policy: policy(file) });
      expect(r.ok, file).to.equal(false);
      if (r.ok) return;
      expect(r.message).to.not.contain('\n');
      expect(r.message).to.match(/^chromium: /);
      expect(r.message)
        .to.contain('offers: nothing')
        .and.contain('apt-get update')
        .and.contain('156.0.8078.129-1~deb12u1');
    }
  });

  it('installs an explicit version when offered and refuses one that is not, naming what is', () => {
    const withdrawn = policy('chromium-pin-withdrawn.txt');
    expect(
      apt.resolveVersion({ name: 'chromium', pin: 'x', explicit: '150.0.7871.100-1~deb12u1', policy: withdrawn }),
    ).to.include({ ok: true, version: '150.0.7871.100-1~deb12u1' });
    const r = apt.resolveVersion({
      name: 'chromium',
      pin: 'x',
      explicit: '156.0.8078.114-1~deb12u1',
      policy: withdrawn,
    });
    expect(r.ok).to.equal(false);
    if (r.ok) return;
    expect(r.message).to.contain('156.0.8078.114-1~deb12u1 was requested but is not offered');
    expect(r.message).to.contain('offers: 156.0.8078.129-1~deb12u1, 150.0.7871.100-1~deb12u1');
  });

  it('every pin in the scripts has an upstream major the rule can compare', async () => {
    const { PINNED_CHROMIUM } = await load<EnsureChromium>('ensure-chromium.mjs');
    const { DEBIAN_PACKAGES } = await load<HostPackages>('host-packages.mjs');
    for (const pin of [PINNED_CHROMIUM, ...Object.values(DEBIAN_PACKAGES).map((p) => p.version)]) {
      expect(apt.upstreamMajor(pin), pin).to.match(/^\d+$/);
    }
  });
});

describe('scripts/ensure-chromium.mjs and host-packages.mjs on a replayed apt (issue 48)', () => {
  let chromium: EnsureChromium;
  let host: HostPackages;
  before(async () => {
    chromium = await load<EnsureChromium>('ensure-chromium.mjs');
    host = await load<HostPackages>('host-packages.mjs');
  });

  function chromiumRun(aptOutputs: Apt, env: Record<string, string> = {}, isRoot = true) {
    const lines: string[] = [];
    let installed = false;
    const installSeen = aptOutputs.install.bind(aptOutputs);
    aptOutputs.install = (specs) => {
      const r = installSeen(specs);
      installed ||= r.ok;
      return r;
    };
    const run = () =>
      chromium.ensureChromium({
        apt: aptOutputs,
        env,
        isRoot,
        path: '/nonexistent/chromium',
        version: () => (installed ? 'Chromium 150.0.7871.100' : undefined),
        log: (line) => lines.push(line),
      });
    return { run, lines };
  }

  it('with the pin withdrawn, updates the lists once, installs the major left with chromium-common and says why', () => {
    const apt = new ReplayApt({ chromium: [policy('chromium-older-major-only.txt')] });
    const { run, lines } = chromiumRun(apt);
    expect(run()).to.equal('/nonexistent/chromium');
    expect(apt.calls).to.deep.equal([
      'update',
      'install chromium=150.0.7871.100-1~deb12u1 chromium-common=150.0.7871.100-1~deb12u1',
    ]);
    expect(lines.join('\n')).to.contain(`the pin ${chromium.PINNED_CHROMIUM} is no longer offered`);
    expect(lines.at(-1)).to.match(/^installed Chromium 150\.0\.7871\.100 at \/nonexistent\/chromium/);
  });

  it('installs the pin without an update when apt already offers it', () => {
    const apt = new ReplayApt({ chromium: [policy('chromium-pin-withdrawn.txt')] });
    chromiumRun(apt).run();
    expect(apt.calls).to.deep.equal([
      `install chromium=${chromium.PINNED_CHROMIUM} chromium-common=${chromium.PINNED_CHROMIUM}`,
    ]);
  });

  it('an unreachable archive offering nothing fails in one line naming chromium, what was seen, the update error and the fix', () => {
    const apt = new ReplayApt({ chromium: [policy('nothing-offered.txt')] }, { update: false });
    const { run } = chromiumRun(apt);
    let message = '';
    try {
      run();
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).to.match(/^chromium: no version offered/);
    expect(message).to.not.contain('\n');
    expect(message).to.contain('offers: nothing').and.contain('Temporary failure resolving deb.debian.org');
    expect(message).to.contain('apt-get install chromium');
    expect(apt.calls).to.deep.equal(['update']);
  });

  it('an explicit CLUSTER_PROBE_CHROMIUM_VERSION not offered still fails, installing nothing', () => {
    const apt = new ReplayApt({ chromium: [policy('chromium-pin-withdrawn.txt')] });
    const { run } = chromiumRun(apt, { CLUSTER_PROBE_CHROMIUM_VERSION: '156.0.8078.114-1~deb12u1' });
    expect(run).to.throw('chromium 156.0.8078.114-1~deb12u1 was requested but is not offered');
    expect(apt.calls).to.deep.equal(['update']);
  });

  it('not as root names the command and touches no apt', () => {
    const apt = new ReplayApt({ chromium: [policy('chromium-pin-withdrawn.txt')] });
    const { run } = chromiumRun(apt, {}, false);
    expect(run).to.throw(
      /is missing and this is not root: install Debian's chromium with `sudo sh -c 'apt-get update && apt-get install/,
    );
    expect(apt.calls).to.deep.equal([]);
  });

  it('a host package whose pin a point release replaced installs the same major beside the pins still offered', () => {
    const apt = new ReplayApt({
      containerd: [policy('containerd-security-only.txt')],
      podman: [policy('podman-pin-offered.txt')],
    });
    const present = new Set<string>();
    const installOf = apt.install.bind(apt);
    apt.install = (specs) => {
      for (const s of specs) present.add(s.split('=')[0]!);
      return installOf(specs);
    };
    const lines: string[] = [];
    const choices = host.ensureHostPackages(['containerd', 'podman'], {
      apt,
      isRoot: true,
      present: (name) => present.has(name),
      installed: () => undefined,
      log: (line) => lines.push(line),
    });
    expect(choices.map((c) => `${c.name}=${c.version}`)).to.deep.equal([
      'containerd=1.6.20~ds1-1+deb12u2',
      `podman=${host.DEBIAN_PACKAGES.podman!.version}`,
    ]);
    expect(apt.calls).to.deep.equal([
      'update',
      'install containerd=1.6.20~ds1-1+deb12u2 podman=4.3.1+ds1-8+deb12u1+b3',
    ]);
    expect(lines.join('\n')).to.contain('the pin 1.6.20~ds1-1+deb12u3 is no longer offered');
  });

  it('an install that fails on lists that looked current is retried once after an update', () => {
    const apt = new ReplayApt({ podman: [policy('podman-pin-offered.txt')] }, { install: [false, true] });
    let done = false;
    const installOf = apt.install.bind(apt);
    apt.install = (specs) => {
      const r = installOf(specs);
      done ||= r.ok;
      return r;
    };
    host.ensureHostPackages(['podman'], {
      apt,
      isRoot: true,
      present: () => done,
      installed: () => undefined,
      log: () => {},
    });
    const spec = `podman=${host.DEBIAN_PACKAGES.podman!.version}`;
    expect(apt.calls).to.deep.equal([`install ${spec}`, 'update', `install ${spec}`]);
  });
});
