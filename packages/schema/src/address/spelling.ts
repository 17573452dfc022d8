// Reads an address in every spelling that reaches a socket: IPv4 as the WHATWG URL host parser and inet_aton read it
// (hexadecimal, octal, one to four parts, a trailing dot), IPv6 with brackets, a zone or a dotted tail, and the IPv4
// address that an IPv6 form carries; and the strict textual forms (net.isIP's). Pure: no I/O, no import, nothing of
// Node's: it runs in the schema library's browser bundle as well as in the probe engine.

/** How an IPv6 address carries an IPv4 one. */
export type Embedding = 'IPv4-mapped' | 'IPv4-compatible' | 'IPv4-translated' | 'NAT64' | '6to4';

export type ParsedAddress =
  | { family: 4; value: number }
  | { family: 6; value: bigint; text: string; embedded?: { kind: Embedding; value: number } };

/** The address as it is dialled and shown: dotted decimal, or the IPv6 text given (no brackets, no zone). */
export function addressText(a: ParsedAddress): string {
  return a.family === 4 ? formatIPv4(a.value) : a.text;
}

const MAX_IPV4 = 0xffffffff;

/** One part of an IPv4 spelling (WHATWG "IPv4 number parser"): 0x.. hexadecimal, 0.. octal, else decimal. */
function ipv4Number(s: string, from: number, to: number): number {
  let radix = 10;
  if (to - from >= 2 && s.charCodeAt(from) === 48 /* 0 */) {
    const c = s.charCodeAt(from + 1) | 0x20;
    if (c === 120 /* x */) {
      radix = 16;
      from += 2;
    } else {
      radix = 8;
      from += 1;
    }
  }
  if (from === to) return radix === 10 ? -1 : 0; // "0x" reads as 0; an empty part is no number
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    let d: number;
    if (c >= 48 && c <= 57) d = c - 48;
    else if (radix === 16 && (c | 0x20) >= 97 && (c | 0x20) <= 102) d = (c | 0x20) - 87;
    else return -1;
    if (d >= radix) return -1;
    // Past 2^32 the value is out of range whatever follows; stop growing so the arithmetic stays exact.
    n = n > MAX_IPV4 ? n : n * radix + d;
  }
  return n;
}

/**
 * The IPv4 address `host` spells, as an unsigned 32-bit number, or undefined when it spells none (a DNS name, or a
 * string that neither the URL parser nor inet_aton reads as an address). One pass, no allocation: it runs on every
 * probe target at admission.
 */
export function parseIPv4(host: string): number | undefined {
  let end = host.length;
  // A trailing dot is dropped, as the URL parser does ("1.2.3.4." is 1.2.3.4).
  if (end > 0 && host.charCodeAt(end - 1) === 46) end--;
  if (end === 0) return undefined;
  let value = 0; // the parts before the last, 0-255 each
  let count = 0;
  let start = 0;
  for (let i = 0; i <= end; i++) {
    if (i < end && host.charCodeAt(i) !== 46) continue;
    const n = ipv4Number(host, start, i);
    if (n < 0) return undefined;
    if (i === end) {
      // The last part fills the bytes the others left: a.b.c is a.b.(c as 16 bits), one number is all 32.
      const room = 2 ** (8 * (4 - count));
      return n < room ? value * room + n : undefined;
    }
    if (count === 3 || n > 255) return undefined;
    value = value * 256 + n;
    count++;
    start = i + 1;
  }
  return undefined;
}

export function formatIPv4(n: number): string {
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/** A strict dotted-quad (the tail of an IPv6 address): four decimal parts 0-255, no leading zeros. */
function dottedQuad(s: string): number | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let v = 0;
  for (const p of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    v = v * 256 + n;
  }
  return v;
}

/** The IPv6 address `host` spells (brackets and a `%zone` allowed), as a 128-bit number, or undefined. */
export function parseIPv6(host: string): bigint | undefined {
  let s = host;
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone >= 0) {
    if (zone === s.length - 1) return undefined;
    s = s.slice(0, zone);
  }
  if (s.length < 2 || s.length > 45) return undefined;
  const words: number[] = [];
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const readGroups = (part: string, allowV4: boolean): number[] | undefined => {
    if (part === '') return [];
    const groups = part.split(':');
    const out: number[] = [];
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i] as string;
      if (allowV4 && i === groups.length - 1 && g.includes('.')) {
        const v4 = dottedQuad(g);
        if (v4 === undefined) return undefined;
        out.push(Math.floor(v4 / 65536), v4 & 0xffff);
        continue;
      }
      if (!/^[0-9A-Fa-f]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = readGroups(halves[0] as string, halves.length === 1);
  if (head === undefined) return undefined;
  if (halves.length === 2) {
    const tail = readGroups(halves[1] as string, true);
    if (tail === undefined || head.length + tail.length > 7) return undefined;
    words.push(...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail);
  } else {
    if (head.length !== 8) return undefined;
    words.push(...head);
  }
  let v = 0n;
  for (const w of words) v = (v << 16n) | BigInt(w);
  return v;
}

const LOW32 = 0xffffffffn;
const NAT64_PREFIX = 0x0064ff9b0000000000000000n; // 64:ff9b::/96, the top 96 bits

/** The IPv4 address an IPv6 address carries, and how; undefined for :: and ::1 and for other addresses. */
export function embeddedIPv4(v: bigint): { kind: Embedding; value: number } | undefined {
  const top = v >> 32n;
  const low = Number(v & LOW32);
  if (top === 0xffffn) return { kind: 'IPv4-mapped', value: low };
  if (top === 0n) return v > 1n ? { kind: 'IPv4-compatible', value: low } : undefined;
  if (top === 0xffff0000n) return { kind: 'IPv4-translated', value: low };
  if (top === NAT64_PREFIX) return { kind: 'NAT64', value: low };
  if (v >> 112n === 0x2002n) return { kind: '6to4', value: Number((v >> 80n) & LOW32) };
  return undefined;
}

/**
 * The address `host` spells, in any form a socket, a resolver or a URL accepts, or undefined for a DNS name (which
 * only resolution can turn into an address). `addressText` gives its canonical text.
 */
export function parseAddress(host: string): ParsedAddress | undefined {
  const h = host;
  if (h.includes(':')) {
    const v = parseIPv6(h);
    if (v === undefined) return undefined;
    let text = h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
    const zone = text.indexOf('%');
    if (zone >= 0) text = text.slice(0, zone);
    const embedded = embeddedIPv4(v);
    return embedded === undefined ? { family: 6, value: v, text } : { family: 6, value: v, text, embedded };
  }
  let v4 = parseIPv4(h);
  // Non-ASCII digits (full-width and the like) become ASCII as the URL parser's domain-to-ASCII step does.
  // eslint-disable-next-line no-control-regex
  if (v4 === undefined && /[^\x00-\x7f]/.test(h)) {
    const ascii = hostToASCII(h);
    if (ascii !== '' && !ascii.includes(':')) v4 = parseIPv4(ascii);
  }
  return v4 === undefined ? undefined : { family: 4, value: v4 };
}

/**
 * The WHATWG URL host parser's result for `host` as a special URL's hostname (UTS #46 mapping, punycode, IPv4
 * numbers made dotted), or '' when it is no host: what node:url's domainToASCII returns (Node sets the hostname of
 * `ws://x` with ada's set_hostname). The URL class is the same parser in Node and in every browser, so no IDNA table
 * is shipped. A refused set leaves the hostname as it was: set on two URLs, a host that maps to `x` gives `x` on both.
 */
export function hostToASCII(host: string): string {
  if (host === '') return '';
  const a = new URL('ws://x');
  a.hostname = host;
  if (a.hostname !== 'x') return a.hostname;
  const b = new URL('ws://y');
  b.hostname = host;
  return b.hostname === 'x' ? 'x' : '';
}

const V4_SEG = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
const V4_STR = `(?:${V4_SEG}\\.){3}${V4_SEG}`;
const V6_SEG = '(?:[0-9a-fA-F]{1,4})';
const IPV4_TEXT = new RegExp(`^${V4_STR}$`);
const IPV6_TEXT = new RegExp(
  '^(?:' +
    `(?:${V6_SEG}:){7}(?:${V6_SEG}|:)|` +
    `(?:${V6_SEG}:){6}(?:${V4_STR}|:${V6_SEG}|:)|` +
    `(?:${V6_SEG}:){5}(?::${V4_STR}|(?::${V6_SEG}){1,2}|:)|` +
    `(?:${V6_SEG}:){4}(?:(?::${V6_SEG}){0,1}:${V4_STR}|(?::${V6_SEG}){1,3}|:)|` +
    `(?:${V6_SEG}:){3}(?:(?::${V6_SEG}){0,2}:${V4_STR}|(?::${V6_SEG}){1,4}|:)|` +
    `(?:${V6_SEG}:){2}(?:(?::${V6_SEG}){0,3}:${V4_STR}|(?::${V6_SEG}){1,5}|:)|` +
    `(?:${V6_SEG}:){1}(?:(?::${V6_SEG}){0,4}:${V4_STR}|(?::${V6_SEG}){1,6}|:)|` +
    `(?::(?:(?::${V6_SEG}){0,5}:${V4_STR}|(?::${V6_SEG}){1,7}|:))` +
    ')(?:%[0-9a-zA-Z-.:]{1,})?$',
);

/**
 * node:net's isIP, portably (the same expressions as Node 20's lib/internal/net.js): 4 for a strict dotted quad, 6 for
 * an IPv6 text (a `%zone` allowed, no brackets), 0 for anything else, including the looser spellings parseAddress
 * reads. test/unit/address-spelling.test.ts holds it to node:net.
 */
export function ipFamily(text: string): 0 | 4 | 6 {
  if (IPV4_TEXT.test(text)) return 4;
  if (IPV6_TEXT.test(text)) return 6;
  return 0;
}
