// resourceModelsPlainlyValid settles the usual spellings of resource-model quantities by string identity ("0", a min
// written as the previous max, MaxInt64 in digits) and parses the rest; resourceModelProblems parses and compares
// every quantity. On random models, with quantities in many spellings and random faults, the two must agree: the fast
// path says yes exactly when the full comparison finds nothing (for well-formed models with increasing grades, the only
// ones the fast path is meant to accept).
import { expect } from 'chai';
import fc from 'fast-check';
import {
  resourceModelProblems,
  resourceModelsPlainlyValid,
} from '../../../packages/schema/src/schema/resource-models.js';
import { FieldPath } from '../../../packages/schema/src/schema/field-error.js';
import { isRecord } from '../../../packages/schema/src/api/index.js';

const PATH = FieldPath.root('spec').child('resourceModels');
const MAX_INT64 = 9223372036854775807n;

/** Spellings of an amount of whole units, all equal to it as Kubernetes quantities. */
function spellings(v: bigint): unknown[] {
  const out: unknown[] = [String(v), `${v}000m`, `${v}e0`, `+${v}`];
  if (v <= BigInt(Number.MAX_SAFE_INTEGER)) out.push(Number(v));
  if (v === 0n) out.push('0', 0, '0Gi', '0.0', '.0', '0k');
  for (const [suffix, unit] of [
    ['Ki', 1n << 10n],
    ['Mi', 1n << 20n],
    ['Gi', 1n << 30n],
    ['Ei', 1n << 60n],
  ] as const)
    if (v > 0n && v % unit === 0n) out.push(`${v / unit}${suffix}`);
  for (const [suffix, unit] of [
    ['k', 1000n],
    ['M', 1000000n],
  ] as const)
    if (v > 0n && v % unit === 0n) out.push(`${v / unit}${suffix}`, `${v / unit}e${String(unit).length - 1}`);
  return out;
}

/** Values that break a range: other amounts, near misses of MaxInt64, non-quantities and wrong types. */
const fault = fc.constantFrom<unknown>(
  '0',
  0,
  '1',
  '1Gi',
  '1073741824',
  '8Ei',
  '9223372036854775806',
  '9223372036854775808',
  2 ** 63, // MaxInt64 as a JSON number: a float, 2^63
  '-1',
  '500m',
  '0.5',
  1.5,
  'lots',
  '',
  null,
  undefined,
);

const amount = fc.oneof(
  fc.constantFrom(1n, 1000n, 1024n, 1n << 30n, 4n << 30n, 1000000n, 1n << 60n, MAX_INT64 - 1n),
  fc.bigInt({ min: 1n, max: 1n << 40n }),
);

/** Well-formed models (every rule met), before any fault: boundaries per resource, each spelled at random. */
const models = fc
  .record({
    resources: fc.uniqueArray(fc.constantFrom('cpu', 'memory', 'nvidia.com/gpu', 'pods'), {
      minLength: 1,
      maxLength: 3,
    }),
    grades: fc.uniqueArray(fc.integer({ min: -3, max: 20 }), { minLength: 1, maxLength: 4 }),
    cuts: fc.array(fc.uniqueArray(amount, { maxLength: 4 }), { minLength: 3, maxLength: 3 }),
    seed: fc.array(fc.nat(), { minLength: 64, maxLength: 64 }),
  })
  .map(({ resources, grades, cuts, seed }) => {
    let s = 0;
    const pick = <T>(xs: readonly T[]): T => xs[(seed[s++ % seed.length] ?? 0) % xs.length] as T;
    const sorted = [...grades].sort((a, b) => a - b);
    const bounds = resources.map((_, j) => {
      const inner = [...(cuts[j] ?? [])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const b = [0n, ...inner.slice(0, sorted.length - 1)];
      while (b.length < sorted.length) b.push((b[b.length - 1] ?? 0n) + 1n);
      return [...b, MAX_INT64];
    });
    return sorted.map((grade, i) => ({
      grade,
      ranges: resources.map((name, j) => {
        const b = bounds[j] as bigint[];
        return { name, min: pick(spellings(b[i] as bigint)), max: pick(spellings(b[i + 1] as bigint)) };
      }),
    }));
  })
  .map((ms) => {
    // Mostly, a min is written as the previous max (the identity the fast path looks for).
    for (let i = 1; i < ms.length; i++)
      for (const [j, r] of (ms[i]?.ranges ?? []).entries())
        if ((i + j) % 3 !== 0) r.min = (ms[i - 1]?.ranges[j] as { max: unknown }).max;
    return ms;
  });

type Fault = { kind: 'min' | 'max' | 'name' | 'grade' | 'drop' | 'swap'; i: number; j: number; value: unknown };
const faults = fc.array(
  fc.record({
    kind: fc.constantFrom<Fault['kind']>('min', 'max', 'name', 'grade', 'drop', 'swap'),
    i: fc.nat(5),
    j: fc.nat(3),
    value: fault,
  }),
  { maxLength: 2 },
);

function withFaults(ms: { grade: number; ranges: Record<string, unknown>[] }[], fs: Fault[]): unknown[] {
  const out = ms.map((m) => ({ ...m, ranges: m.ranges.map((r) => ({ ...r })) }));
  for (const f of fs) {
    const m = out[f.i % out.length];
    if (m === undefined) continue;
    const r = m.ranges[f.j % m.ranges.length];
    if (f.kind === 'min' && r !== undefined) r.min = f.value;
    else if (f.kind === 'max' && r !== undefined) r.max = f.value;
    else if (f.kind === 'name' && r !== undefined) r.name = `${String(r.name)}x`;
    else if (f.kind === 'grade') m.grade = (out[(f.i + 1) % out.length]?.grade ?? 0) - (f.j % 2);
    else if (f.kind === 'drop') m.ranges.splice(f.j % m.ranges.length, 1);
    else if (f.kind === 'swap' && out.length > 1) {
      const k = (f.i + 1) % out.length;
      [out[f.i % out.length], out[k]] = [out[k] as (typeof out)[number], m];
    }
  }
  return out;
}

/**
 * What the fast path may assume: records, numeric grades strictly increasing, arrays of records with a name, a min
 * and a max (a missing one is the schema's Required error, which the full comparison leaves to the schema).
 */
function wellFormed(ms: unknown[]): boolean {
  let prev = -Infinity;
  for (const m of ms) {
    if (!isRecord(m) || typeof m.grade !== 'number' || m.grade <= prev || !Array.isArray(m.ranges)) return false;
    if (!m.ranges.every((r) => isRecord(r) && typeof r.name === 'string' && r.min !== undefined && r.max !== undefined))
      return false;
    prev = m.grade;
  }
  return true;
}

describe('resource models: the fast path (identity of spellings) agrees with the full comparison', () => {
  it('says yes exactly when the full comparison finds no problem, on random models and faults', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(models, faults, (ms, fs) => {
        const input = withFaults(ms, fs);
        const fast = resourceModelsPlainlyValid(input);
        const problems = resourceModelProblems(input, PATH).map((e) => e.message);
        if (fast) {
          accepted++;
          expect(problems, 'the fast path accepted models the full comparison objects to').to.deep.equal([]);
          expect(wellFormed(input)).to.equal(true);
        } else {
          refused++;
          if (wellFormed(input)) expect(problems, 'the fast path refused valid models').not.to.deep.equal([]);
        }
      }),
      { numRuns: 3000 },
    );
    // Neither side of the property is vacuous.
    expect(accepted, 'models the fast path accepted').to.be.greaterThan(300);
    expect(refused, 'models the fast path refused').to.be.greaterThan(300);
  });

  it('carries no state from one call to the next (parsed maxes are reused across calls)', () => {
    const spelled = (max: unknown) => [
      { grade: 0, ranges: [{ name: 'cpu', min: '0', max }] },
      { grade: 1, ranges: [{ name: 'cpu', min: max, max: '9223372036854775807' }] },
    ];
    expect(resourceModelsPlainlyValid(spelled('4'))).to.equal(true);
    expect(resourceModelsPlainlyValid(spelled('lots'))).to.equal(false);
    expect(resourceModelsPlainlyValid(spelled('9223372036854775807'))).to.equal(false);
    expect(resourceModelsPlainlyValid(spelled('4Gi'))).to.equal(true);
  });
});
