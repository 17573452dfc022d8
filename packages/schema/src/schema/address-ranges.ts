// The schema library's face of the one address policy (src/address): the default deny list, the CIDR parser, and
// the verdict on a probe's host worded as a field error. The policy itself lives in src/address, shared with the
// probe engine's connect-time guard, so admission and connect time cannot disagree. Pure: no I/O.
import { checkAddress, deniedBecause, denyListFor, spelledAs, DenyList as CompiledDenyList } from '../address/index.js';
import { fieldErrors, type FieldError, type FieldPath } from './field-error.js';

export {
  DEFAULT_DENY_CIDRS,
  denyListFor,
  parseCidr,
  CidrError,
  checkAddress,
  type AddressVerdict,
} from '../address/index.js';
export { CompiledDenyList };

/** A deny list as the public options take it (CIDR strings, the default when undefined) or already compiled. */
export type DenyHosts = readonly string[] | CompiledDenyList | undefined;

/** The compiled list for `denyHosts`; throws CidrError for a malformed entry. */
export function compiledDenyList(denyHosts: DenyHosts): CompiledDenyList {
  return denyHosts instanceof CompiledDenyList ? denyHosts : denyListFor(denyHosts);
}

export interface DenyList {
  /** The entry that denies `address` (any spelling; `unspecified address` for 0.0.0.0 and ::), or undefined. */
  match(address: string): string | undefined;
}

/** Compiles CIDRs (`10.0.0.0/8`, `fe80::/10`, or a bare address); throws CidrError with the offending entry named. */
export function parseDenyList(cidrs: readonly string[]): DenyList {
  const list = denyListFor(cidrs);
  return {
    match(address: string): string | undefined {
      const v = checkAddress(address, list);
      return v.allowed ? undefined : (v.cidr ?? 'unspecified address');
    },
  };
}

/**
 * The Forbidden error for a probe target that the policy denies, or undefined when it is allowed. `what` follows the
 * host in the message, e.g. ` (the host of spec.apiEndpoint)`.
 */
export function deniedTargetError(
  host: string,
  path: FieldPath | string,
  list: CompiledDenyList,
  what = '',
): FieldError | undefined {
  const v = checkAddress(host, list);
  if (v.allowed) return undefined;
  return fieldErrors.forbidden(path, `${spelledAs(host, v)}${what} ${deniedBecause(v)}; probes may not target it`);
}
