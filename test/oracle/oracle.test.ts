// The schema library against the real code it stands in for: every row of test/oracle/cases.ts is judged by
// Karmada's Cluster strategy and validation (karmada-oracle) and Kubernetes' Pod probe validation (kube-oracle), built
// by scripts/build-oracle.mjs, and by validateCluster. Verdict, field paths and messages must agree, or the row is a
// documented difference (differences.ts) whose recorded messages both sides must still give.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { CASES } from './cases.js';
import { DIFFERENCES, REASONS, type Difference } from './differences.js';
import { agree, librarySide, oracleBinDir, oracleSide, runOracles, type OracleRun, type Side } from './judge.js';

const DOC = readFileSync(new URL('../../docs/validation.md', import.meta.url), 'utf8');

/** Recorded messages match actual ones exactly, or by their beginning when they end in `…`. */
function matchesRecorded(actual: string[], recorded: string[]): boolean {
  const want = [...recorded].sort();
  return (
    actual.length === want.length &&
    actual.every((m, i) => {
      const r = want[i] ?? '';
      return r.endsWith('…') ? m.startsWith(r.slice(0, -1)) : m === r;
    })
  );
}

function describeSides(oracle: Side, library: Side): string {
  return `\n  oracle (${oracle.verdict}):\n    ${oracle.messages.join('\n    ')}\n  library (${library.verdict}):\n    ${library.messages.join('\n    ')}`;
}

describe('the schema library agrees with Karmada and Kubernetes (their own validation code as the oracle)', function () {
  let run: OracleRun;

  before(function () {
    this.timeout(60 * 60_000); // a cold build compiles Kubernetes' packages; a warm one takes seconds
    run = runOracles(oracleBinDir(), CASES);
  });

  it('has at least 200 rows, with unique names', function () {
    expect(CASES.length).to.be.at.least(200);
    expect(new Set(CASES.map((c) => c.name)).size).to.equal(CASES.length);
  });

  it('names only real rows and known reasons among the differences', function () {
    const names = new Set(CASES.map((c) => c.name));
    for (const [name, d] of Object.entries(DIFFERENCES)) {
      expect(names.has(name), `differences.ts names no row ${name}`).to.equal(true);
      expect(REASONS).to.have.property(d.reason);
    }
  });

  it('documents every difference in docs/validation.md, by row name', function () {
    const missing = Object.keys(DIFFERENCES).filter((name) => !DOC.includes(`\`${name}\``));
    expect(missing, 'rows missing from the agreement section of docs/validation.md').to.deep.equal([]);
  });

  for (const c of CASES) {
    it(`${c.name} (${c.source})`, function () {
      const oracle = oracleSide(run, c.name);
      expect(oracle.verdict, `the oracles no longer give the verdict ${c.source} expects`).to.equal(c.expect);
      const library = librarySide(c.object);
      const known: Difference | undefined = DIFFERENCES[c.name];
      if (known === undefined) {
        expect(
          agree(oracle, library),
          `the library and the oracles disagree:${describeSides(oracle, library)}`,
        ).to.equal(true);
        return;
      }
      expect(agree(oracle, library), `the row now agrees: remove it from differences.ts`).to.equal(false);
      expect(
        matchesRecorded(oracle.messages, known.oracle),
        `the oracles changed their answer:${describeSides(oracle, library)}`,
      ).to.equal(true);
      expect(
        matchesRecorded(library.messages, known.library),
        `the library changed its answer:${describeSides(oracle, library)}`,
      ).to.equal(true);
    });
  }
});
