// Runs the oracles (Karmada's and Kubernetes' own validation, built by scripts/build-oracle.mjs) over the case table
// and reduces each side, oracle or library, to what is compared: verdict, field paths, messages.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateCluster } from '../../packages/schema/src/schema/index.js';
import type { Obj, OracleCase } from './cases.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface OracleError {
  field: string;
  type: string;
  detail: string;
  message: string;
}

export interface OracleVerdict {
  name: string;
  errors: OracleError[];
  /** A refusal without field errors: the object did not decode into the Go types. */
  failure?: string;
  /** The Kubernetes oracle had no probe to judge. */
  skipped?: boolean;
  /** Karmada's: what strict decoding reports (`unknown field "spec.x"`), as the apiserver warns or refuses it. */
  strict?: string[];
}

export interface Side {
  verdict: 'accept' | 'reject';
  /** Distinct field paths, sorted. */
  fields: string[];
  /** Every error as `field: body` (a refusal before validation as `refused: <reason>`), sorted. */
  messages: string[];
}

/** The directory holding both oracles: CLUSTER_PROBE_ORACLE_BIN, else what scripts/build-oracle.mjs builds or finds. */
export function oracleBinDir(): string {
  if (process.env.CLUSTER_PROBE_ORACLE_BIN) return process.env.CLUSTER_PROBE_ORACLE_BIN;
  const built = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build-oracle.mjs')], {
    cwd: repoRoot,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'], // its progress lines go to our stderr
  });
  if (built.status !== 0) throw new Error(`scripts/build-oracle.mjs failed (exit ${String(built.status)})`);
  return built.stdout.trim().split('\n').pop() ?? '';
}

export function runOracle(
  binary: string,
  cases: readonly Pick<OracleCase, 'name' | 'object'>[],
): Map<string, OracleVerdict> {
  const input = JSON.stringify({ cases: cases.map((c) => ({ name: c.name, object: c.object })) });
  const run = spawnSync(binary, [], { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`${binary} failed (exit ${String(run.status)}): ${run.stderr}`);
  const verdicts = JSON.parse(run.stdout) as OracleVerdict[];
  return new Map(verdicts.map((v) => [v.name, v]));
}

export interface OracleRun {
  karmada: Map<string, OracleVerdict>;
  kubernetes: Map<string, OracleVerdict>;
}

export function runOracles(dir: string, cases: readonly OracleCase[]): OracleRun {
  return {
    karmada: runOracle(join(dir, 'karmada-oracle'), cases),
    kubernetes: runOracle(join(dir, 'kube-oracle'), cases),
  };
}

function side(errors: { field: string; message: string }[], refusals: string[]): Side {
  const messages = [...errors.map((e) => e.message), ...refusals.map((r) => `refused: ${r}`)].sort();
  return {
    verdict: messages.length > 0 ? 'reject' : 'accept',
    fields: [...new Set(errors.map((e) => e.field))].sort(),
    messages,
  };
}

/** Karmada judges the Cluster; Kubernetes judges its probe, when it has one. */
export function oracleSide(run: OracleRun, name: string): Side {
  const parts = [run.karmada.get(name), run.kubernetes.get(name)];
  if (parts.some((p) => p === undefined)) throw new Error(`an oracle gave no verdict for ${name}`);
  const verdicts = parts as OracleVerdict[];
  return side(
    verdicts.flatMap((v) => v.errors),
    verdicts.flatMap((v) => (v.failure === undefined ? [] : [v.failure])),
  );
}

export function librarySide(object: Obj): Side {
  return side(validateCluster(object).errors, []);
}

export function agree(a: Side, b: Side): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
