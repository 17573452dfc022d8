// The deny list: addresses a probe may never connect to (link-local, cloud metadata), checked on the address actually
// dialled, after DNS, so a name cannot be used to slip past the webhook's check. Depends only on node:net and node:dns.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';

/** Link-local and cloud metadata addresses (Alibaba's 100.100.100.200 lies outside link-local). Loopback stays
 * allowed: the tests and the bench run there. */
export const DEFAULT_DENY_LIST: readonly string[] = Object.freeze([
  '169.254.0.0/16',
  'fe80::/10',
  '169.254.169.254/32',
  'fd00:ec2::254/128',
  '100.100.100.200/32',
]);

interface Cidr {
  text: string;
  prefix: number;
  family: 4 | 6;
  bits: bigint;
  mask: bigint;
}

/** Thrown (as a connect error) when the dialled address is on the deny list. */
export class AddressDeniedError extends Error {
  readonly code = 'EADDRDENIED';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly cidr: string,
  ) {
    super(
      host === address
        ? `address ${address} is denied by the probe's deny list (${cidr})`
        : `address ${address} of host "${host}" is denied by the probe's deny list (${cidr})`,
    );
    this.name = 'AddressDeniedError';
  }
}

function ipv4ToBigInt(ip: string): bigint {
  return ip.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function ipv6ToBigInt(ip: string): bigint {
  let text = ip.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two hextets.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1] !== undefined) {
    const n = ipv4ToBigInt(v4[1]);
    text = text.slice(0, v4.index) + `${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? 0 : 8 - headParts.length - tailParts.length;
  const parts = [...headParts, ...Array<string>(fill).fill('0'), ...tailParts];
  return parts.reduce((acc, part) => (acc << 16n) | BigInt(parseInt(part, 16)), 0n);
}

/** The address in canonical numeric form; an IPv4-mapped IPv6 address counts as the IPv4 address it carries. */
function toNumeric(ip: string): { family: 4 | 6; value: bigint } | undefined {
  const family = isIP(ip);
  if (family === 4) return { family: 4, value: ipv4ToBigInt(ip) };
  if (family === 6) {
    const value = ipv6ToBigInt(ip);
    if (value >> 32n === 0xffffn) return { family: 4, value: value & 0xffffffffn };
    return { family: 6, value };
  }
  return undefined;
}

export function parseCidr(text: string): Cidr {
  const [addr = '', prefixText] = text.split('/');
  const parsed = toNumeric(addr);
  if (parsed === undefined) throw new Error(`deny list: "${text}" is not a CIDR (an IP address, optionally /prefix)`);
  const width = parsed.family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? width : Number(prefixText);
  if (
    !Number.isInteger(prefix) ||
    prefix < 0 ||
    prefix > width ||
    (prefixText !== undefined && !/^\d+$/.test(prefixText))
  )
    throw new Error(`deny list: "${text}" has an invalid prefix length (0-${width})`);
  const all = (1n << BigInt(width)) - 1n;
  const mask = (all << BigInt(width - prefix)) & all;
  return { text, prefix, family: parsed.family, bits: parsed.value & mask, mask };
}

/** A compiled deny list. */
export class AddressGuard {
  private readonly cidrs: Cidr[];

  constructor(denyList: readonly string[] = DEFAULT_DENY_LIST) {
    // Most specific first, so a message names the metadata address rather than all of link-local.
    this.cidrs = denyList.map(parseCidr).sort((a, b) => b.prefix - a.prefix);
  }

  /** The deny-list entry that covers `ip`, or undefined when the address may be dialled. */
  deniedBy(ip: string): string | undefined {
    const n = toNumeric(ip);
    if (n === undefined) return undefined;
    for (const c of this.cidrs) if (c.family === n.family && (n.value & c.mask) === c.bits) return c.text;
    return undefined;
  }

  /** Throws AddressDeniedError when `host` is an IP literal on the list (sockets skip `lookup` for literals). */
  checkLiteral(host: string): void {
    const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    if (isIP(bare) === 0) return;
    const cidr = this.deniedBy(bare);
    if (cidr !== undefined) throw new AddressDeniedError(bare, bare, cidr);
  }

  /** A `lookup` for net/tls/http sockets that resolves as usual and then refuses denied addresses. */
  readonly lookup = (
    hostname: string,
    options: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) {
        callback(err, options.all === true ? [] : '', 0);
        return;
      }
      for (const a of addresses) {
        const cidr = this.deniedBy(a.address);
        if (cidr !== undefined) {
          callback(new AddressDeniedError(hostname, a.address, cidr), options.all === true ? [] : '', 0);
          return;
        }
      }
      if (options.all === true) callback(null, addresses);
      else {
        const first = addresses[0];
        if (first === undefined) {
          const e: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          e.code = 'ENOTFOUND';
          callback(e, '', 0);
        } else callback(null, first.address, first.family);
      }
    });
  };

  /** Resolves `host` to one allowed address (for clients, like gRPC, that cannot take a custom lookup). */
  resolve(host: string): Promise<string> {
    return new Promise((resolve, reject) => {
      try {
        this.checkLiteral(host);
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
        return;
      }
      const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
      if (isIP(bare) !== 0) {
        resolve(bare);
        return;
      }
      this.lookup(bare, {}, (err, address) => {
        if (err) reject(err);
        else resolve(address as string);
      });
    });
  }
}

const guards = new Map<string, AddressGuard>();

/** A cached guard for a deny list (compiled once per distinct list). */
export function guardFor(denyList: readonly string[] | undefined): AddressGuard {
  const list = denyList ?? DEFAULT_DENY_LIST;
  const key = list.join(',');
  let g = guards.get(key);
  if (g === undefined) {
    g = new AddressGuard(list);
    if (guards.size < 64) guards.set(key, g);
  }
  return g;
}
