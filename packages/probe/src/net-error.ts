// Turns Node's socket and TLS errors into the wording the kubelet's Go probes use (`dial tcp 10.0.0.1:80: connect:
// connection refused`), so operators see familiar messages. Depends on nothing; never includes bodies or header values.

import { messageOf } from '@karmada-cluster-probe/schema/api';

export type Phase = 'connect' | 'headers' | 'body';

function codeOf(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err) {
    const code = (err as { code: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

const UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
]);

export function isHangUp(err: unknown): boolean {
  // Node's `socket hang up`: the server closed the connection before a response, where Go's client says `EOF`.
  return messageOf(err) === 'socket hang up' || codeOf(err) === 'ECONNABORTED';
}

/**
 * Describes a connection-level error as Go's net and crypto/tls packages would, `addr` being `host:port`; `socketAddr`
 * (`local->remote`) once connected, as Go's errors on a connected socket print it.
 */
export function describeNetError(err: unknown, addr: string, host: string, socketAddr?: string): string {
  // Already in Go's words (go-response-head.ts, the transport).
  if (err instanceof Error && err.name === 'GoProtocolError') return err.message;
  if (isHangUp(err)) return 'EOF';
  const code = codeOf(err);
  switch (code) {
    case 'ECONNREFUSED':
      return `dial tcp ${addr}: connect: connection refused`;
    case 'ENOTFOUND':
    case 'EAI_NONAME':
    case 'EAI_NODATA':
      return `dial tcp: lookup ${host}: no such host`;
    case 'EAI_AGAIN':
      return `dial tcp: lookup ${host}: server misbehaving`;
    case 'ECONNRESET':
      return `read tcp ${socketAddr ?? addr}: read: connection reset by peer`;
    case 'EPIPE':
      return `write tcp ${socketAddr ?? addr}: write: broken pipe`;
    case 'EHOSTUNREACH':
      return `dial tcp ${addr}: connect: no route to host`;
    case 'ENETUNREACH':
      return `dial tcp ${addr}: connect: network is unreachable`;
    case 'ETIMEDOUT':
      return `dial tcp ${addr}: i/o timeout`;
    case 'CERT_HAS_EXPIRED':
    case 'CERT_NOT_YET_VALID':
      return `tls: failed to verify certificate: x509: certificate has expired or is not yet valid`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: x509: ${messageOf(err)}`;
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      // Go says this of a first record that is not TLS (and names HTTP when it starts `HTTP/`, bytes OpenSSL does
      // not show us).
      return 'tls: first record does not look like a TLS handshake';
    case 'EADDRDENIED':
      return messageOf(err);
    default:
      if (code !== undefined && UNKNOWN_AUTHORITY.has(code))
        return `tls: failed to verify certificate: x509: certificate signed by unknown authority`;
      return code !== undefined ? `${messageOf(err)} (${code})` : messageOf(err);
  }
}

/** Go's http.Client wording for a probe that ran out of time in a phase. */
export function describeTimeout(phase: Phase): string {
  return phase === 'body'
    ? 'context deadline exceeded (Client.Timeout or context cancellation while reading body)'
    : 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)';
}

/**
 * What Go's body reader returns when a body cannot be read to its end (the kubelet's errored probe: no `Get "URL"`
 * before it, as it is not a client.Do error): the timeout, a reset, or `unexpected EOF` for a body cut short.
 */
export function describeBodyError(
  e: { cause: unknown; socketAddr?: string | undefined },
  timedOut: boolean,
  addr: string,
): string {
  if (timedOut) return describeTimeout('body');
  if (codeOf(e.cause) === 'ECONNRESET' && !isHangUp(e.cause)) return describeNetError(e.cause, addr, '', e.socketAddr);
  if (e.cause instanceof Error && e.cause.name === 'UnexpectedEof') return 'unexpected EOF';
  if (isHangUp(e.cause) || codeOf(e.cause) === 'ECONNRESET') return 'unexpected EOF';
  return describeNetError(e.cause, addr, '', e.socketAddr);
}

export function isAddressDenied(err: unknown): boolean {
  return codeOf(err) === 'EADDRDENIED';
}
