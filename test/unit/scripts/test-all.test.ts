// `npm test` (scripts/test-all.mjs): every suite in package.json's order, stopping at the first that fails with one
// line naming it, the command that reruns only it and the suites not run (issue 38). Run against a throwaway
// package.json whose suites are `exit N`, so no suite of ours runs.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(process.cwd(), 'scripts', 'test-all.mjs');
/** scripts/suites.mjs's list, as the runner prints it. */
const SUITES = spawnSync(process.execPath, [SCRIPT, '--list'], { encoding: 'utf8' }).stdout.trim().split('\n');

function runIn(
  scripts: Record<string, string>,
  args: string[] = [],
): { status: number | null; stderr: string; stdout: string } {
  const dir = mkdtempSync(join(tmpdir(), 'test-all-'));
  try {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', version: '0.0.0', private: true, scripts }));
    const r = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: dir, encoding: 'utf8' });
    return { status: r.status, stderr: r.stderr, stdout: r.stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const passing = (): Record<string, string> => Object.fromEntries(SUITES.map((s) => [s, `echo ran ${s}`]));

describe('npm test (scripts/test-all.mjs)', function () {
  this.timeout(60_000);

  it('is what package.json runs, and every suite it lists is one of package.json scripts', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.test).to.equal('node scripts/test-all.mjs');
    for (const s of SUITES) expect(pkg.scripts, s).to.have.property(s);
  });

  it('stops at the first failing suite: one line with the suite, the command to rerun it and what was not run', () => {
    const scripts = { ...passing(), 'test:unit': 'exit 3' };
    const r = runIn(scripts);
    expect(r.status).to.equal(3);
    const i = SUITES.indexOf('test:unit');
    for (const s of SUITES.slice(0, i)) expect(r.stdout).to.contain(`ran ${s}`);
    for (const s of SUITES.slice(i + 1)) expect(r.stdout).not.to.contain(`ran ${s}`);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('npm test:'));
    expect(lines).to.have.length(1);
    expect(lines[0]).to.equal(
      `npm test: test:unit failed (exit 3); rerun only it: npm run test:unit; not run: ${SUITES.slice(i + 1).join(', ')} ` +
        '(after a fix, go on with: npm test -- --from test:unit).',
    );
  });

  it('says when the failing suite was the last one', () => {
    const last = SUITES[SUITES.length - 1]!;
    const r = runIn({ ...passing(), [last]: 'exit 1' });
    expect(r.status).to.equal(1);
    expect(r.stderr).to.contain(
      `npm test: ${last} failed (exit 1); rerun only it: npm run ${last}; it was the last suite.`,
    );
  });

  it('runs every suite in order when all pass, and --from starts at the one named', () => {
    const all = runIn(passing());
    expect(all.status).to.equal(0);
    const order = [...all.stdout.matchAll(/^ran (\S+)$/gm)].map((m) => m[1]);
    expect(order).to.deep.equal(SUITES);
    const from = runIn(passing(), ['--from', 'test:e2e']);
    expect(from.status).to.equal(0);
    expect([...from.stdout.matchAll(/^ran (\S+)$/gm)].map((m) => m[1])).to.deep.equal(
      SUITES.slice(SUITES.indexOf('test:e2e')),
    );
    const bad = runIn(passing(), ['--from', 'test:nothing']);
    expect(bad.status).to.equal(2);
    expect(bad.stderr).to.contain('--from test:nothing: not a suite; give one of typecheck');
  });
});
