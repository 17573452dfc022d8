// What the generated validators (packages/schema/src/schema/generated/, ajv's standalone code for schemas/) call at run time: the
// formats our schemas name and the helpers of our own keywords. scripts/generate/validators.ts gives ajv these very
// values, so the code it generates and the checks it compiles at build time are one definition.
// Pure: no I/O, and no ajv (importing the schema library must not load a compiler).
import { fullFormats } from 'ajv-formats/dist/formats.js';

/** A format as ajv's generated code uses it: a check of values of one JSON type. */
export interface RuntimeFormat {
  type?: 'string' | 'number';
  validate: (value: never) => boolean;
}

/**
 * The formats the schemas use, by name: RFC 3339 `date-time` from ajv-formats (strict time zone), and the OpenAPI
 * integer formats (an int64 must also be exact in a JSON number, hence safe).
 */
export const formats: Readonly<Record<'date-time' | 'int32' | 'int64', RuntimeFormat>> = {
  'date-time': fullFormats['date-time'] as RuntimeFormat,
  int32: { type: 'number', validate: (n: number) => n >= -2147483648 && n <= 2147483647 },
  int64: { type: 'number', validate: (n: number) => Number.isSafeInteger(n) },
};

/** Unicode code points in `s` (a surrogate pair is one), as kube-apiserver counts a string's runes. */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    n++;
  }
  return n;
}

/** `x-kubernetes-int-or-string`: an integer or a string. */
export function isIntOrString(data: unknown): boolean {
  return typeof data === 'string' || (typeof data === 'number' && Number.isInteger(data));
}

/** `x-kubernetes-list-map-keys`: no two object items of a list-type map have the same values at `keys`. */
export function listMapKeysUnique(keys: readonly string[], data: readonly unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of data) {
    if (item === null || typeof item !== 'object') continue;
    const id = JSON.stringify(keys.map((k) => (item as Record<string, unknown>)[k]));
    if (seen.has(id)) return false;
    seen.add(id);
  }
  return true;
}
