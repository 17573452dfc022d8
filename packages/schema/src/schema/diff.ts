// RFC 6902 diff of two JSON documents: replace, add and remove operations, no test operations. The same operations in
// the same order as fast-json-patch's `compare` (test/unit/schema/diff.test.ts holds the two equal on generated
// documents), which migration used before: old keys are walked last to first (changes and removals, recursing into
// objects and arrays present on both sides), then new keys first to last (additions). What differs is the copying:
// `compare` copies every added or replaced value through JSON.stringify and JSON.parse, which was an eighth of the
// mutating webhook's time per review (docs/webhook.md); `diffSharing` hands out `to`'s own values, for a caller that
// serialises the patch at once (the webhook), and `diffPatch` copies them with cloneJson. Pure; iterative over keys,
// recursive only over the depth both documents share.
import { cloneJson } from './clone.js';

export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

/** A JSON Pointer reference token (RFC 6901): `~` as `~0`, `/` as `~1`. */
export function escapePointerToken(token: string): string {
  if (!token.includes('/') && !token.includes('~')) return token;
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** A JSON Pointer reference token back to its key: `~1` as `/`, then `~0` as `~` (in that order, as RFC 6901 says). */
export function unescapePointerToken(token: string): string {
  if (!token.includes('~')) return token;
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

const hasOwn = (holder: object, key: string): boolean => Object.prototype.hasOwnProperty.call(holder, key);

/** Own keys as compare lists them: array indices as strings, else Object.keys. */
function keysOf(value: object): string[] {
  if (!Array.isArray(value)) return Object.keys(value);
  const keys = new Array<string>(value.length);
  for (let i = 0; i < keys.length; i++) keys[i] = String(i);
  return keys;
}

/** `undefined` as `null`, as JSON.stringify writes an array item (and as compare's copy does). */
const valueOf = (value: unknown): unknown => (value === undefined ? null : value);

function walk(from: object, to: object, out: JsonPatchOperation[], path: string): void {
  if (from === to) return;
  const oldHolder = from as Record<string, unknown>;
  const newHolder = to as Record<string, unknown>;
  const toIsArray = Array.isArray(to);
  const sameKind = Array.isArray(from) === toIsArray;
  const newKeys = keysOf(to);
  const oldKeys = keysOf(from);
  let deleted = false;
  for (let t = oldKeys.length - 1; t >= 0; t--) {
    const key = oldKeys[t] as string;
    const oldValue = oldHolder[key];
    if (hasOwn(to, key) && !(newHolder[key] === undefined && oldValue !== undefined && !toIsArray)) {
      const newValue = newHolder[key];
      if (
        typeof oldValue === 'object' &&
        oldValue !== null &&
        typeof newValue === 'object' &&
        newValue !== null &&
        Array.isArray(oldValue) === Array.isArray(newValue)
      ) {
        walk(oldValue, newValue, out, `${path}/${escapePointerToken(key)}`);
      } else if (oldValue !== newValue) {
        out.push({ op: 'replace', path: `${path}/${escapePointerToken(key)}`, value: valueOf(newValue) });
      }
    } else if (sameKind) {
      out.push({ op: 'remove', path: `${path}/${escapePointerToken(key)}` });
      deleted = true;
    } else {
      // An array where an object was (or the reverse), at the top: compare replaces the whole document, once for
      // every old key it does not find; kept so that the two agree operation for operation.
      out.push({ op: 'replace', path, value: to });
    }
  }
  if (!deleted && newKeys.length === oldKeys.length) return;
  for (const key of newKeys) {
    if (!hasOwn(from, key) && newHolder[key] !== undefined) {
      out.push({ op: 'add', path: `${path}/${escapePointerToken(key)}`, value: newHolder[key] });
    }
  }
}

/**
 * The patch from `from` to `to`, whose values are `to`'s own (not copies): serialise it, or copy it, before `to` changes.
 * Both must be objects or arrays.
 */
export function diffSharing(from: object, to: object): JsonPatchOperation[] {
  const out: JsonPatchOperation[] = [];
  walk(from, to, out, '');
  return out;
}

/** An RFC 6902 patch that turns `from` into `to`, with its values copied (replace, add and remove; no test ops). */
export function diffPatch(from: unknown, to: unknown): JsonPatchOperation[] {
  const patch = diffSharing(from as object, to as object);
  for (const op of patch) if ('value' in op) op.value = cloneJson(op.value);
  return patch;
}
