// The repeatable `--deny-cidr` flag of serve, validate, manifests and reconcile: each value checked when parsed, by
// the one CIDR parser of the address policy (through the schema library), so a typo is a usage error (exit 2) naming
// the flag, never a silently wider or narrower deny list.
import { InvalidArgumentError } from 'commander';
import { CidrError, parseCidr } from '@karmada-cluster-probe/schema';

/** Returns the CIDR in canonical `addr/prefix` form, or throws naming the flag and the value. */
export function parseCidrFlag(value: string): string {
  try {
    return parseCidr(value.trim()).canonical;
  } catch (err) {
    if (err instanceof CidrError) throw new Error(`--deny-cidr ${JSON.stringify(value)}: ${err.detail}`);
    throw err;
  }
}

/** commander's argument parser for a repeatable `--deny-cidr`. */
export function collectCidr(value: string, previous: string[] | undefined): string[] {
  try {
    return [...(previous ?? []), parseCidrFlag(value)];
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}
