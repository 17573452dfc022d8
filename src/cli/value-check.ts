// The check behind `migrate`'s whole-file re-render: every plain scalar the migration did not touch (a number, a
// boolean, null, an unquoted string) must come back with the text it was written with. yaml reads a plain scalar into
// a JavaScript value and writes that value back, which rounds 12345678901234567890 and MaxInt64
// (9223372036854775807, a valid int64 that Kubernetes reads exactly) and turns 1e400 into .inf or null. Pure over
// parsed documents; knows nothing of files.
import { isMap, isScalar, isSeq, type Document, type Node } from 'yaml';

/** The plain scalars of a document by path (JSON array of keys and indexes), with the text they were written with. */
function plainScalars(doc: Document.Parsed): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (node: unknown, path: (string | number)[]): void => {
    if (isMap(node))
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        walk(pair.value, [...path, key]);
      }
    else if (isSeq(node)) node.items.forEach((item, i) => walk(item, [...path, i]));
    else if (isScalar(node) && node.type === 'PLAIN' && typeof node.source === 'string')
      out.set(JSON.stringify(path), node.source);
  };
  walk((doc as { contents: Node | null }).contents, []);
  return out;
}

/** Is `path` (a JSON array text) at or under one of `edited` (JSON arrays of keys and indexes as strings)? */
function isUnder(path: string, edited: readonly string[][]): boolean {
  const parts = (JSON.parse(path) as (string | number)[]).map(String);
  return edited.some((prefix) => prefix.length <= parts.length && prefix.every((p, i) => parts[i] === p));
}

/**
 * The first plain scalar outside `edited` (per document) that `after` writes differently from `before`, as
 * `{document, path, was, now}`; undefined when every one is written as it was.
 */
export function changedPlainScalar(
  before: readonly Document.Parsed[],
  after: readonly Document.Parsed[],
  edited: ReadonlyMap<number, string[][]>,
): { document: number; path: string; was: string; now: string | undefined } | undefined {
  for (let i = 0; i < before.length; i++) {
    const was = plainScalars(before[i] as Document.Parsed);
    const now = after[i] !== undefined ? plainScalars(after[i] as Document.Parsed) : new Map<string, string>();
    const skip = edited.get(i) ?? [];
    for (const [path, text] of was) {
      if (isUnder(path, skip)) continue;
      if (now.get(path) !== text) return { document: i, path, was: text, now: now.get(path) };
    }
  }
  return undefined;
}
