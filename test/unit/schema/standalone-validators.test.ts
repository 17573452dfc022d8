// The validators generated at build time (packages/schema/src/schema/generated/, ajv's standalone code) must judge exactly as ajv
// compiling schemas/ with the same configuration now (scripts/generate/validators.ts): the same verdict, the same
// errors in the same order, the same defaults inserted, on every fixture and on fixtures with values changed at random
// paths. And importing the schema library must not load ajv: that is what compiling at build time is for.
import { expect } from 'chai';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { buildAjv, VALIDATOR_EXPORTS } from '../../../scripts/generate/validators.js';
import {
  defaultingValidators,
  rawValidators,
  type CompiledValidator,
} from '../../../packages/schema/src/schema/ajv-validators.js';
import { livenessProbeSchema, schemasById, type SchemaNode } from '../../../packages/schema/src/schema/schemas.js';

const strictAjv = buildAjv(false);
const defaultingAjv = buildAjv(true);

function compiledNow(useDefaults: boolean, id: string): CompiledValidator {
  const fn = (useDefaults ? defaultingAjv : strictAjv).getSchema(id);
  if (fn === undefined) throw new Error(`${id} did not compile`);
  return fn as CompiledValidator;
}

type Name = keyof typeof VALIDATOR_EXPORTS.strict;
const pairs = (Object.keys(VALIDATOR_EXPORTS.strict) as Name[]).map((name) => ({
  name,
  generated: rawValidators[name],
  now: compiledNow(false, VALIDATOR_EXPORTS.strict[name]),
}));
const defaulting = {
  generated: defaultingValidators.livenessProbe,
  now: compiledNow(true, VALIDATOR_EXPORTS.defaulting.livenessProbe),
};

/** Runs both on their own copy; returns what differs, or undefined. */
function difference(generated: CompiledValidator, now: CompiledValidator, data: unknown): string | undefined {
  const a = structuredClone(data);
  const b = structuredClone(data);
  const verdicts = [generated(a), now(b)];
  const errors = [JSON.stringify(generated.errors ?? null), JSON.stringify(now.errors ?? null)];
  const after = [JSON.stringify(a), JSON.stringify(b)];
  if (verdicts[0] !== verdicts[1]) return `verdict ${verdicts[0]} vs ${verdicts[1]}`;
  if (errors[0] !== errors[1]) return `errors ${errors[0]} vs ${errors[1]}`;
  if (after[0] !== after[1]) return `data after ${after[0]} vs ${after[1]}`;
  return undefined;
}

function expectSame(data: unknown): void {
  for (const { name, generated, now } of pairs)
    expect(difference(generated, now, data), `${name} on ${JSON.stringify(data)?.slice(0, 300)}`).to.equal(undefined);
  const probe = (data as { spec?: { livenessProbe?: unknown } } | null)?.spec?.livenessProbe ?? data;
  expect(difference(defaulting.generated, defaulting.now, probe), 'defaulting livenessProbe').to.equal(undefined);
}

function fixtures(dir: string): unknown[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return fixtures(path);
    if (!/\.(ya?ml|json)$/.test(entry.name)) return [];
    return parseAllDocuments(readFileSync(path, 'utf8'))
      .map((doc) => doc.toJS() as unknown)
      .filter((v) => v !== null && typeof v === 'object');
  });
}

/** Every property path of a schema ($ref followed), with array items at index 0 and 1. */
function schemaPaths(node: SchemaNode, prefix: (string | number)[] = [], depth = 0): (string | number)[][] {
  const target = node.$ref !== undefined ? (schemasById[node.$ref] ?? {}) : node;
  if (depth > 8) return [];
  const out = [prefix];
  for (const [k, v] of Object.entries(target.properties ?? {})) out.push(...schemaPaths(v, [...prefix, k], depth + 1));
  if (target.items !== undefined)
    for (const i of [0, 1]) out.push(...schemaPaths(target.items, [...prefix, i], depth + 1));
  if (typeof target.additionalProperties === 'object')
    out.push(...schemaPaths(target.additionalProperties, [...prefix, 'X-Header'], depth + 1));
  return out;
}

function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const top = (root !== null && typeof root === 'object' ? root : {}) as Record<string | number, unknown>;
  let cur = top;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i] ?? '';
    if (cur[key] === null || typeof cur[key] !== 'object') cur[key] = typeof path[i + 1] === 'number' ? [] : {};
    cur = cur[key] as Record<string | number, unknown>;
  }
  cur[path[path.length - 1] ?? ''] = value;
  return top;
}

const EMOJI = '\u{1F600}';
const LIMITS = [0, 1, 15, 62, 63, 64, 253, 254, 317, 318, 2048, 2049, 4096, 4097];
const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.string(),
  fc.constantFrom(
    ...LIMITS.flatMap((n) => ['a'.repeat(n), EMOJI.repeat(n), EMOJI.repeat(Math.ceil(n / 2)), '\ud800'.repeat(n)]),
  ),
  fc.constantFrom('2024-01-01T00:00:00Z', '2024-13-01T00:00:00Z', '2024-01-01T00:00:00', 'HTTPS', 'Push', 'True'),
  fc.integer(),
  fc.constantFrom(0, -1, 65536, 2147483647, 2147483648, -2147483649, 2 ** 53, 2 ** 53 - 1, 1.5, -0),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.anything({ maxDepth: 2 }),
  fc.array(fc.record({ key: fc.constantFrom('a', 'b'), effect: fc.constantFrom('NoSchedule', 'x') }), {
    maxLength: 3,
  }),
  fc.array(fc.record({ type: fc.constantFrom('Ready', 'Healthy'), status: fc.constantFrom('True', 'No') }), {
    maxLength: 3,
  }),
);

describe('validators compiled at build time', () => {
  const docs = fixtures('test/fixtures');

  it('judge every fixture as ajv compiling schemas/ now does', () => {
    expect(docs.length).to.be.greaterThan(20);
    for (const doc of docs) expectSame(doc);
  });

  it('judge Clusters with values changed at random paths as ajv compiling schemas/ now does', () => {
    const paths = schemaPaths(schemasById['cluster.schema.json'] ?? {});
    fc.assert(
      fc.property(
        fc.constantFrom(...docs),
        fc.array(fc.tuple(fc.constantFrom(...paths), value), { minLength: 1, maxLength: 4 }),
        (doc, changes) => {
          let data = structuredClone(doc);
          for (const [path, v] of changes) data = setAt(data, path, v);
          expectSame(data);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('judge and default probes with values changed at random paths as ajv compiling schemas/ now does', () => {
    const paths = schemaPaths(livenessProbeSchema);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...paths), value), { minLength: 1, maxLength: 5 }), (changes) => {
        let data: unknown = { httpGet: { port: 80 } };
        for (const [path, v] of changes) data = setAt(data, path, v);
        expectSame(data);
      }),
      { numRuns: 1500 },
    );
  });

  it('keep our keywords: code points, int-or-string, list-map keys, int32, int64, date-time', () => {
    const cluster = { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', spec: { syncMode: 'Push' } };
    const keywordsOf = (data: unknown): string[] => {
      expectSame(data);
      rawValidators.cluster(data);
      return (rawValidators.cluster.errors ?? []).map((e) => e.keyword);
    };
    expect(keywordsOf(cluster)).to.deep.equal([]);
    expect(keywordsOf({ ...cluster, kind: EMOJI.repeat(63) }), '63 code points in 126 units').to.deep.equal([]);
    expect(keywordsOf({ ...cluster, kind: EMOJI.repeat(64) })).to.deep.equal(['maxLength']);
    const probe = (p: object) => ({ ...cluster, spec: { ...cluster.spec, livenessProbe: p } });
    expect(keywordsOf(probe({ tcpSocket: { port: 'http' } }))).to.deep.equal([]);
    expect(keywordsOf(probe({ tcpSocket: { port: 80.5 } }))).to.deep.equal(['x-kubernetes-int-or-string']);
    expect(keywordsOf(probe({ tcpSocket: { port: 80 }, timeoutSeconds: 2 ** 31 }))).to.deep.equal(['format']);
    const taint = { key: 'a', effect: 'NoSchedule', timeAdded: '2024-01-01T00:00:00Z' };
    expect(
      keywordsOf({ ...cluster, spec: { ...cluster.spec, taints: [taint, { ...taint, key: 'b' }] } }),
    ).to.deep.equal([]);
    expect(
      keywordsOf({ ...cluster, spec: { ...cluster.spec, taints: [{ ...taint, timeAdded: 'today' }] } }),
    ).to.deep.equal(['format']);
    const conditions = [
      { type: 'Ready', status: 'True', reason: 'r', message: 'm', lastTransitionTime: '2024-01-01T00:00:00Z' },
    ];
    expect(keywordsOf({ ...cluster, status: { conditions: [...conditions, ...conditions] } })).to.deep.equal([
      'x-kubernetes-list-map-keys',
    ]);
  });

  it('leave ajv unloaded when the schema library is imported', () => {
    const script = `import { createRequire } from 'node:module';
      const lib = await import('./packages/schema/src/schema/index.ts');
      if (!lib.validateCluster({}).errors.length) throw new Error('validateCluster accepted {}');
      console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).to.equal(0);
    const loaded = JSON.parse(run.stdout) as string[];
    expect(loaded.filter((p) => p.includes('/node_modules/ajv-formats/')).length, 'ajv-formats formats').to.equal(1);
    expect(loaded.filter((p) => p.includes('/node_modules/ajv/'))).to.deep.equal([]);
  });
});
