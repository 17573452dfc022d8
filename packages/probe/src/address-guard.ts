// The connect-time half of the one address policy (src/address): every address a probe dials is judged after DNS,
// so a name cannot slip past admission, and an address in any spelling is judged as the address it spells. Depends
// only on node:dns and the shared policy.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import {
  addressText,
  checkAddress,
  deniedBecause,
  DEFAULT_DENY_CIDRS,
  denyListFor,
  parseAddress,
  parseCidr as parseEntry,
  spelledAs,
  type AddressVerdict,
  type Cidr,
  type DenyList,
} from '@karmada-cluster-probe/schema/address';

/** The default deny list, the same array the schema library uses (one home: packages/schema/src/address). */
export const DEFAULT_DENY_LIST: readonly string[] = DEFAULT_DENY_CIDRS;

type Denied = Extract<AddressVerdict, { allowed: false }>;

/** Thrown (as a connect error) when the dialled address is denied by the policy. */
export class AddressDeniedError extends Error {
  readonly code = 'EADDRDENIED';
  /** The deny-list entry, or `unspecified address` for 0.0.0.0 and ::. */
  readonly cidr: string;
  constructor(
    readonly host: string,
    readonly address: string,
    verdict: Denied,
  ) {
    const shown = spelledAs(address, verdict);
    const why =
      verdict.reason === 'unspecified'
        ? `${deniedBecause(verdict)}; probes never connect to it`
        : `is denied by the probe's deny list (${verdict.cidr ?? ''})`;
    super(host === address ? `address ${shown} ${why}` : `address ${shown} of host "${host}" ${why}`);
    this.name = 'AddressDeniedError';
    this.cidr = verdict.cidr ?? 'unspecified address';
  }
}

/** Parses one deny-list entry; throws naming it (`deny list entry "10.0.0.0/33": prefix length must be ...`). */
export function parseCidr(text: string): Cidr {
  return parseEntry(text);
}

function bare(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** A compiled deny list with the socket hooks that enforce it. */
export class AddressGuard {
  private readonly list: DenyList;

  constructor(denyList: readonly string[] = DEFAULT_DENY_LIST) {
    this.list = denyListFor(denyList);
  }

  /** The verdict of the one address policy on `host` (an address in any spelling, or a name: allowed until resolved). */
  verdict(host: string): AddressVerdict {
    return checkAddress(host, this.list);
  }

  /** The deny-list entry (or `unspecified address`) that denies `ip`, or undefined when it may be dialled. */
  deniedBy(ip: string): string | undefined {
    const v = this.verdict(ip);
    return v.allowed ? undefined : (v.cidr ?? 'unspecified address');
  }

  /**
   * For a host that spells an address (sockets skip `lookup` for literals, and resolvers read `0xa9fea9fe` or
   * `2852039166` as addresses without asking DNS): throws AddressDeniedError when it is denied, else returns the
   * address in the form to dial. A name returns undefined: it is judged by `lookup` once resolved.
   */
  checkLiteral(host: string): string | undefined {
    const h = bare(host);
    const address = parseAddress(h);
    if (address === undefined) return undefined;
    const v = checkAddress(h, this.list);
    if (!v.allowed) throw new AddressDeniedError(h, h, v);
    // IPv6 keeps its zone (fe80::1%eth0 is not denied by a custom list that allows it); IPv4 is dialled dotted.
    return address.family === 4 ? addressText(address) : h;
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
        const v = this.verdict(a.address);
        if (!v.allowed) {
          callback(new AddressDeniedError(hostname, a.address, v), options.all === true ? [] : '', 0);
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
      let literal: string | undefined;
      try {
        literal = this.checkLiteral(host);
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
        return;
      }
      if (literal !== undefined) {
        resolve(literal);
        return;
      }
      this.lookup(bare(host), {}, (err, address) => {
        if (err) reject(err);
        else resolve(address as string);
      });
    });
  }
}

const guards = new Map<string, AddressGuard>();
const defaultGuard = new AddressGuard(DEFAULT_DENY_LIST);

/** A cached guard for a deny list (compiled once per distinct list). Throws for a malformed entry. */
export function guardFor(denyList: readonly string[] | undefined): AddressGuard {
  if (denyList === undefined || denyList === DEFAULT_DENY_LIST) return defaultGuard;
  const key = JSON.stringify(denyList);
  let g = guards.get(key);
  if (g === undefined) {
    g = new AddressGuard(denyList);
    if (guards.size < 64) guards.set(key, g);
  }
  return g;
}
