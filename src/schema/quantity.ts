// Kubernetes resource quantities ("500m", "2Gi", "1e3"), parsed exactly enough to compare them.
// Pure. Values are kept as BigInt nano-units so that MaxInt64 and milli-CPU compare without rounding.
import { memoize } from './memo.js';

const QUANTITY = /^([+-]?[0-9.]+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$/;
const BINARY: Record<string, bigint> = {
  Ki: 1n << 10n,
  Mi: 1n << 20n,
  Gi: 1n << 30n,
  Ti: 1n << 40n,
  Pi: 1n << 50n,
  Ei: 1n << 60n,
};
const DECIMAL_EXP: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

export const QUANTITY_ERROR =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** The quantity in nano-units, or undefined when it is not a quantity. */
export function parseQuantity(value: unknown): bigint | undefined {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return undefined;
    // MaxInt64 written as a JSON number (`max: 9223372036854775807` in YAML) reaches us as the nearest double, 2^63:
    // read it as the int64 the apiserver and Karmada read.
    if (Math.abs(value) === TWO_TO_THE_63) return value > 0 ? MAX_INT64_NANO : -MAX_INT64_NANO - 1_000_000_000n;
    return BigInt(value) * 1_000_000_000n;
  }
  if (typeof value !== 'string') return undefined;
  // Kubernetes' Quantity.UnmarshalJSON parses strings.TrimSpace of the text.
  return parseQuantityString(value.replace(GO_SPACE, ''));
}

const TWO_TO_THE_63 = 2 ** 63;
/** Leading and trailing white space as Go's unicode.IsSpace sees it (what strings.TrimSpace removes). */
const GO_SPACE =
  /^[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+|[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+$/g;

const parseQuantityString = memoize((value: string): bigint | undefined => {
  const m = QUANTITY.exec(value);
  if (m === null) return undefined;
  const num = m[1] ?? '';
  const suffix = m[2] ?? '';
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(num)) return undefined;
  const negative = num.startsWith('-');
  const [intPart = '0', frac = ''] = num.replace(/^[+-]/, '').split('.');
  // digits * 10^(exp - frac.length) nano-units
  const digits = BigInt((intPart || '0') + frac);
  let exp = -frac.length + 9;
  let mult = 1n;
  if (suffix in BINARY) mult = BINARY[suffix] ?? 1n;
  else if (/^[eE]/.test(suffix)) exp += Number(suffix.slice(1));
  else exp += DECIMAL_EXP[suffix] ?? 0;
  let v = digits * mult;
  if (exp >= 0) v *= 10n ** BigInt(Math.min(exp, MAX_EXPONENT));
  // Truncated toward zero as before; past the value's own digits that is 0, without building 10^-exp.
  else v = -exp > v.toString().length ? 0n : v / 10n ** BigInt(-exp);
  return negative ? -v : v;
});

/**
 * The largest power of ten a value is multiplied by. `1e30000000` is 11 bytes, and its value in full is 100 million
 * bits (seconds of CPU); capped, every value past 10^64 nano-units is still far above MaxInt64 (about 10^28 nano),
 * which is all Karmada's rules ask of it (resource models end at MaxInt64, so such a value is invalid wherever it
 * stands), and only the order between two such values is lost.
 */
const MAX_EXPONENT = 64;

/** Go's math.MaxInt64, the upper bound Karmada requires of the last resource model. */
export const MAX_INT64_NANO = 9223372036854775807n * 1_000_000_000n;
