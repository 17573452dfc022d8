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
  return parseQuantityString(trimGoSpace(value));
}

const TWO_TO_THE_63 = 2 ** 63;
/** White space as Go's unicode.IsSpace sees it (what strings.TrimSpace removes). */
function isGoSpace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x20 ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** strings.TrimSpace, by scanning from both ends (a `\s+$` pattern backtracks quadratically on a long inner run). */
function trimGoSpace(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isGoSpace(value.charCodeAt(start))) start++;
  while (end > start && isGoSpace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

const parseQuantityString = memoize((value: string): bigint | undefined => {
  const m = QUANTITY.exec(value);
  if (m === null) return undefined;
  const num = m[1] ?? '';
  const suffix = m[2] ?? '';
  const negative = num.startsWith('-');
  const unsigned = num.startsWith('-') || num.startsWith('+') ? num.slice(1) : num;
  // A number is digits with at most one point and at least one digit ("1", "1.", "1.5", ".5"). Checked by scanning:
  // the regular expression this replaces backtracked quadratically on "1111...1.1.1" (a 300 KB value took minutes).
  const point = unsigned.indexOf('.');
  if (point !== unsigned.lastIndexOf('.') || unsigned.length === (point < 0 ? 0 : 1)) return undefined;
  const intPart = point < 0 ? unsigned : unsigned.slice(0, point);
  const frac = point < 0 ? '' : unsigned.slice(point + 1);
  // The value is digits * mult * 10^exp nano-units; only the significant digits count.
  const digits = (intPart + frac).replace(LEADING_ZEROS, '');
  if (digits === '') return 0n;
  let exp = -frac.length + 9;
  let mult = 1n;
  if (suffix in BINARY) mult = BINARY[suffix] ?? 1n;
  else if (/^[eE]/.test(suffix)) exp += Number(suffix.slice(1));
  else exp += DECIMAL_EXP[suffix] ?? 0;
  // At most 10^order nano-units (a binary multiplier is below 10^19): only values of a bounded size are built.
  const order = digits.length + exp + (mult === 1n ? 0 : 19);
  if (order > MAX_ORDER) return negative ? -HUGE : HUGE;
  if (order <= 0) return 0n; // below one nano-unit: truncated toward zero
  let v: bigint;
  if (exp >= 0) v = BigInt(digits) * mult * 10n ** BigInt(exp);
  else if (mult === 1n)
    v = BigInt(digits.slice(0, digits.length + exp)); // truncation is dropping digits
  else {
    // Digits far below the nano-unit cannot change it beyond the guard kept; drop them before building the number.
    const drop = Math.max(0, Math.min(digits.length - GUARD_DIGITS, -exp - GUARD_DIGITS));
    v = (BigInt(digits.slice(0, digits.length - drop)) * mult) / 10n ** BigInt(-exp - drop);
  }
  return negative ? -v : v;
});

const LEADING_ZEROS = /^0+/;

/**
 * Values are built exactly up to 10^MAX_ORDER nano-units and capped there: `1e30000000` is 11 bytes and its value in
 * full 100 million bits (seconds of CPU), and a 2.5 MB run of digits took a second. Past 10^80 nano-units a value is
 * still far above MaxInt64 (about 10^28 nano), which is all Karmada's rules ask of it (resource models end at
 * MaxInt64, so such a value is invalid wherever it stands); only the order between two such values is lost.
 */
const MAX_ORDER = 80;
const HUGE = 10n ** BigInt(MAX_ORDER);
/** Digits kept below the nano-unit for a binary suffix on a long fraction (an error below 10^-100 of a nano-unit). */
const GUARD_DIGITS = 120;

/** Go's math.MaxInt64, the upper bound Karmada requires of the last resource model. */
export const MAX_INT64_NANO = 9223372036854775807n * 1_000_000_000n;
