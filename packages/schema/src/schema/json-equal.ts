// Deep equality for JSON-shaped data (decoded Kubernetes objects and probes), with node:util's isDeepStrictEqual
// verdicts on them: primitives by Object.is, the same prototype, the same own enumerable keys (an array's holes and
// length included), equal values under each. Our own few lines instead of node:util, so the schema library runs in a
// browser. A Date compares by its time; any other non-plain object (a Map, a class instance) only to itself. Pure.

const hasOwn = Object.prototype.hasOwnProperty;

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const proto = Object.getPrototypeOf(a) as unknown;
  if (proto !== Object.getPrototypeOf(b)) return false;
  if (Array.isArray(a)) {
    if (a.length !== (b as unknown[]).length) return false;
  } else if (a instanceof Date) {
    if (!Object.is(a.getTime(), (b as Date).getTime())) return false;
  } else if (proto !== Object.prototype && proto !== null) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!hasOwn.call(b, key)) return false;
    if (!jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}
