// CIDR parsing and membership for the probe-host deny list (link-local and cloud metadata by default).
// Pure: works on literal addresses only; the probe engine re-checks resolved addresses at connect time.
import { BlockList, isIP } from 'node:net';

/**
 * Ranges a probe may never target unless an operator says otherwise: link-local (which holds the AWS, GCP and Azure
 * metadata address 169.254.169.254), AWS IMDS over IPv6, and Alibaba Cloud's metadata address. The probe engine's
 * DEFAULT_DENY_LIST holds the same ranges (a unit test keeps the two equal; the layers may not import each other).
 */
export const DEFAULT_DENY_CIDRS: readonly string[] = [
  '169.254.0.0/16',
  'fe80::/10',
  'fd00:ec2::254/128',
  '100.100.100.200/32',
];

export interface DenyList {
  /** The CIDR that contains `address`, or undefined when the address is allowed (or not a literal IP). */
  match(address: string): string | undefined;
}

/** Parses CIDRs (`10.0.0.0/8`, `fe80::/10`, or a bare address); throws with the offending entry named. */
export function parseDenyList(cidrs: readonly string[]): DenyList {
  const entries: { cidr: string; list: BlockList }[] = [];
  for (const cidr of cidrs) {
    const [addr = '', bits] = cidr.split('/');
    const family = isIP(addr);
    if (family === 0) throw new Error(`deny list entry ${JSON.stringify(cidr)}: not an IP address or CIDR`);
    const max = family === 4 ? 32 : 128;
    const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || cidr.split('/').length > 2)
      throw new Error(`deny list entry ${JSON.stringify(cidr)}: prefix length must be 0-${max}`);
    const list = new BlockList();
    list.addSubnet(addr, prefix, family === 4 ? 'ipv4' : 'ipv6');
    entries.push({ cidr, list });
  }
  return {
    match(address: string): string | undefined {
      const host = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
      const family = isIP(host);
      if (family === 0) return undefined;
      const type = family === 4 ? 'ipv4' : 'ipv6';
      // An IPv4-mapped IPv6 address (::ffff:169.254.169.254) is checked as the IPv4 address it carries.
      const mapped = family === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(host)?.[1] : undefined;
      for (const e of entries) {
        if (e.list.check(host, type)) return e.cidr;
        if (mapped !== undefined && e.list.check(mapped, 'ipv4')) return e.cidr;
      }
      return undefined;
    },
  };
}
