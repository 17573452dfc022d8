// The knobs of the admission handlers, shared by mutate and validate, and their defaults.
// Kept apart from the HTTP shell so the pure handlers and the CLI agree on one shape.
import { DEFAULT_DENY_CIDRS as SCHEMA_DENY_CIDRS, type ProbeLocation } from '../schema/index.js';

export interface WebhookOptions {
  /** Where the probe lives: `spec.livenessProbe` or the `cluster.karmada.io/liveness-probe` annotation. */
  probeLocation: ProbeLocation;
  /** Address ranges (CIDRs) a probe host must not fall into. */
  denyHosts: string[];
}

/**
 * The schema library's defaults: link-local 169.254.0.0/16 and fe80::/10 (which hold 169.254.169.254), AWS IMDS over
 * IPv6 fd00:ec2::254 and Alibaba Cloud's 100.100.100.200.
 */
export const DEFAULT_DENY_CIDRS: readonly string[] = SCHEMA_DENY_CIDRS;

export const DEFAULT_WEBHOOK_OPTIONS: WebhookOptions = {
  probeLocation: 'field',
  denyHosts: [...DEFAULT_DENY_CIDRS],
};
