// The way back from `migrate --in-cluster`: before it changes any Cluster it writes what it read (the annotations and
// fields its patch touches, and the resourceVersion it read) to a backup file, mode 0600, by default under the user's
// state directory; after each write it records the resourceVersion of that write and what it stored. `migrate
// --restore FILE` puts the values back with that resourceVersion as the precondition, so a Cluster changed since is
// reported, never overwritten; a resourceVersion moved only by writes elsewhere (Karmada's status updates) is taken
// when every value the migration wrote is still there, and then tested in its place. The file is read with a size
// limit. No Kubernetes client here: the restore takes any KubeApi.
import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeSync, fsyncSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { isRecord, messageOf } from '@karmada-cluster-probe/schema/api';
import { escapePointerToken, unescapePointerToken } from '@karmada-cluster-probe/schema/internal/schema/diff.js';
import { isStatus, lostResourceVersionRace, type KubeApi } from '../kube/index.js';

export const BACKUP_KIND = 'ClusterProbeMigrationBackup';
/** The largest backup --restore reads: thousands of Clusters with their probes fit many times over. */
export const MAX_BACKUP_BYTES = 64 * 1024 * 1024;
/** The Clusters' collection: migrate --in-cluster and --restore read and patch them here. */
export const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';

/** What a Cluster held where the migration's patch changed it: null for absent. */
export interface HeldValues {
  /** Annotation key to its exact string. */
  annotations: Record<string, string | null>;
  /** JSON Pointer (`/spec/livenessProbe`) to its value. */
  fields: Record<string, unknown>;
}

export interface BackupEntry extends HeldValues {
  name: string;
  uid?: string;
  /** The resourceVersion the migration read (and tested in its patch). */
  resourceVersion: string;
  /** The resourceVersion of the migration's own write; absent until it is written. */
  writtenResourceVersion?: string;
  /** What that write stored at the same keys and paths: a Cluster that still holds it has not been changed there. */
  written?: HeldValues;
}

export interface Backup {
  kind: typeof BACKUP_KIND;
  version: 1;
  server?: string;
  createdAt: string;
  probeLocation: string;
  clusters: BackupEntry[];
}

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

/** `$XDG_STATE_HOME/karmada-cluster-probe/migrate-<time>.json`, or under ~/.local/state. */
export function defaultBackupPath(env: NodeJS.ProcessEnv = process.env, now = new Date()): string {
  const state = env.XDG_STATE_HOME?.startsWith('/')
    ? env.XDG_STATE_HOME
    : join(env.HOME ?? homedir(), '.local', 'state');
  return join(state, 'karmada-cluster-probe', `migrate-${now.toISOString().replace(/[:.]/g, '-')}-${process.pid}.json`);
}

/** The value at a JSON Pointer in `obj`, or undefined. */
export function valueAt(obj: unknown, pointer: string): unknown {
  let at: unknown = obj;
  for (const part of pointer.split('/').slice(1).map(unescapePointerToken)) {
    if (!isRecord(at)) return undefined;
    at = at[part];
  }
  return at;
}

function annotationsOf(obj: unknown): Record<string, unknown> {
  const a = valueAt(obj, '/metadata/annotations');
  return isRecord(a) ? a : {};
}

/**
 * What `before` holds wherever `after` differs from it in the annotations, and at every other path a patch touches.
 * The annotations are compared key by key, so a patch that replaces the whole map is recorded by key.
 */
export function heldValues(before: unknown, after: unknown, patchPaths: readonly string[]): HeldValues {
  const held: HeldValues = { annotations: {}, fields: {} };
  const a = annotationsOf(before);
  const b = annotationsOf(after);
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (isDeepStrictEqual(a[key], b[key])) continue;
    held.annotations[key] = typeof a[key] === 'string' ? a[key] : null;
  }
  for (const path of patchPaths) {
    if (path === '/metadata/annotations' || path.startsWith('/metadata/annotations/')) continue;
    const v = valueAt(before, path);
    held.fields[path] = v === undefined ? null : v;
  }
  return held;
}

/** What `obj` holds at the keys and paths of `held`. */
export function valuesLike(obj: unknown, held: HeldValues): HeldValues {
  const annotations = annotationsOf(obj);
  const out: HeldValues = { annotations: {}, fields: {} };
  for (const key of Object.keys(held.annotations))
    out.annotations[key] = typeof annotations[key] === 'string' ? annotations[key] : null;
  for (const path of Object.keys(held.fields)) out.fields[path] = valueAt(obj, path) ?? null;
  return out;
}

function isHeldValues(v: unknown): v is HeldValues {
  return (
    isRecord(v) &&
    isRecord(v.annotations) &&
    Object.values(v.annotations).every((x) => x === null || typeof x === 'string') &&
    isRecord(v.fields) &&
    Object.keys(v.fields).every((k) => k.startsWith('/') && !k.startsWith('/metadata/'))
  );
}

/** Writes `text` to `path` atomically (a temporary file beside it, then rename), mode 0600. */
function writeAtomically(path: string, text: string, exclusive: boolean): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(exclusive ? path : tmp, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (!exclusive) renameSync(tmp, path);
}

/**
 * Saves the backup: `create` makes a new file and refuses one that exists (an older backup is a way back too);
 * afterwards the file is replaced atomically. Throws BackupError naming the file.
 */
export function saveBackup(path: string, backup: Backup, create: boolean): void {
  try {
    writeAtomically(path, `${JSON.stringify(backup, null, 2)}\n`, create);
  } catch (err) {
    if (!create) rmSync(`${path}.tmp-${process.pid}`, { force: true });
    throw new BackupError(`cannot write the backup ${path}: ${messageOf(err)}`);
  }
}

/** Reads a backup, at most MAX_BACKUP_BYTES of it, checking its shape. Throws BackupError naming the file. */
export function readBackup(path: string, maxBytes = MAX_BACKUP_BYTES): Backup {
  let text: string;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new BackupError(`cannot read the backup ${path}: ${messageOf(err)}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new BackupError(`${path}: not a regular file; name the backup file migrate wrote`);
    if (stat.size > maxBytes)
      throw new BackupError(`${path}: larger than ${maxBytes} bytes (MAX_BACKUP_BYTES); not a backup migrate wrote`);
    const buf = Buffer.alloc(maxBytes + 1);
    let got = 0;
    for (let n = 1; n > 0 && got <= maxBytes; got += n) n = readSync(fd, buf, got, buf.length - got, null);
    if (got > maxBytes)
      throw new BackupError(`${path}: larger than ${maxBytes} bytes (MAX_BACKUP_BYTES); not a backup migrate wrote`);
    text = buf.subarray(0, got).toString('utf8');
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`cannot read the backup ${path}: ${messageOf(err)}`);
  } finally {
    closeSync(fd);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new BackupError(`${path}: not JSON: ${messageOf(err)}`);
  }
  const bad = (why: string) => new BackupError(`${path}: not a backup of cluster-probe migrate: ${why}`);
  if (!isRecord(doc) || doc.kind !== BACKUP_KIND || doc.version !== 1)
    throw bad(`kind must be ${BACKUP_KIND}, version 1`);
  if (!Array.isArray(doc.clusters)) throw bad('clusters must be a list');
  doc.clusters.forEach((c: unknown, i) => {
    const at = `clusters[${i}]`;
    if (!isRecord(c) || typeof c.name !== 'string' || c.name === '') throw bad(`${at}.name must be a string`);
    if (typeof c.resourceVersion !== 'string') throw bad(`${at}.resourceVersion must be a string`);
    if (c.writtenResourceVersion !== undefined && typeof c.writtenResourceVersion !== 'string')
      throw bad(`${at}.writtenResourceVersion must be a string`);
    if (!isHeldValues(c))
      throw bad(`${at}: annotations must map keys to strings or null, fields JSON Pointers outside metadata to values`);
    if (c.written !== undefined && !isHeldValues(c.written))
      throw bad(`${at}.written: the same shape as the Cluster's`);
  });
  return doc as unknown as Backup;
}

type PatchOp = { op: string; path: string; value?: unknown };

/** Reads, judges and patches a Cluster this many times in all while other writers keep moving its resourceVersion. */
export const RESTORE_ATTEMPTS = 5;

/** The JSON Patch that puts `held` back into `current`, after a test of `resourceVersion`. */
export function restorePatch(current: unknown, held: HeldValues, resourceVersion: string): PatchOp[] {
  const ops: PatchOp[] = [{ op: 'test', path: '/metadata/resourceVersion', value: resourceVersion }];
  for (const [path, value] of Object.entries(held.fields)) {
    const now = valueAt(current, path);
    if (value === null) {
      if (now !== undefined) ops.push({ op: 'remove', path });
    } else ops.push({ op: 'add', path, value });
  }
  const annotations = valueAt(current, '/metadata/annotations');
  if (!isRecord(annotations)) {
    const value = Object.fromEntries(Object.entries(held.annotations).filter(([, v]) => v !== null));
    if (Object.keys(value).length > 0) ops.push({ op: 'add', path: '/metadata/annotations', value });
  } else {
    for (const [key, value] of Object.entries(held.annotations)) {
      const path = `/metadata/annotations/${escapePointerToken(key)}`;
      if (value === null) {
        if (key in annotations) ops.push({ op: 'remove', path });
      } else ops.push({ op: 'add', path, value });
    }
  }
  return ops;
}

/** Where `obj` does not hold `held`, as `field: absent|differs` (empty when it holds it all). */
export function notHeld(obj: unknown, held: HeldValues): string[] {
  const out: string[] = [];
  const annotations = annotationsOf(obj);
  for (const [key, value] of Object.entries(held.annotations)) {
    const now = typeof annotations[key] === 'string' ? annotations[key] : null;
    if (now !== value) out.push(`metadata.annotations[${key}]: ${now === null ? 'absent' : 'differs'}`);
  }
  for (const [path, value] of Object.entries(held.fields)) {
    const now = valueAt(obj, path) ?? null;
    if (!isDeepStrictEqual(now, value))
      out.push(
        `${path.split('/').slice(1).map(unescapePointerToken).join('.')}: ${now === null ? 'absent' : 'differs'}`,
      );
  }
  return out;
}

export interface RestoreSummary {
  clusters: number;
  restored: number;
  failed: number;
}

/** Puts every Cluster of the backup back; a Cluster changed since the migration is reported and left alone. */
export async function restoreBackup(
  api: KubeApi,
  backup: Backup,
  path: string,
  out: (line: string) => void,
): Promise<RestoreSummary> {
  const summary: RestoreSummary = { clusters: backup.clusters.length, restored: 0, failed: 0 };
  for (const entry of backup.clusters) {
    const url = `${CLUSTERS}/${encodeURIComponent(entry.name)}`;
    const fail = (line: string) => {
      out(`cluster/${entry.name}: ${line}`);
      summary.failed++;
    };
    if (entry.writtenResourceVersion === undefined) {
      fail('never written by that migration (no writtenResourceVersion in the backup): nothing to put back');
      continue;
    }
    const written = entry.writtenResourceVersion;
    try {
      for (let attempt = 1; ; attempt++) {
        const current = await api.request<Record<string, unknown>>('GET', url);
        const rv = valueAt(current, '/metadata/resourceVersion');
        if (entry.uid !== undefined && valueAt(current, '/metadata/uid') !== entry.uid) {
          fail('deleted and created again since the migration (another uid); not overwritten');
          break;
        }
        let precondition = written;
        if (rv !== written) {
          // A status update (Karmada's own controllers write one every few seconds) moves the resourceVersion too:
          // what counts is whether the values the migration wrote are still there, untouched.
          const changed =
            entry.written === undefined
              ? ['(the backup does not say what was written)']
              : notHeld(current, entry.written);
          if (changed.length > 0 || typeof rv !== 'string') {
            fail(
              `changed since the migration (resourceVersion ${String(rv)}, the migration wrote ` +
                `${written}: ${changed.join('; ')}); not overwritten. Compare it with ${path} and ` +
                'edit it by hand',
            );
            break;
          }
          precondition = rv;
        }
        let answer: unknown;
        try {
          answer = await api.request<unknown>('PATCH', url, {
            body: restorePatch(current, entry, precondition),
            contentType: 'application/json-patch+json',
          });
        } catch (err) {
          // Written by another between our read and our patch (the resourceVersion test failed): read it again and
          // judge it again, as a user running --restore a second later would.
          const raced = await lostResourceVersionRace(api, url, err, precondition);
          if (raced && attempt < RESTORE_ATTEMPTS) continue;
          if (raced) {
            fail(
              `written by another writer ${RESTORE_ATTEMPTS} times between our read and our patch (the resourceVersion ` +
                'test failed each time); not overwritten. Run --restore again',
            );
            break;
          }
          throw err;
        }
        const missing = notHeld(answer, entry);
        if (missing.length > 0) {
          fail(`the apiserver did not store what the backup holds: ${missing.join('; ')}`);
          break;
        }
        out(`cluster/${entry.name}: restored`);
        summary.restored++;
        break;
      }
    } catch (err) {
      if (isStatus(err, 404)) fail('not found: deleted since the migration');
      else fail(`cannot be restored: ${messageOf(err)}`);
    }
  }
  return summary;
}
