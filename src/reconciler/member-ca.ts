// Whether a probe is aimed at the member's own API endpoint, and so verifies TLS as Karmada's own cluster health check
// does: spec.insecureSkipTLSVerification skips verification, else the CA in the Cluster's spec.secretRef Secret
// (key caBundle, as `karmada join` writes it). Only for that exact host:port: the member's CA is never trusted for
// another host. Pure: no I/O; the caller reads the Secret and hands the CA to the engine in the probe itself.
import { resolvePort, type LivenessProbe } from '@karmada-cluster-probe/probe';
import type { Cluster } from '@karmada-cluster-probe/schema';

/**
 * none: the probe runs as written. insecure: it targets spec.apiEndpoint and the Cluster says not to verify that
 * endpoint. secret: it targets spec.apiEndpoint over HTTPS without a caBundle of its own; the Secret's CA is used.
 */
export type MemberTrust =
  { kind: 'none' } | { kind: 'insecure' } | { kind: 'secret'; secretRef: { namespace: string; name: string } };

function normalHost(host: string): string {
  return host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** host:port of an https apiEndpoint, or undefined (http, unparsable, no host). */
function endpointOf(apiEndpoint: string | undefined): { host: string; port: number } | undefined {
  if (apiEndpoint === undefined || apiEndpoint === '') return undefined;
  let u: URL;
  try {
    u = new URL(apiEndpoint);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'https:' || u.hostname === '') return undefined;
  return { host: normalHost(u.hostname), port: u.port === '' ? 443 : Number(u.port) };
}

export function memberTrustOf(probe: LivenessProbe, spec: Cluster['spec'] | undefined): MemberTrust {
  const none: MemberTrust = { kind: 'none' };
  const a = probe.httpGet;
  if (a === undefined || a.scheme !== 'HTTPS') return none;
  // The probe's own TLS settings win: it already says whom to trust.
  if ((a.caBundle !== undefined && a.caBundle !== '') || a.insecureSkipTLSVerify === true) return none;
  const endpoint = endpointOf(spec?.apiEndpoint);
  if (endpoint === undefined) return none;
  const host = a.host === undefined || a.host === '' ? endpoint.host : normalHost(a.host);
  const port = resolvePort(a.port, 'livenessProbe.httpGet.port');
  if (host !== endpoint.host || !port.ok || port.port !== endpoint.port) return none;
  if (spec?.insecureSkipTLSVerification === true) return { kind: 'insecure' };
  const ref = spec?.secretRef;
  if (ref === undefined || ref.namespace === '' || ref.name === '') return none;
  return { kind: 'secret', secretRef: { namespace: ref.namespace, name: ref.name } };
}

/** The probe as it runs with the member's trust: a copy, the Cluster's own probe is never changed. */
export function withMemberTrust(
  probe: LivenessProbe,
  trust: { kind: 'insecure' } | { kind: 'ca'; caBundle: string },
): LivenessProbe {
  const httpGet = probe.httpGet!;
  // An httpGet probe (memberTrustOf answers 'insecure' or 'ca' for no other), so it stays one with one handler.
  return {
    ...probe,
    httpGet:
      trust.kind === 'insecure'
        ? { ...httpGet, insecureSkipTLSVerify: true }
        : { ...httpGet, caBundle: trust.caBundle },
  } as LivenessProbe;
}
