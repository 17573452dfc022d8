// `cluster-probe migrate --in-cluster`: migrates the live Clusters of a control plane (on stock Karmada no webhook
// does it, see docs/karmada.md). A write that moves the user's data is done only when the server's answer shows it
// stored: where the probe may go is asked of the server first (--probe-location auto; a location it cannot store is
// refused before any write); each Cluster is migrated with the schema library exactly as the webhook would, into one
// JSON Patch whose first operation tests the resourceVersion read, sent first with dryRun=All and its answer compared
// with the expected object; only when every Cluster passes (or --continue-on-error) is a backup of what was read
// written (migrate-backup.ts) and the same patch sent for real, its answer compared again.
import { isDeepStrictEqual } from 'node:util';
import {
  defaultProbe,
  LEGACY_ANNOTATION,
  migrateCluster,
  PROBE_ANNOTATION,
  type Cluster,
  type ProbeLocation,
} from '@karmada-cluster-probe/schema';
import { lostResourceVersionRace, type KubeApi } from '../kube/index.js';
import { isRecord, messageOf } from '@karmada-cluster-probe/schema/api';
import { escapePointerToken, unescapePointerToken } from '@karmada-cluster-probe/schema/internal/schema/diff.js';
import { discoverProbeStorage } from '../deploy/probe-storage.js';
import { resolveProbeLocation, type ProbeLocationChoice } from './probe-location-option.js';
import {
  BackupError,
  BACKUP_KIND,
  CLUSTERS,
  defaultBackupPath,
  heldValues,
  saveBackup,
  valueAt,
  valuesLike,
  type Backup,
  type BackupEntry,
} from './migrate-backup.js';

/** Attempts per Cluster when someone else writes it between our read and our patch. */
const CONFLICT_ATTEMPTS = 3;
/** Clusters read per list page. */
const PAGE_SIZE = 250;

export interface InClusterOptions {
  probeLocation: ProbeLocationChoice;
  dryRun: boolean;
  /** Write the Clusters whose dry run passed even when another's failed. */
  continueOnError?: boolean;
  /** The backup file; default under the user's state directory (defaultBackupPath). */
  backup?: string;
  /** The apiserver's URL, for messages and the backup. */
  server?: string;
  denyHosts?: readonly string[];
  /** One line each Cluster changed or failed, the diff of a dry run, the summary. */
  out: (line: string) => void;
  /** Notes: the location chosen and why, the backup's path. */
  note: (line: string) => void;
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

function show(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}... (${text.length} characters)` : text;
}

/** The pointers a patch changes, a whole annotations map taken key by key (of both objects). */
function touchedPaths(before: unknown, expected: unknown, patch: readonly PatchOp[]): string[] {
  const paths = new Set<string>();
  for (const op of patch) {
    if (op.path === '/metadata/annotations' || op.path === '/metadata') {
      const keys = new Set([
        ...Object.keys(asRecord(valueAt(before, '/metadata/annotations'))),
        ...Object.keys(asRecord(valueAt(expected, '/metadata/annotations'))),
      ]);
      for (const key of keys) paths.add(`/metadata/annotations/${escapePointerToken(key)}`);
    } else paths.add(op.path);
  }
  return [...paths];
}

function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

const PROBE_POINTERS = new Set([
  '/spec/livenessProbe',
  `/metadata/annotations/${escapePointerToken(PROBE_ANNOTATION)}`,
]);

/** The probe at a probe location, defaulted, so a webhook that fills in defaults does not count as a change. */
function probeValue(value: unknown): unknown {
  let probe = value;
  if (typeof value === 'string') {
    try {
      probe = JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return isRecord(probe) ? defaultProbe(probe) : probe;
}

/**
 * Where the server's answer does not hold what the migration meant to store, as `field: what happened` lines (empty
 * when it holds it all). The probe counts as stored when it is the same after defaulting.
 */
export function storedDifferences(
  expected: unknown,
  answer: unknown,
  paths: readonly string[],
  tense: 'would be' | 'was',
): string[] {
  const out: string[] = [];
  for (const path of paths) {
    const want = valueAt(expected, path);
    const got = valueAt(answer, path);
    if (isDeepStrictEqual(want, got)) continue;
    if (PROBE_POINTERS.has(path) && want !== undefined && isDeepStrictEqual(probeValue(want), probeValue(got)))
      continue;
    const field = fieldOf(path);
    if (got === undefined) out.push(`  ${field}: ${tense} dropped (the patch sets ${show(want)})`);
    else if (want === undefined) out.push(`  ${field}: ${tense} kept as ${show(got)} (the patch removes it)`);
    else out.push(`  ${field}: ${tense} stored as ${show(got)} instead of ${show(want)}`);
  }
  return out;
}

/** The change as `-`/`+` lines, one per field the patch touches; `+` is what `stored` holds there. */
export function describeStored(before: unknown, stored: unknown, paths: readonly string[]): string[] {
  const lines: string[] = [];
  for (const path of paths) {
    const was = valueAt(before, path);
    const now = valueAt(stored, path);
    if (isDeepStrictEqual(was, now)) continue;
    if (was !== undefined) lines.push(`  - ${fieldOf(path)}: ${show(was)}`);
    if (now !== undefined) lines.push(`  + ${fieldOf(path)}: ${show(now)}`);
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

/** A Cluster whose migration the server's dry run showed stored as meant. */
interface Checked {
  name: string;
  read: Cluster;
  patch: PatchOp[];
  expected: unknown;
  paths: string[];
  stored: unknown;
  warnings: string[];
}

type CheckResult = { checked: Checked } | { unchanged: true } | { failed: true };

/** Migrates `current` and sends the patch with dryRun=All; re-reads and retries when the resourceVersion moved. */
async function check(
  api: KubeApi,
  first: Cluster,
  location: ProbeLocation,
  options: InClusterOptions,
): Promise<CheckResult> {
  const name = first.metadata?.name ?? '';
  const url = `${CLUSTERS}/${encodeURIComponent(name)}`;
  let current = first;
  for (let attempt = 1; ; attempt++) {
    const result = migrateCluster(current, {
      probeLocation: location,
      ...(options.denyHosts !== undefined ? { denyHosts: [...options.denyHosts] } : {}),
    });
    if (result.errors.length > 0) {
      options.out(`cluster/${name}: cannot be migrated, left unchanged:`);
      for (const e of result.errors) options.out(`  ${e.message}`);
      return { failed: true };
    }
    if (result.patch.length === 0) return { unchanged: true };
    const rv = current.metadata?.resourceVersion;
    const patch: PatchOp[] = [
      ...(rv !== undefined ? [{ op: 'test', path: '/metadata/resourceVersion', value: rv }] : []),
      ...(result.patch as PatchOp[]),
    ];
    let stored: unknown;
    try {
      stored = await api.request('PATCH', url, {
        body: patch,
        contentType: 'application/json-patch+json',
        query: { dryRun: 'All' },
      });
    } catch (err) {
      if (attempt < CONFLICT_ATTEMPTS && (await lostResourceVersionRace(api, url, err, rv))) {
        current = await api.request<Cluster>('GET', url);
        continue;
      }
      options.out(`cluster/${name}: the apiserver refused the migration, left unchanged: ${messageOf(err)}`);
      return { failed: true };
    }
    const paths = touchedPaths(current, result.object, result.patch as PatchOp[]);
    const lost = storedDifferences(result.object, stored, paths, 'would be');
    if (lost.length > 0) {
      options.out(`cluster/${name}: the apiserver would not store the migration (dry run), left unchanged:`);
      for (const line of lost) options.out(line);
      return { failed: true };
    }
    return {
      checked: { name, read: current, patch, expected: result.object, paths, stored, warnings: result.warnings },
    };
  }
}

function entryOf(c: Checked): BackupEntry {
  const uid = c.read.metadata?.uid;
  return {
    name: c.name,
    ...(uid !== undefined ? { uid } : {}),
    resourceVersion: c.read.metadata?.resourceVersion ?? '',
    ...heldValues(c.read, c.expected, c.paths),
  };
}

/**
 * Migrates every Cluster that needs it; returns the exit status (0 done, 1 some Cluster failed, 2 refused before
 * any write: a location the server cannot store, no backup, no list). Never stops at one Cluster's failure.
 */
export async function runMigrateInCluster(api: KubeApi, options: InClusterOptions): Promise<number> {
  let location: ProbeLocation = 'annotation';
  if (options.probeLocation !== 'annotation') {
    const resolved = resolveProbeLocation(options.probeLocation, await discoverProbeStorage(api, options.server));
    if ('refusal' in resolved) {
      options.note(resolved.refusal);
      return 2;
    }
    location = resolved.location;
    if (resolved.note !== undefined) options.note(resolved.note);
  }
  let clusters: Cluster[];
  try {
    clusters = await listClusters(api);
  } catch (err) {
    options.note(`cannot list Clusters: ${messageOf(err)}`);
    return 2;
  }
  const summary: InClusterSummary = { clusters: clusters.length, migrated: 0, unchanged: 0, failed: 0 };
  const checked: Checked[] = [];
  for (const cluster of clusters) {
    const r = await check(api, cluster, location, options);
    if ('checked' in r) checked.push(r.checked);
    else if ('unchanged' in r) summary.unchanged++;
    else summary.failed++;
  }
  const finish = (dryRun: boolean) => {
    options.out(summaryLine(summary, dryRun));
    return summary.failed > 0 ? 1 : 0;
  };

  if (options.dryRun) {
    for (const c of checked) {
      options.out(`cluster/${c.name}: would migrate (dry run, nothing stored); the apiserver would store:`);
      for (const w of c.warnings) options.out(`  ${w}`);
      for (const line of describeStored(c.read, c.stored, c.paths)) options.out(line);
    }
    summary.migrated = checked.length;
    return finish(true);
  }
  if (summary.failed > 0 && !options.continueOnError) {
    options.out(
      `${summary.failed} Cluster${summary.failed === 1 ? '' : 's'} would not be stored as migrated: nothing written, ` +
        `${checked.length} other${checked.length === 1 ? '' : 's'} left as well (pass --continue-on-error to write ` +
        'the Clusters that pass)',
    );
    return finish(false);
  }
  if (checked.length === 0) return finish(false);

  const path = options.backup ?? defaultBackupPath();
  const backup: Backup = {
    kind: BACKUP_KIND,
    version: 1,
    ...(options.server !== undefined ? { server: options.server } : {}),
    createdAt: new Date().toISOString(),
    probeLocation: location,
    clusters: checked.map(entryOf),
  };
  try {
    saveBackup(path, backup, true);
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    options.note(`${err.message}; nothing was written (name another file with --backup FILE)`);
    return 2;
  }
  options.note(`backup: ${path} (cluster-probe migrate --restore ${path} puts it back)`);

  for (const [i, first] of checked.entries()) {
    let c = first;
    const url = `${CLUSTERS}/${encodeURIComponent(c.name)}`;
    let result: 'migrated' | 'unchanged' | 'failed' = 'failed';
    let stop = false;
    for (let attempt = 1; attempt <= CONFLICT_ATTEMPTS; attempt++) {
      let answer: unknown;
      try {
        answer = await api.request('PATCH', url, { body: c.patch, contentType: 'application/json-patch+json' });
      } catch (err) {
        if (
          attempt < CONFLICT_ATTEMPTS &&
          (await lostResourceVersionRace(api, url, err, c.read.metadata?.resourceVersion))
        ) {
          // Someone wrote it after our dry run: read, migrate and check it again, and back up what was read now.
          const again = await check(api, await api.request<Cluster>('GET', url), location, options);
          if (!('checked' in again)) {
            if ('unchanged' in again) result = 'unchanged';
            break;
          }
          c = again.checked;
          backup.clusters[i] = entryOf(c);
          try {
            saveBackup(path, backup, false);
          } catch (e) {
            options.note(`${messageOf(e)}; stopping: ${c.name} is left as it was`);
            stop = true;
            break;
          }
          continue;
        }
        options.out(`cluster/${c.name}: the apiserver refused the migration, left unchanged: ${messageOf(err)}`);
        break;
      }
      const rv = valueAt(answer, '/metadata/resourceVersion');
      const entry = backup.clusters[i] as BackupEntry;
      if (typeof rv === 'string') entry.writtenResourceVersion = rv;
      entry.written = valuesLike(answer, entry);
      try {
        saveBackup(path, backup, false);
      } catch (e) {
        options.note(`${messageOf(e)}: the resourceVersion of the write to ${c.name} is not recorded; stopping`);
        stop = true;
      }
      const lost = storedDifferences(c.expected, answer, c.paths, 'was');
      if (lost.length > 0) {
        options.out(`cluster/${c.name}: the apiserver did not store the migration as its dry run said:`);
        for (const line of lost) options.out(line);
        options.out(`  put it back with: cluster-probe migrate --restore ${path}`);
        break;
      }
      options.out(`cluster/${c.name}: migrated`);
      for (const w of c.warnings) options.out(`  ${w}`);
      result = 'migrated';
      break;
    }
    summary[result]++;
    const left = checked.length - i - 1;
    if (stop && left > 0) {
      options.out(`${left} Cluster${left === 1 ? '' : 's'} not written (the backup cannot be kept up to date)`);
      summary.failed += left;
    }
    if (stop) break;
  }
  return finish(false);
}

export function summaryLine(summary: InClusterSummary, dryRun: boolean): string {
  const verb = dryRun ? 'would migrate' : 'migrated';
  return (
    `${summary.clusters} Cluster${summary.clusters === 1 ? '' : 's'}: ${summary.migrated} ${verb}, ` +
    `${summary.unchanged} unchanged, ${summary.failed} failed` +
    (summary.failed > 0 ? ` (their ${LEGACY_ANNOTATION} and ${PROBE_ANNOTATION} annotations are kept)` : '')
  );
}
