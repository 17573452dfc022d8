// Runs the helm built by scripts/build-helm.mjs (CLUSTER_PROBE_HELM, set by scripts/run-helm-tests.mjs) on the chart,
// and reads the manifests/ files the chart must agree with.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const repo = resolve(import.meta.dirname, '..', '..');
export const chartDir = join(repo, 'charts', 'karmada-cluster-probe');
export const NAMESPACE = 'cluster-probe-system';

export type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- rendered YAML

export function helmBinary(): string {
  const helm = process.env.CLUSTER_PROBE_HELM;
  if (!helm) {
    throw new Error('CLUSTER_PROBE_HELM is not set: run the chart tests with `npm run test:helm` (it builds helm)');
  }
  return helm;
}

export interface HelmResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

let helmHome: string | undefined;

/** Removes helm's home of this run (the test files call it in after()). */
export function removeHelmHome(): void {
  if (helmHome) rmSync(helmHome, { recursive: true, force: true });
  helmHome = undefined;
}

export function helm(args: string[], input?: string): HelmResult {
  // helm keeps caches, repositories and plugins under HOME: a directory of its own, none of the developer's.
  helmHome ??= mkdtempSync(join(tmpdir(), 'cluster-probe-helm-home-'));
  const r = spawnSync(helmBinary(), args, {
    encoding: 'utf8',
    input,
    timeout: 60_000,
    env: {
      PATH: process.env.PATH,
      HOME: helmHome,
      HELM_CACHE_HOME: join(helmHome, 'cache'),
      HELM_CONFIG_HOME: join(helmHome, 'config'),
      HELM_DATA_HOME: join(helmHome, 'data'),
    },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `--set`/`--set-file`/`--api-versions` style arguments for one value set. */
export type ValueArgs = string[];

/** `helm template` of the chart as release `cluster-probe` in NAMESPACE; throws with helm's stderr on failure. */
export function renderText(values: ValueArgs): string {
  const r = helm(['template', 'cluster-probe', chartDir, '--namespace', NAMESPACE, ...values]);
  if (r.code !== 0) throw new Error(`helm template ${values.join(' ')} failed:\n${r.stderr}`);
  return r.stdout;
}

export function parseObjects(text: string): Obj[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as Obj | null)
    .filter((o): o is Obj => o !== null && typeof o === 'object');
}

export function render(values: ValueArgs): Obj[] {
  return parseObjects(renderText(values));
}

/** helm template's error for a value set that must be refused. */
export function renderError(values: ValueArgs): string {
  const r = helm(['template', 'cluster-probe', chartDir, '--namespace', NAMESPACE, ...values]);
  if (r.code === 0) throw new Error(`helm template ${values.join(' ')} rendered, but should have been refused`);
  return r.stderr;
}

export function manifestObjects(path: string): Obj[] {
  return parseObjects(readFileSync(join(repo, 'manifests', path), 'utf8'));
}

export function find(objects: Obj[], kind: string, name?: string): Obj {
  const found = objects.filter((o) => o.kind === kind && (name === undefined || o.metadata?.name === name));
  if (found.length !== 1) {
    throw new Error(
      `expected one ${kind}${name ? ` ${name}` : ''}, found ${found.length}: ${kinds(objects).join(', ')}`,
    );
  }
  return found[0]!;
}

export function kinds(objects: Obj[]): string[] {
  return objects.map((o) => `${o.kind}/${o.metadata?.name}`).sort();
}

export function container(deployment: Obj): Obj {
  return deployment.spec.template.spec.containers[0];
}
