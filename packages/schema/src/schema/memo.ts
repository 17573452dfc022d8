// A memo for pure functions of one string (name checks, quantities, URLs, PEM bundles): a webhook sees the same values
// again and again, and these checks dominate validation time when recomputed (bench/schema: about 8x). The memo
// outlives every request, so an attacker chooses what goes in: it is a budget in bytes, not a count of entries. Pure.

export interface MemoOptions<R> {
  /** Keys longer than this (UTF-16 code units) are computed every time and never kept. Default 256. */
  maxKeyLength?: number;
  /** The most bytes the memo holds, keys and values as `weigh` estimates them; it is emptied when full. Default 1 MiB. */
  maxBytes?: number;
  /** The estimated bytes of a value; `Infinity` keeps it out. Default `estimateBytes`. */
  weigh?: (value: R) => number;
}

export interface MemoStats {
  /** The bytes held now, as estimated. */
  bytes: number;
  /** The entries held now. */
  size: number;
  maxBytes: number;
}

export const MEMO_DEFAULTS = { maxKeyLength: 256, maxBytes: 1 << 20 } as const;

/** A Map entry with its hash-table slot, on top of key and value. */
const ENTRY_BYTES = 64;
const MAX_DEPTH = 6;

/**
 * A generous estimate of the heap a value takes: strings at two bytes a character, a fixed header for everything
 * else. Values nested deeper than a few levels, and bigints above 2^256, are `Infinity` (not worth keeping).
 */
export function estimateBytes(value: unknown, depth = 0): number {
  if (depth > MAX_DEPTH) return Infinity;
  switch (typeof value) {
    case 'string':
      return 16 + 2 * value.length;
    case 'number':
    case 'boolean':
    case 'undefined':
      return 8;
    case 'bigint':
      return value <= 2n ** 256n && value >= -(2n ** 256n) ? 48 : Infinity;
    case 'object': {
      if (value === null) return 8;
      let sum = 0;
      if (Array.isArray(value)) {
        sum = 16 + 8 * value.length;
        for (const item of value) sum += estimateBytes(item, depth + 1);
        return sum;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return Infinity;
      sum = 32;
      for (const [k, v] of Object.entries(value as Record<string, unknown>))
        sum += 16 + 2 * k.length + estimateBytes(v, depth + 1);
      return sum;
    }
    default:
      return Infinity;
  }
}

/** V8 makes no slice or concatenation shorter than this: such a string holds its own characters. */
const V8_SLICED_STRING_MIN_LENGTH = 13;

/**
 * A key that shares no storage with `s`. A short key is often a slice of a much longer string (a prefix cut from a
 * field of megabytes), and V8 keeps the whole parent of a slice alive. Concatenating then slicing flattens into a
 * fresh string of the key's own length; using that as a property name internalizes it, so that later lookups with an
 * equal internalized string compare by identity (a plain copy made every hit about 20 ns slower).
 */
function ownKey(s: string): string {
  if (s.length < V8_SLICED_STRING_MIN_LENGTH) return s;
  const holder: Record<string, true> = {};
  holder[(' ' + s).slice(1)] = true;
  return Object.keys(holder)[0] ?? s;
}

// Statistics are kept beside the memoised functions, not as properties on them: accessors on a hot function made
// bench/schema measurably slower.
const stats = new Map<(s: string) => unknown, () => MemoStats>();

/** The current size of a function made by `memoize`. */
export function memoStats(fn: (s: string) => unknown): MemoStats {
  const get = stats.get(fn);
  if (get === undefined) throw new Error('not a memoized function');
  return get();
}

/** The bytes held by every memo in the process, as estimated. */
export function memoBytes(): number {
  let sum = 0;
  for (const get of stats.values()) sum += get().bytes;
  return sum;
}

/** The sum of every memo's budget: the most that memoisation can ever hold. */
export function memoBudget(): number {
  let sum = 0;
  for (const get of stats.values()) sum += get().maxBytes;
  return sum;
}

/** Wraps `fn` with a memo bounded in bytes that only keeps short keys (see `MemoOptions`). */
export function memoize<R>(fn: (s: string) => R, options: MemoOptions<R> = {}): (s: string) => R {
  const maxKeyLength = options.maxKeyLength ?? MEMO_DEFAULTS.maxKeyLength;
  const maxBytes = options.maxBytes ?? MEMO_DEFAULTS.maxBytes;
  const weigh = options.weigh ?? estimateBytes;
  const cache = new Map<string, R>();
  let bytes = 0;
  const memo = (s: string): R => {
    if (s.length > maxKeyLength) return fn(s);
    const hit = cache.get(s);
    if (hit !== undefined || cache.has(s)) return hit as R;
    const key = ownKey(s);
    // Computed from the copy, so that a value holding (a slice of) its key does not hold the parent either.
    const value = fn(key);
    const cost = ENTRY_BYTES + 2 * key.length + weigh(value);
    if (!(cost <= maxBytes)) return value;
    if (bytes + cost > maxBytes) {
      cache.clear();
      bytes = 0;
    }
    cache.set(key, value);
    bytes += cost;
    return value;
  };
  stats.set(memo, () => ({ bytes, size: cache.size, maxBytes }));
  return memo;
}
