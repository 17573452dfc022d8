// The repeatable `--deny-cidr` flag of serve, validate and reconcile: each value checked when parsed, so a typo is a
// usage error (exit 2) naming the flag, never a silently wider or narrower deny list.
import { InvalidArgumentError } from 'commander';
import { parseCidr } from '../webhook/index.js';

export function collectCidr(value: string, previous: string[] | undefined): string[] {
  try {
    return [...(previous ?? []), parseCidr(value)];
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}
