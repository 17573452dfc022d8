// bench/schema: validations per second of a realistic Cluster through the public validateCluster, against the raw
// compiled ajv function for the same schema, measured in one run (interleaved rounds), printed as a ratio.
// Usage: npx tsx bench/schema/index.ts [--seconds N]
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { rawValidators, validateCluster } from '../../src/schema/index.js';

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1] ?? '') || 5;
const cluster = parse(
  readFileSync(new URL('../../test/fixtures/clusters/member-dev.yaml', import.meta.url), 'utf8'),
) as unknown;
const httpCluster = parse(
  readFileSync(new URL('../../test/fixtures/clusters/member-http.yaml', import.meta.url), 'utf8'),
) as unknown;

function rate(fn: () => void, ms: number): number {
  let n = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(ms) * 1_000_000n;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 200; i++) fn();
    n += 200;
    now = process.hrtime.bigint();
  }
  return n / (Number(now - start) / 1e9);
}

if (!validateCluster(cluster).valid || !validateCluster(httpCluster).valid)
  throw new Error('bench fixtures must be valid');
// Warm up both paths so the JIT has settled before measuring.
rate(() => validateCluster(cluster), 500);
rate(() => rawValidators.cluster(cluster), 500);

const rounds = 5;
const slice = (seconds * 1000) / (rounds * 2);
const wrapper: number[] = [];
const raw: number[] = [];
for (let r = 0; r < rounds; r++) {
  raw.push(rate(() => rawValidators.cluster(cluster), slice));
  wrapper.push(rate(() => validateCluster(cluster), slice));
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const w = median(wrapper);
const a = median(raw);
console.log(
  `bench/schema (${seconds}s, ${rounds} interleaved rounds, medians; fixture test/fixtures/clusters/member-dev.yaml)`,
);
console.log(`  raw ajv (compiled schema only):      ${Math.round(a).toLocaleString('en-US')} validations/s`);
console.log(`  validateCluster (schema + rules):    ${Math.round(w).toLocaleString('en-US')} validations/s`);
console.log(`  cost per validation, wrapper / raw:  ${(a / w).toFixed(2)}x (goal below 1.3x)`);
