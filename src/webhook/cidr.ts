// Parsing of the `--deny-cidr` values: `ADDR/PREFIX` or a bare address (a /32 or /128), IPv4 or IPv6.
// Pure; the schema library does the matching, this only makes sure a typo fails at start-up, not silently.
import { isIP } from 'node:net';

/** Returns the CIDR in canonical `addr/prefix` form, or throws naming the flag and the value. */
export function parseCidr(value: string): string {
  const trimmed = value.trim();
  const [address = '', prefixText, extra] = trimmed.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) {
    throw new Error(
      `--deny-cidr ${JSON.stringify(value)}: not an address range; write it as 169.254.0.0/16 or fe80::/10`,
    );
  }
  const max = family === 4 ? 32 : 128;
  if (prefixText === undefined) return `${address}/${max}`;
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= max)) {
    throw new Error(`--deny-cidr ${JSON.stringify(value)}: prefix length must be between 0 and ${max}, inclusive`);
  }
  return `${address}/${prefix}`;
}
