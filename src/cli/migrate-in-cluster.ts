// `cluster-probe migrate --in-cluster`: migrates the live Clusters of a control plane (on stock Karmada no webhook
// does it, see docs/karmada.md). Each Cluster is read, migrated with the schema library exactly as the webhook would,
// and written back with one JSON Patch whose first operation tests the resourceVersion read, so a concurrent writer is
// never overwritten (the Cluster is read again and retried). --dry-run sends the same patch with dryRun=All, so the
// apiserver checks it, and prints the change without storing it.
import { LEGACY_ANNOTATION, migrateCluster, type Cluster, type ProbeLocation } from '../schema/index.js';
import { isStatus, type KubeApi } from '../kube/index.js';
import { messageOf } from '../api/index.js';
import { unescapePointerToken } from '../schema/diff.js';

const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';
/** Attempts per Cluster when someone else writes it between our read and our patch. */
const CONFLICT_ATTEMPTS = 3;
/** Clusters read per list page. */
const PAGE_SIZE = 250;

export interface InClusterOptions {
  probeLocation: ProbeLocation;
  dryRun: boolean;
  denyHosts?: readonly string[];
  /** One line each Cluster changed or failed, and the diff of a dry run. */
  out: (line: string) => void;
}

export interface InClusterSummary {
  clusters: number;
  migrated: number;
  unchanged: number;
  failed: number;
}

interface ClusterList {
  items?: Cluster[];
  metadata?: { continue?: string };
}

type PatchOp = { op: string; path: string; value?: unknown };

/** A field path for a JSON Pointer, as the apiserver writes paths: metadata.annotations[key]. */
function fieldOf(pointer: string): string {
  const parts = pointer.split('/').slice(1).map(unescapePointerToken);
  if (parts[0] === 'metadata' && parts[1] === 'annotations' && parts.length === 3) {
    return `metadata.annotations[${parts[2]}]`;
  }
  return parts.join('.');
}

function valueAt(obj: unknown, pointer: string): unknown {
  let at: unknown = obj;
  for (const part of pointer.split('/').slice(1).map(unescapePointerToken)) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

function show(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}... (${text.length} characters)` : text;
}

/** The change as `-`/`+` lines, one per field the patch touches. */
export function describePatch(before: unknown, patch: readonly PatchOp[]): string[] {
  const lines: string[] = [];
  for (const op of patch) {
    const field = fieldOf(op.path);
    if (op.op === 'remove' || op.op === 'replace') lines.push(`  - ${field}: ${show(valueAt(before, op.path))}`);
    if (op.op === 'add' || op.op === 'replace') lines.push(`  + ${field}: ${show(op.value)}`);
  }
  return lines;
}

async function listClusters(api: KubeApi): Promise<Cluster[]> {
  const all: Cluster[] = [];
  let next: string | undefined;
  do {
    const page = await api.request<ClusterList>('GET', CLUSTERS, {
      query: { limit: PAGE_SIZE, ...(next ? { continue: next } : {}) },
    });
    all.push(...(page.items ?? []));
    next = page.metadata?.continue || undefined;
  } while (next);
  return all;
}

/** Migrates one Cluster; returns what happened. Re-reads and retries when the resourceVersion moved. */
async function migrateOne(
  api: KubeApi,
  first: Cluster,
  options: InClusterOptions,
): Promise<'migrated' | 'unchanged' | 'failed'> {
  const name = first.metadata?.name ?? '';
  let current: Cluster = first;
  for (let attempt = 1; ; attempt++) {
    const result = migrateCluster(current, {
      probeLocation: options.probeLocation,
      ...(options.denyHosts !== undefined ? { denyHosts: [...options.denyHosts] } : {}),
    });
    if (result.errors.length > 0) {
      options.out(`cluster/${name}: cannot be migrated, left unchanged:`);
      for (const e of result.errors) options.out(`  ${e.message}`);
      return 'failed';
    }
    if (result.patch.length === 0) return 'unchanged';
    const rv = current.metadata?.resourceVersion;
    const patch: PatchOp[] = [
      ...(rv !== undefined ? [{ op: 'test', path: '/metadata/resourceVersion', value: rv }] : []),
      ...(result.patch as PatchOp[]),
    ];
    try {
      await api.request('PATCH', `${CLUSTERS}/${encodeURIComponent(name)}`, {
        body: patch,
        contentType: 'application/json-patch+json',
        ...(options.dryRun ? { query: { dryRun: 'All' } } : {}),
      });
    } catch (err) {
      // A failed test operation (someone wrote in between) is 409 or 422 depending on the apiserver's version.
      const conflict = isStatus(err, 409) || (isStatus(err, 422) && /test/i.test(messageOf(err)));
      if (conflict && attempt < CONFLICT_ATTEMPTS) {
        current = await api.request<Cluster>('GET', `${CLUSTERS}/${encodeURIComponent(name)}`);
        continue;
      }
      options.out(`cluster/${name}: the apiserver refused the migration, left unchanged: ${messageOf(err)}`);
      return 'failed';
    }
    options.out(`cluster/${name}: ${options.dryRun ? 'would migrate (dry run, nothing stored)' : 'migrated'}`);
    for (const w of result.warnings) options.out(`  ${w}`);
    if (options.dryRun) for (const line of describePatch(current, result.patch as PatchOp[])) options.out(line);
    return 'migrated';
  }
}

/** Migrates every Cluster that needs it; never stops at the first failure. */
export async function migrateInCluster(api: KubeApi, options: InClusterOptions): Promise<InClusterSummary> {
  const clusters = await listClusters(api);
  const summary: InClusterSummary = { clusters: clusters.length, migrated: 0, unchanged: 0, failed: 0 };
  for (const cluster of clusters) summary[await migrateOne(api, cluster, options)]++;
  return summary;
}

export function summaryLine(summary: InClusterSummary, dryRun: boolean): string {
  const verb = dryRun ? 'would migrate' : 'migrated';
  return (
    `${summary.clusters} Cluster${summary.clusters === 1 ? '' : 's'}: ${summary.migrated} ${verb}, ` +
    `${summary.unchanged} unchanged, ${summary.failed} failed` +
    (summary.failed > 0 ? ` (their ${LEGACY_ANNOTATION} annotations are kept)` : '')
  );
}
