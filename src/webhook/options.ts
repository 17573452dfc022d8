// The knobs of the admission handlers, shared by mutate and validate, and their defaults.
// Kept apart from the HTTP shell so the pure handlers and the CLI agree on one shape.
import { DEFAULT_DENY_CIDRS, type ProbeLocation } from '@karmada-cluster-probe/schema';

export interface WebhookOptions {
  /** Where the probe lives: `spec.livenessProbe` or the `cluster.karmada.io/liveness-probe` annotation. */
  probeLocation: ProbeLocation;
  /** Address ranges (CIDRs) a probe host must not fall into. */
  denyHosts: string[];
}

/** The schema library's deny list (DEFAULT_DENY_CIDRS) and the probe in spec.livenessProbe. */
export const DEFAULT_WEBHOOK_OPTIONS: WebhookOptions = {
  probeLocation: 'field',
  denyHosts: [...DEFAULT_DENY_CIDRS],
};

/**
 * How long the HTTPS server lets a connection hold a socket without progress. One place for these numbers; the
 * reasons, and the bound they give, are in docs/webhook.md ("Limits").
 */
export interface ConnectionTimeouts {
  /** From TCP accept to a completed TLS handshake (node:tls `handshakeTimeout`). */
  handshakeMs: number;
  /**
   * Request headers must be complete this long after their first byte (`headersTimeout`); a connection that sends
   * nothing at all, after the handshake or in the middle of a request, is closed after this long too (`timeout`).
   */
  headersMs: number;
  /** The whole request, headers and body, must arrive within this long of its first byte (`requestTimeout`). */
  requestMs: number;
  /** An idle keep-alive connection between two requests (`keepAliveTimeout`; node adds 1 s before closing). */
  keepAliveMs: number;
}

export const DEFAULT_CONNECTION_TIMEOUTS: Readonly<ConnectionTimeouts> = Object.freeze({
  // The apiserver's client (Go's http.Transport via client-go) gives up on a handshake after 10 s itself.
  handshakeMs: 10_000,
  // kube-apiserver's own server allows 32 s for headers (ReadHeaderTimeout); its webhook client sends them at once.
  headersMs: 20_000,
  // A webhook call lasts at most timeoutSeconds, which may not exceed 30 s.
  requestMs: 30_000,
  // Longer than the 90 s after which the apiserver's client drops an idle connection (Go's IdleConnTimeout), so the
  // client always closes first and never sends a review on a socket we are closing.
  keepAliveMs: 120_000,
});
