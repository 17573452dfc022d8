// `cluster-probe migrate --write` as a user runs it, on files it may not replace: a separate process, so that it can
// run as an unprivileged user (root may write anywhere), and the exit status is the process's own.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
/**
 * Root writes any directory whatever its mode: as root the CLI runs as nobody, when nobody can reach this checkout. A
 * checkout under a 0700 directory (`mktemp -d`, /root) it cannot: then the CLI runs as root and the locked directory
 * is made immutable (`chattr +i`), which root cannot write either.
 */
const asNobody =
  asRoot &&
  // By its absolute path: the child starts in this directory either way, the module loader resolves from the root.
  spawnSync(process.execPath, ['-e', 'require("node:fs").accessSync(process.argv[1])', resolve('src/cli/bin.ts')], {
    uid: NOBODY,
    gid: NOBODY,
    timeout: 30_000,
  }).status === 0;

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    ...(asNobody ? { uid: NOBODY, gid: NOBODY, env: { ...process.env, HOME: tmpdir() } } : {}),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Makes `d` unwritable by the CLI's user: mode 0555, and immutable when that user is root. */
function lock(d: string): void {
  chmodSync(d, 0o555);
  if (asRoot && !asNobody) {
    const r = spawnSync('chattr', ['+i', d], { encoding: 'utf8' });
    if (r.status !== 0)
      throw new Error(
        `as root with a checkout nobody (uid ${NOBODY}) cannot read, the test needs chattr +i on ${d}: ` +
          `${r.error?.message ?? r.stderr.trim()}; clone into a directory others can read (chmod o+rx on its parents)`,
      );
  }
}
function unlock(d: string): void {
  if (asRoot && !asNobody) spawnSync('chattr', ['-i', d]);
  chmodSync(d, 0o755);
}

const LEGACY = [
  'apiVersion: cluster.karmada.io/v1alpha1',
  'kind: Cluster',
  'metadata:',
  '  name: NAME',
  '  annotations:',
  '    cluster.karmada.io/health-checker: \'{"url":"https://health.example.com:8443/healthz"}\'',
  'spec:',
  '  syncMode: Push',
  '',
].join('\n');

describe('cluster-probe migrate --write on files it may not replace', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cluster-probe-migrate-write-'));
    chmodSync(dir, 0o755);
  });
  afterEach(() => {
    for (const d of ['open', 'locked']) if (existsSync(join(dir, d))) unlock(join(dir, d));
    rmSync(dir, { recursive: true, force: true });
  });

  /** A file the CLI's user owns, in a directory it may (open) or may not (locked) write. */
  function place(sub: 'open' | 'locked', name: string): string {
    const d = join(dir, sub);
    mkdirSync(d, { recursive: true });
    const file = join(d, `${name}.yaml`);
    writeFileSync(file, LEGACY.replace('NAME', name));
    if (asNobody) {
      chownSync(d, NOBODY, NOBODY);
      chownSync(file, NOBODY, NOBODY);
    }
    return file;
  }

  it('refuses a file in a directory it cannot write, naming both, migrates the rest and exits 1', () => {
    const locked = place('locked', 'a');
    const open = place('open', 'b');
    lock(join(dir, 'locked'));
    const r = cli(['migrate', '--write', locked, open]);
    expect(r.code, r.stderr).to.equal(1);
    expect(r.stderr).to.contain(
      `cluster-probe migrate: ${locked}: not written: the directory ${join(dir, 'locked')} is not writable`,
    );
    expect(r.stderr).to.contain(`${open}: migrated`);
    expect(r.stderr).to.contain(`cluster-probe migrate: 1 of 2 files left untouched: ${locked}`);
    expect(readFileSync(locked, 'utf8')).to.equal(LEGACY.replace('NAME', 'a'));
    expect(readFileSync(open, 'utf8')).to.contain('livenessProbe:').and.not.contain('health-checker');
    expect(readdirSync(join(dir, 'locked'))).to.deep.equal(['a.yaml']);
  });

  it('states the exit status and what --write keeps in --help', () => {
    const r = cli(['migrate', '--help']);
    expect(r.code).to.equal(0);
    expect(r.stdout).to.contain(
      'Exit status: 0 done (or nothing to do), 1 some Cluster cannot be migrated or some file',
    );
    expect(r.stdout).to.contain('a symlink is written through to its target');
  });
});
