// bench/schema: validations per second of a realistic Cluster through the public validateCluster, against the raw
// compiled ajv function for the same schema, measured in one run (interleaved rounds), printed as a ratio.
// Usage: npx tsx bench/schema/index.ts [--seconds N] [--rounds N] [--clock wall|cpu] [--compare DIR] [--breakdown]
//          [--fresh]
//   --seconds N    measuring time per fixture (default 5)
//   --rounds N     interleaved rounds (default 5); medians are printed
//   --clock C      wall (default: elapsed time, as before) or cpu (this process's CPU time: on a machine shared with
//                  other work, time spent waiting for a core is left out; GC and compiler threads are counted)
//   --compare DIR  also measure the validateCluster of another tree (a scratch copy or a `git worktree`: DIR/packages/schema/src/schema, or DIR/src/schema before the packages),
//                  interleaved in the same rounds, against the same raw ajv function
//   --breakdown    time each stage of validateCluster on its own (bench/schema/breakdown.ts), per fixture, as a table
//                  of ns per call and share of validateCluster; with --compare, for that tree as well, the stages of
//                  both trees interleaved in the same rounds
//   --fresh        also measure on fresh copies (JSON.parse of the fixture every call, as the webhook sees a review):
//                  new string objects every call (JSON.parse internalizes short values, longer ones are new strings
//                  that a memo lookup must hash and compare character by character); JSON.parse alone is subtracted
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { rawValidators, validateCluster } from '../../packages/schema/src/schema/index.js';
import { loadSchemaModules, nsPerCall, printRows, rowsOf, stagesFor, timeStages, type Clock } from './breakdown.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '5' },
    clock: { type: 'string', default: 'wall' },
    compare: { type: 'string' },
    breakdown: { type: 'boolean', default: false },
    fresh: { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds) || 5;
if (values.clock !== 'wall' && values.clock !== 'cpu') throw new Error('--clock is wall or cpu');
const clock: Clock = values.clock;

function fixture(name: string): Record<string, unknown> {
  return parse(readFileSync(new URL(`../../test/fixtures/clusters/${name}`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;
}
const fixtures: [string, Record<string, unknown>][] = [
  ['member-dev.yaml', fixture('member-dev.yaml')],
  ['member-http.yaml', fixture('member-http.yaml')],
];

type Validate = (obj: unknown) => { valid: boolean };
let other: Validate | undefined;
if (values.compare !== undefined) {
  // A tree from before the workspace packages keeps the library in src/schema.
  const root = `file://${path.resolve(values.compare)}/`;
  const split = new URL('packages/schema/src/schema/index.ts', root);
  const url = existsSync(split) ? split : new URL('packages/schema/src/schema/index.ts', root);
  other = ((await import(url.href)) as { validateCluster: Validate }).validateCluster;
}

/** Validations per second of `fn`, over `ms` of the chosen clock. */
function rate(fn: () => void, ms: number): number {
  return 1e9 / nsPerCall(fn, ms, clock, 200);
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

for (const [name, obj] of fixtures) {
  if (!validateCluster(obj).valid || (other !== undefined && !other(obj).valid))
    throw new Error(`bench fixture ${name} must be valid`);
}

// The ratio: raw ajv and validateCluster (and the compared tree's) in interleaved rounds, per fixture.
for (const [name, obj] of fixtures) {
  const contenders: [string, () => void][] = [
    ['raw ajv (compiled schema only):     ', () => rawValidators.cluster(obj)],
    ['validateCluster (schema + rules):   ', () => validateCluster(obj)],
  ];
  if (other !== undefined) {
    const fn = other;
    contenders.push([`validateCluster of ${values.compare}:`, () => fn(obj)]);
  }
  if (values.fresh) {
    const text = JSON.stringify(obj);
    contenders.push(
      ['fresh copy: JSON.parse alone:       ', () => JSON.parse(text)],
      ['fresh copy: JSON.parse + raw ajv:   ', () => rawValidators.cluster(JSON.parse(text))],
      ['fresh copy: JSON.parse + validateCluster:', () => validateCluster(JSON.parse(text))],
    );
    if (other !== undefined) {
      const fn = other;
      contenders.push([`fresh copy: JSON.parse + ${values.compare}:`, () => fn(JSON.parse(text))]);
    }
  }
  // Warm up every path so the JIT has settled before measuring.
  for (const [, fn] of contenders) rate(fn, 500);
  const rounds = Number(values.rounds) || 5;
  const slice = (seconds * 1000) / (rounds * contenders.length);
  const samples = contenders.map((): number[] => []);
  for (let r = 0; r < rounds; r++) contenders.forEach(([, fn], i) => samples[i]?.push(rate(fn, slice)));
  const rates = samples.map(median);
  const [a = NaN, w = NaN] = rates;
  console.log(
    `bench/schema (${seconds}s ${clock} time, ${rounds} interleaved rounds, medians; fixture test/fixtures/clusters/${name})`,
  );
  contenders.forEach(([label], i) => console.log(`  ${label} ${fmt(rates[i] ?? NaN)} validations/s`));
  console.log(`  cost per validation, wrapper / raw:  ${(a / w).toFixed(2)}x (goal below 1.3x)`);
  if (other !== undefined) console.log(`  compared tree / raw:                 ${(a / (rates[2] ?? NaN)).toFixed(2)}x`);
  if (values.fresh) {
    const k = other === undefined ? 2 : 3;
    const ns = (i: number): number => 1e9 / (rates[i] ?? NaN);
    const parseNs = ns(k);
    const rawNs = ns(k + 1) - parseNs;
    const wrapNs = ns(k + 2) - parseNs;
    let line = `  fresh copies, JSON.parse subtracted: raw ${rawNs.toFixed(0)} ns, validateCluster ${wrapNs.toFixed(0)} ns, ${(wrapNs / rawNs).toFixed(2)}x`;
    if (other !== undefined)
      line += `; compared tree ${(ns(k + 3) - parseNs).toFixed(0)} ns, ${((ns(k + 3) - parseNs) / rawNs).toFixed(2)}x`;
    console.log(line);
  }
}

if (values.breakdown) {
  // With --compare, both trees' stages run in the same interleaved rounds (a row of each tree in turn), so that load
  // from elsewhere on the machine falls on both alike; each tree's table is then read from its own rows.
  const trees: [string, Awaited<ReturnType<typeof loadSchemaModules>>][] = [['this tree', await loadSchemaModules()]];
  if (values.compare !== undefined) trees.push([values.compare, await loadSchemaModules(values.compare)]);
  for (const [name, obj] of fixtures) {
    const perTree = trees.map(([label, modules]) => ({ label, stages: stagesFor(modules, obj) }));
    const tagged = perTree.flatMap(({ stages }, t) => stages.map((s) => ({ ...s, name: `${t}: ${s.name}` })));
    const rounds = Math.max(7, Number(values.rounds) || 7);
    const ns = timeStages(tagged, rounds, Math.max(20, (seconds * 1000) / (rounds * (tagged.length + 1))), 'cpu');
    perTree.forEach(({ label, stages }, t) => {
      const own = new Map(stages.map((s) => [s.name, ns.get(`${t}: ${s.name}`) ?? NaN]));
      printRows(
        `breakdown of validateCluster (${label}), fixture ${name}, CPU time, medians of ${rounds} interleaved rounds` +
          (trees.length > 1 ? ', both trees interleaved' : ''),
        rowsOf(stages, own),
        ns.get('(empty call)') ?? 0,
      );
    });
  }
}
