// bench/schema/profile.ts: a CPU profile of validateCluster on a bench fixture, summarised by function.
// Usage:
//   node --import tsx --cpu-prof --cpu-prof-interval 25 --cpu-prof-dir /tmp/schema-prof bench/schema/profile.ts \
//     [--fixture member-dev.yaml] [--seconds N] [--fresh]
//   npx tsx bench/schema/profile.ts --summarise /tmp/schema-prof/<file>.cpuprofile [--top N]
// The first form runs validateCluster in a loop (with --fresh on a JSON.parse'd copy every call, as the webhook sees
// a review); the second prints self time by function (file:line) and inclusive time of the schema library's
// functions, as shares of the samples taken inside validateCluster.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';

const { values } = parseArgs({
  options: {
    fixture: { type: 'string', default: 'member-dev.yaml' },
    seconds: { type: 'string', default: '5' },
    fresh: { type: 'boolean', default: false },
    summarise: { type: 'string' },
    top: { type: 'string', default: '30' },
  },
});

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

function summarise(file: string, top: number): void {
  const prof = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode): string => {
    const f = n.callFrame;
    const short = f.url.replace(/^.*\/(src|bench|node_modules)\//, '$1/');
    return `${f.functionName || '(anonymous)'} ${short}:${f.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let inside = 0;
  for (const id of prof.samples) {
    // Only samples with validateCluster on the stack: the loop, the timer and GC outside it are not its cost.
    const stack: ProfileNode[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (n !== undefined) stack.push(n);
    }
    if (!stack.some((n) => n.callFrame.functionName === 'validateCluster')) continue;
    inside++;
    const leaf = stack[0];
    if (leaf !== undefined) self.set(label(leaf), (self.get(label(leaf)) ?? 0) + 1);
    for (const l of new Set(stack.map(label))) inclusive.set(l, (inclusive.get(l) ?? 0) + 1);
  }
  const print = (title: string, m: Map<string, number>): void => {
    console.log(`\n${title} (${inside} samples inside validateCluster)`);
    console.log('| Function | share |');
    console.log('| --- | ---: |');
    for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`| ${k} | ${((100 * v) / inside).toFixed(1)}% |`);
  };
  print('Self time', self);
  print('Inclusive time', inclusive);
}

if (values.summarise !== undefined) {
  summarise(values.summarise, Number(values.top) || 30);
} else {
  const { validateCluster } = await import('../../packages/schema/src/schema/index.js');
  const obj = parse(
    readFileSync(new URL(`../../test/fixtures/clusters/${values.fixture}`, import.meta.url), 'utf8'),
  ) as unknown;
  const text = JSON.stringify(obj);
  const end = Date.now() + (Number(values.seconds) || 5) * 1000;
  let n = 0;
  let invalid = 0;
  while (Date.now() < end) {
    for (let i = 0; i < 1000; i++) {
      const r = validateCluster(values.fresh ? JSON.parse(text) : obj);
      if (!r.valid) invalid++;
    }
    n += 1000;
  }
  console.log(
    `${n.toLocaleString('en-US')} validations of ${values.fixture}${values.fresh ? ' (fresh copies)' : ''}, ${invalid} invalid`,
  );
}
