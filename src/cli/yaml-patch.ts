// Applies an RFC 6902 patch to a parsed YAML document node by node, so that everything the patch does not touch keeps
// its comments, and the comments of what it removes are not lost: they move above the node that now holds the probe,
// or are handed back to the caller to report. Knows YAML and JSON Pointer, nothing of Clusters.
import { isMap, isScalar, visit, type Document, type Node } from 'yaml';
import type { JsonPatchOperation } from '@karmada-cluster-probe/schema';
import { unescapePointerToken } from '@karmada-cluster-probe/schema/internal/schema/diff.js';

export type NodePath = readonly string[];

export interface PatchedComments {
  /** Comments of removed nodes, in document order. */
  comments: string[];
  /** The removed fields, as field paths relative to the patched object (`metadata.annotations[a/b]`). */
  removed: string[];
  /** Where `comments` went, as a field path; unset when they were dropped (the caller says so). */
  movedTo?: string;
}

export function pointerToPath(pointer: string): string[] {
  return pointer.split('/').slice(1).map(unescapePointerToken);
}

/** `spec.livenessProbe`, `metadata.annotations[cluster.karmada.io/health-checker]`, `items[0]`. */
export function fieldPath(path: NodePath): string {
  return path.map((s, i) => (/^\d+$/.test(s) || /[./]/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/** Every comment under `node` in document order, the commentBefore of a node before its trailing comment. */
function commentsUnder(node: Node | Document | null | undefined): string[] {
  const out: string[] = [];
  if (node === null || node === undefined) return out;
  visit(node, {
    Node(_, n) {
      if (n.commentBefore) out.push(n.commentBefore);
      if (n.comment) out.push(n.comment);
    },
  });
  return out;
}

/** The comments in `before` that `after` no longer has, counting repeats. */
function lost(before: readonly string[], after: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const c of after) left.set(c, (left.get(c) ?? 0) + 1);
  return before.filter((c) => {
    const n = left.get(c) ?? 0;
    if (n > 0) left.set(c, n - 1);
    return n === 0;
  });
}

/**
 * Deletes the pair at `path`. A comment above the first pair of a map belongs to the map in yaml's model; it sits
 * above the removed line, so it goes with the pair rather than onto the next one.
 */
function deletePair(doc: Document.Parsed, path: NodePath): void {
  const parent = doc.getIn(path.slice(0, -1), true);
  if (isMap(parent) && parent.commentBefore) {
    const first = parent.items[0];
    const key = path[path.length - 1];
    if (first !== undefined && isScalar(first.key) && String(first.key.value) === key) {
      first.key.commentBefore = [parent.commentBefore, first.key.commentBefore].filter(Boolean).join('\n');
      parent.commentBefore = undefined;
    }
  }
  doc.deleteIn(path);
}

/** Puts `comments` above the key at `path`, which must exist; false when it does not. */
function commentAbove(doc: Document.Parsed, path: NodePath, comments: readonly string[]): boolean {
  const parent = doc.getIn(path.slice(0, -1), true);
  if (!isMap(parent)) return false;
  const key = path[path.length - 1];
  const pair = parent.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === key);
  if (pair === undefined) return false;
  if (!isScalar(pair.key)) pair.key = doc.createNode(pair.key);
  const k = pair.key as { commentBefore?: string | null };
  k.commentBefore = [k.commentBefore, ...comments].filter(Boolean).join('\n');
  return true;
}

/**
 * Applies `patch` to the object at `prefix` in `doc` (a List item is at ['items', '3']). An annotations map the patch
 * empties goes too, rather than leaving `annotations: {}` behind. Comments of removed nodes move above `commentTarget`
 * (relative to `prefix`) when it exists after the patch.
 */
export function applyToDocument(
  doc: Document.Parsed,
  patch: readonly JsonPatchOperation[],
  options: { prefix?: NodePath; commentTarget?: NodePath } = {},
): PatchedComments {
  const prefix = options.prefix ?? [];
  const root = (): Node | Document => (prefix.length === 0 ? doc : (doc.getIn(prefix, true) as Node));
  const before = commentsUnder(root());
  const removed: string[] = [];
  let annotationRemoved = false;
  for (const op of patch) {
    const rel = pointerToPath(op.path);
    const path = [...prefix, ...rel];
    if (op.op === 'remove') {
      removed.push(fieldPath(rel));
      deletePair(doc, path);
      if (rel.length === 3 && rel[0] === 'metadata' && rel[1] === 'annotations') annotationRemoved = true;
    } else if (op.op === 'add' || op.op === 'replace') {
      const current = doc.getIn(path, true);
      // A scalar replaced by a scalar keeps its node: its comment and, for the same type, its quoting.
      if (isScalar(current) && (op.value === null || typeof op.value !== 'object')) {
        if (typeof current.value !== typeof op.value) current.type = undefined;
        current.value = op.value;
      } else doc.setIn(path, doc.createNode(op.value));
    } else throw new Error(`unexpected patch operation ${op.op}`);
  }
  if (annotationRemoved) {
    const annotations = [...prefix, 'metadata', 'annotations'];
    const node = doc.getIn(annotations, true);
    if (isMap(node) && node.items.length === 0) deletePair(doc, annotations);
  }
  const comments = lost(before, commentsUnder(root()));
  const out: PatchedComments = { comments, removed };
  if (comments.length > 0 && options.commentTarget !== undefined) {
    if (commentAbove(doc, [...prefix, ...options.commentTarget], comments))
      out.movedTo = fieldPath(options.commentTarget);
  }
  return out;
}
