// The one address policy: may a probe target this address? The schema library asks it at admission (so the webhook
// and `cluster-probe validate` do too) and the probe engine asks it at connect time, of the address it dials. The
// default deny list, the one CIDR parser and the verdict live here. Pure: no I/O, nothing of the other layers.
import { addressText, formatIPv4, parseAddress, parseIPv6, type Embedding, type ParsedAddress } from './spelling.js';

/**
 * Ranges a probe may never target unless an operator says otherwise: IPv4 link-local (which holds 169.254.169.254,
 * the AWS, GCP, Azure and OpenStack metadata address), IPv6 link-local, AWS IMDS over IPv6, and Alibaba Cloud's
 * metadata address (outside link-local). Loopback stays allowed: tests and benchmarks run there.
 */
export const DEFAULT_DENY_CIDRS: readonly string[] = Object.freeze([
  '169.254.0.0/16',
  'fe80::/10',
  'fd00:ec2::254/128',
  '100.100.100.200/32',
]);

/** A deny-list entry that is no address range; `detail` says what to write instead. */
export class CidrError extends Error {
  constructor(
    readonly entry: string,
    readonly detail: string,
  ) {
    super(`deny list entry ${JSON.stringify(entry)}: ${detail}`);
    this.name = 'CidrError';
  }
}

export interface Cidr {
  /** As written. */
  text: string;
  /** `address/prefix`, the prefix made explicit. */
  canonical: string;
  family: 4 | 6;
  prefix: number;
}

interface V4Entry {
  text: string;
  prefix: number;
  net: number;
  mask: number;
}

interface V6Entry {
  text: string;
  prefix: number;
  net: bigint;
  mask: bigint;
}

const NOT_A_RANGE = 'not an address range; write it as 169.254.0.0/16 or fe80::/10';
const DOTTED = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function parseEntry(text: string): { cidr: Cidr; v4?: V4Entry; v6?: V6Entry } {
  const slash = text.indexOf('/');
  const address = slash < 0 ? text : text.slice(0, slash);
  const prefixText = slash < 0 ? undefined : text.slice(slash + 1);
  if (prefixText?.includes('/') === true) throw new CidrError(text, NOT_A_RANGE);
  let family: 4 | 6;
  let v4 = 0;
  let v6 = 0n;
  // Entries are written plainly: dotted decimal or IPv6 text, no brackets, no zone, no other IPv4 spelling.
  if (DOTTED.test(address)) {
    family = 4;
    v4 = address.split('.').reduce((acc, p) => acc * 256 + Number(p), 0);
  } else {
    const parsed = /^[0-9A-Fa-f:.]+$/.test(address) ? parseIPv6(address) : undefined;
    if (parsed === undefined) throw new CidrError(text, NOT_A_RANGE);
    family = 6;
    v6 = parsed;
  }
  const max = family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= max))
    throw new CidrError(text, `prefix length must be between 0 and ${max}, inclusive`);
  const cidr: Cidr = { text, canonical: `${address}/${prefix}`, family, prefix };
  // An IPv4-mapped range (::ffff:169.254.0.0/112) is the IPv4 range it maps: mapped addresses are checked as IPv4.
  if (family === 6 && prefix >= 96 && v6 >> 32n === 0xffffn) {
    family = 4;
    v4 = Number(v6 & 0xffffffffn);
    return { cidr, v4: v4Entry(text, prefix - 96, v4) };
  }
  return family === 4 ? { cidr, v4: v4Entry(text, prefix, v4) } : { cidr, v6: v6Entry(text, prefix, v6) };
}

function v4Entry(text: string, prefix: number, value: number): V4Entry {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return { text, prefix, net: (value & mask) >>> 0, mask };
}

function v6Entry(text: string, prefix: number, value: bigint): V6Entry {
  const all = (1n << 128n) - 1n;
  const mask = (all << BigInt(128 - prefix)) & all;
  return { text, prefix, net: value & mask, mask };
}

/** Parses one deny-list entry (`10.0.0.0/8`, `fe80::/10`, or a bare address); throws CidrError naming it. */
export function parseCidr(text: string): Cidr {
  return parseEntry(text).cidr;
}

/** Verdicts a list remembers: hosts of at most 128 characters, at most 512 of them (under 100 KiB in all). */
const VERDICT_KEY_MAX = 128;
const VERDICT_ENTRIES_MAX = 512;

/** A compiled deny list. Entries are tried most specific first, so a verdict names the narrowest range. */
export class DenyList {
  readonly cidrs: readonly string[];
  private readonly v4: V4Entry[] = [];
  private readonly v6: V6Entry[] = [];
  /** Recent verdicts by host (admission sees the same hosts again and again); bounded in bytes, dropped when full. */
  readonly verdicts = new Map<string, AddressVerdict>();

  constructor(cidrs: readonly string[]) {
    this.cidrs = Object.freeze([...cidrs]);
    for (const text of cidrs) {
      const e = parseEntry(text);
      if (e.v4 !== undefined) this.v4.push(e.v4);
      if (e.v6 !== undefined) this.v6.push(e.v6);
    }
    this.v4.sort((a, b) => b.prefix - a.prefix);
    this.v6.sort((a, b) => b.prefix - a.prefix);
  }

  /** The entry that holds the IPv4 address `value` (an unsigned 32-bit number), if any. */
  matchIPv4(value: number): string | undefined {
    for (const e of this.v4) if ((value & e.mask) >>> 0 === e.net) return e.text;
    return undefined;
  }

  /** The entry that holds the IPv6 address `value` itself (not the IPv4 address it may carry), if any. */
  matchIPv6(value: bigint): string | undefined {
    for (const e of this.v6) if ((value & e.mask) === e.net) return e.text;
    return undefined;
  }
}

const DEFAULT_LIST = new DenyList(DEFAULT_DENY_CIDRS);
const byArray = new WeakMap<readonly string[], DenyList>();
const byText = new Map<string, DenyList>();

/**
 * The compiled list for `cidrs` (the default list when undefined; `[]` denies only the unspecified addresses).
 * Remembered by the array passed (callers such as the webhook pass the same one every time), then by content in a
 * small map. Throws CidrError for a malformed entry.
 */
export function denyListFor(cidrs: readonly string[] | undefined): DenyList {
  if (cidrs === undefined || cidrs === DEFAULT_DENY_CIDRS) return DEFAULT_LIST;
  const known = byArray.get(cidrs);
  if (known !== undefined) return known;
  // JSON, not a join: [] and [''], or ['a,b'] and ['a', 'b'], must not share an entry.
  const key = JSON.stringify(cidrs);
  let list = byText.get(key);
  if (list === undefined) {
    list = new DenyList(cidrs);
    if (byText.size >= 16) byText.clear();
    byText.set(key, list);
  }
  byArray.set(cidrs, list);
  return list;
}

export type AddressVerdict =
  | { allowed: true; address?: ParsedAddress }
  | {
      allowed: false;
      address: ParsedAddress;
      /** `unspecified`: 0.0.0.0 or :: in any spelling, which connect() sends to the local host. */
      reason: 'unspecified' | 'denied';
      /** The deny-list entry, when reason is `denied`. */
      cidr?: string;
      /** Set when the verdict is about the IPv4 address an IPv6 address carries. */
      via?: { kind: Embedding; ipv4: string };
    };

const ALLOWED_NAME: AddressVerdict = Object.freeze({ allowed: true });

/** The verdict on an address already parsed. */
export function checkParsed(address: ParsedAddress, list: DenyList): AddressVerdict {
  if (address.family === 4) {
    if (address.value === 0) return { allowed: false, address, reason: 'unspecified' };
    const cidr = list.matchIPv4(address.value);
    return cidr === undefined ? { allowed: true, address } : { allowed: false, address, reason: 'denied', cidr };
  }
  if (address.value === 0n) return { allowed: false, address, reason: 'unspecified' };
  const cidr = list.matchIPv6(address.value);
  if (cidr !== undefined) return { allowed: false, address, reason: 'denied', cidr };
  const e = address.embedded;
  if (e !== undefined) {
    const via = { kind: e.kind, ipv4: formatIPv4(e.value) };
    if (e.value === 0) return { allowed: false, address, reason: 'unspecified', via };
    const inner = list.matchIPv4(e.value);
    if (inner !== undefined) return { allowed: false, address, reason: 'denied', cidr: inner, via };
  }
  return { allowed: true, address };
}

/**
 * THE policy: may a probe target `host`? `host` is an address in any spelling a resolver, connect() or the URL
 * parser accepts, or a DNS name. A name is allowed here: only resolution turns it into an address, and the probe
 * engine asks again, with the resolved address, when it connects. The unspecified addresses are always denied.
 */
export function checkAddress(host: string, list: DenyList = DEFAULT_LIST): AddressVerdict {
  const remember = host.length <= VERDICT_KEY_MAX;
  if (remember) {
    const known = list.verdicts.get(host);
    if (known !== undefined) return known;
  }
  const address = parseAddress(host);
  const verdict = address === undefined ? ALLOWED_NAME : Object.freeze(checkParsed(address, list));
  if (remember) {
    if (list.verdicts.size >= VERDICT_ENTRIES_MAX) list.verdicts.clear();
    list.verdicts.set(host, verdict);
  }
  return verdict;
}

/** `host` as a message shows it: with the address it spells, or the IPv4 address it carries, when that differs. */
export function spelledAs(host: string, verdict: Extract<AddressVerdict, { allowed: false }>): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  // ::ffff:169.254.169.254 shows what it carries already; ::ffff:a9fe:a9fe and 64:ff9b::a9fe:a9fe do not.
  if (verdict.via !== undefined && !bare.endsWith(`:${verdict.via.ipv4}`))
    return `${bare} (${verdict.via.kind} address of ${verdict.via.ipv4})`;
  if (verdict.address.family === 6) return bare;
  const text = addressText(verdict.address);
  return bare === text ? bare : `${bare} (${text})`;
}

/** What is wrong, after the address: `is in the denied address range C` or `is the unspecified address`. */
export function deniedBecause(verdict: Extract<AddressVerdict, { allowed: false }>): string {
  return verdict.reason === 'unspecified'
    ? "is the unspecified address, which connects to the prober's own host"
    : `is in the denied address range ${verdict.cidr ?? ''}`;
}
