// The generated JSON Schemas (schemas/json/) say what the schema library says: every whole Cluster of the project's
// tables is judged by validateCluster, by real kubeconform (built from its pinned Go module by
// scripts/build-kubeconform.mjs, -strict, each published layout) and by ajv in strict mode compiling the generated
// file. All three give the same verdict on every row but the rules JSON Schema cannot express, listed once in
// json-schema-differences.ts; a listed row that stops differing fails too.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  JSON_SCHEMA_DRAFT,
  JSON_SCHEMA_FILES,
  KUBECONFORM_SCHEMA_LOCATIONS,
} from '../../scripts/generate/json-schemas.js';
import { generatedFiles } from '../../scripts/generate/all.js';
import { INEXPRESSIBLE, JSON_SCHEMA_DIFFERENCES } from './json-schema-differences.js';
import {
  ajvVerdicts,
  jsonSchemaRows,
  kubeconformBinary,
  kubeconformVerdicts,
  libraryVerdicts,
  readJson,
  repoRoot,
  type ToolVerdict,
  type Verdict,
} from './json-schema-judge.js';

const DOC = readFileSync(join(repoRoot, 'docs', 'validation.md'), 'utf8');
const rows = jsonSchemaRows();
const LAYOUTS = Object.keys(KUBECONFORM_SCHEMA_LOCATIONS) as (keyof typeof KUBECONFORM_SCHEMA_LOCATIONS)[];

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]);
}

describe('the generated JSON Schemas (schemas/json/)', function () {
  const files = Object.values(JSON_SCHEMA_FILES);

  it('are generated files, so `npm run generate -- --check` fails when one is stale', function () {
    expect(Object.keys(generatedFiles())).to.include.members(files);
  });

  for (const file of files) {
    it(`${file} is what editors and kubeconform need: draft-07 $schema, no $ref, no x-kubernetes-*`, function () {
      const schema = readJson(file) as Record<string, unknown>;
      expect(schema.$schema).to.equal(JSON_SCHEMA_DRAFT);
      const keys = keysOf(schema);
      expect(keys).to.not.include('$ref');
      expect(keys.filter((k) => k.startsWith('x-'))).to.deep.equal([]);
    });

    it(`${file} compiles with ajv in strict mode`, function () {
      expect(() => ajvVerdicts([], readJson(file), { strict: true })).to.not.throw();
    });
  }

  it('judges the liveness-probe annotation by the very rules of spec.livenessProbe (so its rows hold for both)', function () {
    const strip = (node: unknown): unknown => {
      const { $schema: _s, title: _t, description: _d, ...rest } = node as Record<string, unknown>;
      return rest;
    };
    const cluster = readJson(JSON_SCHEMA_FILES.catalog) as {
      properties: { spec: { properties: { livenessProbe: unknown } } };
    };
    expect(strip(readJson(JSON_SCHEMA_FILES.probeAnnotation))).to.deep.equal(
      strip(cluster.properties.spec.properties.livenessProbe),
    );
  });

  it('publishes one Cluster schema under every layout', function () {
    const texts = [JSON_SCHEMA_FILES.catalog, JSON_SCHEMA_FILES.kindGroupVersion, JSON_SCHEMA_FILES.kindSuffix].map(
      (f) => readFileSync(join(repoRoot, f), 'utf8'),
    );
    expect(new Set(texts).size).to.equal(1);
  });
});

describe('kubeconform, ajv and validateCluster agree on the case table (schemas/json/)', function () {
  const library = libraryVerdicts(rows);
  let kubeconform: Record<string, Map<string, ToolVerdict>>;
  let ajv: Map<string, ToolVerdict>;

  before(function () {
    this.timeout(30 * 60_000); // a cold build of kubeconform takes about half a minute; a warm one nothing
    const binary = kubeconformBinary();
    kubeconform = Object.fromEntries(
      LAYOUTS.map((layout) => [
        layout,
        kubeconformVerdicts(binary, rows, ['-strict', '-schema-location', KUBECONFORM_SCHEMA_LOCATIONS[layout]]),
      ]),
    );
    ajv = ajvVerdicts(rows, readJson(JSON_SCHEMA_FILES.catalog), { strict: true });
  });

  it('has unique row names, and lists only real rows', function () {
    const names = new Set(rows.map((r) => r.name));
    expect(names.size).to.equal(rows.length);
    expect(Object.keys(JSON_SCHEMA_DIFFERENCES).filter((n) => !names.has(n))).to.deep.equal([]);
  });

  it('has rows on both sides of every generated rule family (accepted and refused)', function () {
    const verdicts = [...library.values()];
    expect(verdicts.filter((v) => v === 'accept').length).to.be.at.least(100);
    expect(verdicts.filter((v) => v === 'reject').length).to.be.at.least(100);
  });

  it('renders every inexpressible rule and listed row in docs/validation.md', function () {
    const start = DOC.indexOf('## JSON Schemas for kubeconform and editors');
    expect(start, 'the section of docs/validation.md').to.be.at.least(0);
    const end = DOC.indexOf('\n## ', start + 1);
    const section = DOC.slice(start, end < 0 ? undefined : end);
    for (const r of Object.values(INEXPRESSIBLE)) expect(section).to.include(r.rule);
    const missing = Object.keys(JSON_SCHEMA_DIFFERENCES).filter(
      (name) => !section.includes(`\`${name.replace(/^oracle: /, '')}\``),
    );
    expect(missing, 'rows missing from the section').to.deep.equal([]);
  });

  it('resolves the same schema through every kubeconform layout', function () {
    for (const layout of LAYOUTS)
      for (const r of rows)
        expect(kubeconform[layout]?.get(r.name)?.verdict, `${layout}: ${r.name}`).to.equal(
          kubeconform.catalog?.get(r.name)?.verdict,
        );
  });

  for (const r of rows) {
    it(r.name, function () {
      const lib = library.get(r.name);
      const kc = kubeconform.catalog?.get(r.name);
      const aj = ajv.get(r.name);
      const sides = `library ${String(lib)}; kubeconform ${kc?.verdict ?? '?'} (${kc?.detail ?? ''}); ajv ${aj?.verdict ?? '?'} (${aj?.detail ?? ''})`;
      const listed = JSON_SCHEMA_DIFFERENCES[r.name];
      if (listed === undefined) {
        expect([kc?.verdict, aj?.verdict], `the JSON Schemas and the library disagree: ${sides}`).to.deep.equal([
          lib,
          lib,
        ]);
        return;
      }
      const expected: Verdict[] = ['reject', 'accept', 'accept'];
      expect(
        [lib, kc?.verdict, aj?.verdict],
        `listed as ${listed} (the library refuses, JSON Schema cannot say why), but now: ${sides}; update json-schema-differences.ts`,
      ).to.deep.equal(expected);
    });
  }
});
