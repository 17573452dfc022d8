// Runs the project's tables of whole Clusters through the three judges of test/oracle/json-schema.test.ts:
// validateCluster, real kubeconform (built by scripts/build-kubeconform.mjs) and ajv in strict mode, each reduced to a
// verdict. json-schema-figures.ts prints the before/after figures from the same functions.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type AnySchema, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { validateCluster } from '../../packages/schema/src/schema/index.js';
import { agreementCases, agreementCluster } from '../e2e/support/clusters.js';
import { CASES } from './cases.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

// ajv-formats is CommonJS with `export default`: under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export type Verdict = 'accept' | 'reject';

export interface Row {
  /** `<table>: <row name>`, unique across the tables. */
  name: string;
  object: unknown;
}

/**
 * Every table of whole Clusters with an expected verdict: test/oracle/cases.ts (rows written from Karmada's,
 * Kubernetes' and apimachinery's own tests), test/fixtures/agreement/cases.yaml (the library against the CRD on
 * kube-apiserver) and the Clusters of test/fixtures/clusters.
 */
export function jsonSchemaRows(): Row[] {
  const fixtures = join(repoRoot, 'test', 'fixtures', 'clusters');
  return [
    ...CASES.map((c) => ({ name: `oracle: ${c.name}`, object: c.object })),
    ...agreementCases(join(repoRoot, 'test', 'fixtures', 'agreement', 'cases.yaml')).map((r) => ({
      name: `agreement: ${r.name}`,
      object: agreementCluster(r),
    })),
    ...readdirSync(fixtures)
      .filter((f) => f.endsWith('.yaml'))
      .sort()
      .map((f) => ({ name: `fixture: ${f}`, object: parse(readFileSync(join(fixtures, f), 'utf8')) as unknown })),
  ];
}

export function libraryVerdicts(rows: readonly Row[]): Map<string, Verdict> {
  return new Map(rows.map((r) => [r.name, validateCluster(r.object).valid ? 'accept' : 'reject']));
}

/** The kubeconform binary: CLUSTER_PROBE_KUBECONFORM, else what scripts/build-kubeconform.mjs builds or finds. */
export function kubeconformBinary(): string {
  if (process.env.CLUSTER_PROBE_KUBECONFORM) return process.env.CLUSTER_PROBE_KUBECONFORM;
  const built = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build-kubeconform.mjs')], {
    cwd: repoRoot,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'], // its progress lines go to our stderr
  });
  if (built.status !== 0) throw new Error(`scripts/build-kubeconform.mjs failed (exit ${String(built.status)})`);
  return built.stdout.trim().split('\n').pop() ?? '';
}

export interface ToolVerdict {
  verdict: Verdict;
  /** What the tool said, for a failure message. */
  detail: string;
}

interface KubeconformResource {
  filename: string;
  status: string;
  msg?: string;
}

/**
 * kubeconform over every row at once, one JSON file a row (in a fresh directory, named by index), with `args` (the
 * schema location, -strict). Valid is accept; invalid and error (no schema found, a decoding error) are reject.
 */
export function kubeconformVerdicts(binary: string, rows: readonly Row[], args: string[]): Map<string, ToolVerdict> {
  const dir = mkdtempSync(join(tmpdir(), 'json-schema-rows-'));
  try {
    rows.forEach((r, i) => writeFileSync(join(dir, `${i}.json`), JSON.stringify(r.object)));
    const run = spawnSync(binary, [...args, '-output', 'json', '-verbose', dir], {
      cwd: repoRoot,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    if (run.error) throw run.error;
    const out = JSON.parse(run.stdout) as { resources?: KubeconformResource[] };
    const byFile = new Map<string, KubeconformResource>();
    for (const res of out.resources ?? []) {
      const file = res.filename.slice(res.filename.lastIndexOf('/') + 1);
      if (byFile.has(file)) throw new Error(`kubeconform found two resources in ${file}`);
      byFile.set(file, res);
    }
    return new Map(
      rows.map((r, i) => {
        const res = byFile.get(`${i}.json`);
        if (res === undefined) throw new Error(`kubeconform gave no result for ${r.name}: ${run.stderr}`);
        if (res.status !== 'statusValid' && res.status !== 'statusInvalid' && res.status !== 'statusError')
          throw new Error(`kubeconform ${res.status} for ${r.name}: ${res.msg ?? ''}`);
        const verdict: Verdict = res.status === 'statusValid' ? 'accept' : 'reject';
        return [r.name, { verdict, detail: `${res.status} ${res.msg ?? ''}` }];
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function readJson(path: string): AnySchema {
  return JSON.parse(readFileSync(join(repoRoot, path), 'utf8')) as AnySchema;
}

/** ajv with ajv-formats; `schemas` are added first (what a $ref names), `main` is compiled. */
export function ajvVerdicts(
  rows: readonly Row[],
  main: AnySchema,
  options: Options,
  schemas: AnySchema[] = [],
): Map<string, ToolVerdict> {
  const ajv = new Ajv({ allErrors: true, ...options });
  addFormats(ajv);
  for (const s of schemas) ajv.addSchema(s);
  const validate = ajv.compile(main);
  return new Map(
    rows.map((r) => {
      const ok = validate(r.object);
      const detail = ok ? '' : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`).join('; ');
      return [r.name, { verdict: ok ? 'accept' : 'reject', detail }];
    }),
  );
}
