// A bounded memo for pure functions of one string (name checks, quantities, URLs, PEM bundles): a webhook sees the
// same values again and again, and these checks dominate validation time when recomputed. Pure.

/** Wraps `fn` with a cache of at most `max` entries; the whole cache is dropped when full (cheap and bounded). */
export function memoize<R>(fn: (s: string) => R, max = 4096): (s: string) => R {
  const cache = new Map<string, R>();
  return (s: string): R => {
    const hit = cache.get(s);
    if (hit !== undefined || cache.has(s)) return hit as R;
    const value = fn(s);
    if (cache.size >= max) cache.clear();
    cache.set(s, value);
    return value;
  };
}
