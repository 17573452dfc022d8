// Parsing of the `--deny-cidr` values: `ADDR/PREFIX` or a bare address (a /32 or /128), IPv4 or IPv6, by the one CIDR
// parser of the address policy (through the schema library), so a typo fails at start-up, not silently.
import { CidrError, parseCidr as parseEntry } from '../schema/index.js';

/** Returns the CIDR in canonical `addr/prefix` form, or throws naming the flag and the value. */
export function parseCidr(value: string): string {
  try {
    return parseEntry(value.trim()).canonical;
  } catch (err) {
    if (err instanceof CidrError) throw new Error(`--deny-cidr ${JSON.stringify(value)}: ${err.detail}`);
    throw err;
  }
}
