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

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * A decimal number's exact value as `sign digits e exponent`, with no leading or trailing zeros (every zero is "0"),
 * or undefined for text that is not one: `1.0`, `1e0` and `+1` are the same number, written differently.
 */
function exactDecimal(text: string): string | undefined {
  const m = DECIMAL.exec(text);
  if (m === null || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const whole = m[2] ?? '';
  const fraction = m[3] ?? '';
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (digits === '') return '0';
  let exponent = BigInt(m[4] ?? '0') - BigInt(fraction.length);
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  exponent += BigInt(trailing);
  return `${m[1] === '-' ? '-' : ''}${digits}e${exponent}`;
}

/** Are two plain scalars' texts the same value: the same text, or the same decimal number written another way? */
function sameValue(was: string, now: string | undefined): boolean {
  if (now === undefined) return false;
  if (was === now) return true;
  const a = exactDecimal(was);
  return a !== undefined && a === exactDecimal(now);
}

/** Is `path` (a JSON array text) at or under one of `edited` (JSON arrays of keys and indexes as strings)? */
function isUnder(path: string, edited: readonly string[][]): boolean {
  const parts = (JSON.parse(path) as (string | number)[]).map(String);
  return edited.some((prefix) => prefix.length <= parts.length && prefix.every((p, i) => parts[i] === p));
}

/** Each document's plain scalars, taken before an edit changes the documents (`before` of changedPlainScalar). */
export function plainScalarsOf(documents: readonly Document.Parsed[]): Map<string, string>[] {
  return documents.map(plainScalars);
}

/**
 * The first plain scalar outside `edited` (per document) that `after` writes as another value than `before`, as
 * `{document, path, was, now}`; undefined when every one is written as it was.
 */
export function changedPlainScalar(
  before: readonly ReadonlyMap<string, string>[],
  after: readonly Document.Parsed[],
  edited: ReadonlyMap<number, string[][]>,
): { document: number; path: string; was: string; now: string | undefined } | undefined {
  for (let i = 0; i < before.length; i++) {
    const was = before[i] as ReadonlyMap<string, string>;
    const now = after[i] !== undefined ? plainScalars(after[i] as Document.Parsed) : new Map<string, string>();
    const skip = edited.get(i) ?? [];
    for (const [path, text] of was) {
      if (isUnder(path, skip)) continue;
      if (!sameValue(text, now.get(path))) return { document: i, path, was: text, now: now.get(path) };
    }
  }
  return undefined;
}
