// The webhook's handler cost per review, in process, without sockets: handleReview (parse, decode, mutate or
// validate, answer) against the floor's work on the same body (JSON.parse and a constant answer), as CPU time, so
// load from elsewhere on a shared machine moves it far less than it moves the HTTPS throughput of bench/webhook.
// --compare DIR measures another checkout's src/webhook in the same run, interleaved (a `git worktree`).
// Run: npx tsx bench/webhook/handler.ts [--reviews N] [--rounds N] [--compare DIR]
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { BODIES } from './reviews.js';

const { values } = parseArgs({
  options: {
    reviews: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '7' },
    compare: { type: 'string' },
  },
});
const REVIEWS = Math.min(Math.max(Number(values.reviews) || 20_000, 1000), 1_000_000);
const ROUNDS = Math.min(Math.max(Number(values.rounds) || 7, 3), 51);
const repo = path.resolve(import.meta.dirname, '../..');

type Handle = (
  webhook: 'mutate' | 'validate',
  contentType: string,
  body: Buffer,
  options: { probeLocation: 'field'; denyHosts: string[] },
) => unknown;

async function handlerOf(root: string): Promise<{ handle: Handle; deny: string[] }> {
  const mod = (await import(pathToFileURL(path.join(root, 'src/webhook/index.ts')).href)) as {
    handleReview: Handle;
    DEFAULT_DENY_CIDRS: readonly string[];
  };
  return { handle: mod.handleReview, deny: [...mod.DEFAULT_DENY_CIDRS] };
}

const ALLOWED = JSON.stringify({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  response: { allowed: true },
});

/** CPU microseconds per call of `f`, over REVIEWS calls. */
function cpuPer(f: () => unknown): number {
  const start = process.cpuUsage();
  for (let i = 0; i < REVIEWS; i++) f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / REVIEWS;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main(): Promise<void> {
  const trees: [string, string][] = [['this tree', repo]];
  if (values.compare !== undefined) trees.push([values.compare, path.resolve(values.compare)]);
  const handlers = await Promise.all(trees.map(async ([name, root]) => ({ name, ...(await handlerOf(root)) })));
  const cases = BODIES.map(([name, webhook, text]) => ({ name, webhook, body: Buffer.from(text) }));
  const samples = new Map<string, number[]>();
  const add = (key: string, v: number) => samples.set(key, [...(samples.get(key) ?? []), v]);
  // Warm-up: every handler on every body, not counted.
  for (const c of cases) {
    cpuPer(() => JSON.parse(c.body.toString('utf8')));
    for (const h of handlers)
      cpuPer(() => h.handle(c.webhook, 'application/json', c.body, { probeLocation: 'field', denyHosts: h.deny }));
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (const c of cases) {
      add(
        `floor ${c.name}`,
        cpuPer(() => (JSON.parse(c.body.toString('utf8')), ALLOWED.length)),
      );
      const order = r % 2 === 0 ? handlers : [...handlers].reverse();
      for (const h of order) {
        add(
          `${h.name} ${c.name}`,
          cpuPer(() => h.handle(c.webhook, 'application/json', c.body, { probeLocation: 'field', denyHosts: h.deny })),
        );
      }
    }
    process.stderr.write(`round ${r + 1}/${ROUNDS}\n`);
  }
  console.log(
    `bench/webhook/handler: CPU us per review, medians of ${ROUNDS} rounds of ${REVIEWS}; node ${process.version}`,
  );
  console.log(`  ${'review'.padEnd(20)} ${'floor'.padStart(7)} ${handlers.map((h) => h.name.padStart(14)).join(' ')}`);
  for (const c of cases) {
    const floor = median(samples.get(`floor ${c.name}`) ?? []);
    const cells = handlers.map((h) =>
      median(samples.get(`${h.name} ${c.name}`) ?? [])
        .toFixed(2)
        .padStart(14),
    );
    console.log(`  ${c.name.padEnd(20)} ${floor.toFixed(2).padStart(7)} ${cells.join(' ')}`);
  }
}

await main();
