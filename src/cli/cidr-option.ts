// The repeatable `--deny-cidr` flag of serve, validate and reconcile: each value checked when parsed, so a typo is a
// usage error (exit 2) naming the flag, never a silently wider or narrower deny list.
import { InvalidArgumentError } from 'commander';
// The parser alone, not the webhook's index: registering a flag must not load the webhook's server.
import { parseCidr } from '../webhook/cidr.js';

export function collectCidr(value: string, previous: string[] | undefined): string[] {
  try {
    return [...(previous ?? []), parseCidr(value)];
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}
