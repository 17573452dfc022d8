// `npx tsx test/oracle/prober/figures.ts`: the prober table's figures (rows, agree, documented differences,
// undocumented), then, for every row that differs from what differences.ts says (undocumented, or documented but
// changed), its entry in the shape differences.ts wants, to paste or edit. `--all` prints every differing row's
// entry; `--json` prints each row's two sides whole (the oracle's raw output and our ProbeResult too); `--write`
// rewrites the entries of differences.ts to what the table shows now, keeping each row's `why` (a new row gets an
// empty one, which the test refuses until it is written).
import { readFileSync, writeFileSync } from 'node:fs';
import { PROBER_DIFFERENCES, WHY } from './differences.js';
import { differenceOf, runTable } from './judge.js';

const args = new Set(process.argv.slice(2));
const ENTRIES_START = '// entries: written by figures.ts --write';
const ENTRIES_END = '// end of entries';
const started = Date.now();
const runs = await runTable();
const seconds = ((Date.now() - started) / 1000).toFixed(1);

if (args.has('--json')) {
  // Written whole before the process ends (process.exit would cut a piped stdout short).
  process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
} else {
  printFigures();
}

function printFigures(): void {
  let agree = 0;
  let documented = 0;
  const undocumented: string[] = [];
  const changed: string[] = [];
  const nowAgree: string[] = [];
  const entries: string[] = [];
  for (const run of runs) {
    const diff = differenceOf(run.kubelet, run.ours);
    const listed = PROBER_DIFFERENCES[run.name];
    const holds =
      listed !== undefined &&
      diff !== undefined &&
      JSON.stringify({ kubelet: listed.kubelet, ours: listed.ours }) === JSON.stringify(diff);
    if (diff === undefined && listed === undefined) agree++;
    else if (holds) documented++;
    else if (listed === undefined) undocumented.push(run.name);
    else if (diff === undefined) nowAgree.push(run.name);
    else changed.push(run.name);
    if (diff !== undefined && (!holds || args.has('--all'))) {
      const why = listed?.why ?? '';
      entries.push(
        `  ${JSON.stringify(run.name)}: ${JSON.stringify({ why, ...diff }, null, 2).replace(/\n/g, '\n  ')},`,
      );
    }
  }

  const byHandler = ['httpGet', 'tcpSocket', 'grpc'].map((h) => `${h} ${runs.filter((r) => r.handler === h).length}`);
  console.log(`prober table: ${runs.length} rows (${byHandler.join(', ')}) in ${seconds} s`);
  console.log(`  agree with the kubelet:   ${agree}`);
  console.log(`  documented differences:   ${documented}`);
  console.log(
    `  undocumented differences: ${undocumented.length}${undocumented.length > 0 ? `: ${undocumented.join('; ')}` : ''}`,
  );
  console.log(`  listed, differ otherwise: ${changed.length}${changed.length > 0 ? `: ${changed.join('; ')}` : ''}`);
  console.log(
    `  listed, now agree:        ${nowAgree.length}${nowAgree.length > 0 ? ` (remove them): ${nowAgree.join('; ')}` : ''}`,
  );
  if (args.has('--write')) {
    const file = new URL('./differences.ts', import.meta.url);
    const text = readFileSync(file, 'utf8');
    const start = text.indexOf(ENTRIES_START);
    const end = text.indexOf(ENTRIES_END);
    if (start < 0 || end < start) throw new Error(`differences.ts has no ${ENTRIES_START} ... ${ENTRIES_END} block`);
    const whyKeys = new Map<string, string>(Object.entries(WHY as Record<string, string>).map(([k, v]) => [v, k]));
    const body = runs
      .map((run) => ({ run, diff: differenceOf(run.kubelet, run.ours) }))
      .filter(({ diff }) => diff !== undefined)
      .map(({ run, diff }) => {
        const why = PROBER_DIFFERENCES[run.name]?.why ?? '';
        const key = whyKeys.get(why);
        const whyCode = key !== undefined ? `WHY.${key}` : JSON.stringify(why);
        const sides = JSON.stringify(diff, null, 2).slice(1, -1).trim();
        return `  ${JSON.stringify(run.name)}: {\n    why: ${whyCode},\n    ${sides.replace(/\n/g, '\n  ')},\n  },`;
      })
      .join('\n');
    writeFileSync(file, `${text.slice(0, start + ENTRIES_START.length)}\n${body}\n  ${text.slice(end)}`);
    console.log('\nwrote test/oracle/prober/differences.ts (run prettier --write on it)');
  } else if (entries.length > 0) {
    console.log('\n// entries for test/oracle/prober/differences.ts (PROBER_DIFFERENCES):');
    console.log(entries.join('\n'));
  }
}
