// A deep copy for JSON-shaped data (what Kubernetes objects are once decoded): plain objects, arrays and primitives
// are copied by a direct walk, several times faster than structuredClone on the webhook's hot path; anything else
// (a Date, a Map, a class instance) is handed to structuredClone, so nothing is copied less faithfully. Pure.

export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i] as unknown);
    return out as T;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const copy = cloneJson((value as Record<string, unknown>)[key]);
    // JSON.parse makes "__proto__" an own key; an assignment would set the copy's prototype instead.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out as T;
}
