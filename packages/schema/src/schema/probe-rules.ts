// The probe rules JSON Schema cannot say: exactly one handler, port numbers and IANA names, integer-only gRPC
// ports, header names, hosts (and the deny list), caBundle as PEM, and what a handler needs from the Cluster.
// Runs on untrusted input after the schema check, so it never assumes a type. Pure: no I/O.
import { HANDLERS, type HandlerName } from './constants.js';
import { deniedTargetError, denyListFor, type CompiledDenyList } from './address-ranges.js';
import { FieldPath, fieldErrors, type FieldError } from './field-error.js';
import { memoize } from './memo.js';
import { isX509CertificatePem } from './x509.js';
import { isHTTPHeaderName, isValidHost, isValidPortName, isValidPortNum } from './k8s-names.js';
import { isRecord, pemCertificateBlocks } from '../api/index.js';

export interface ProbeContext {
  /** Host of spec.apiEndpoint (probes with no host go there), when the endpoint parses. */
  apiEndpointHost?: string | undefined;
  syncMode?: unknown;
  hasSecretRef: boolean;
  /** The compiled deny list; the default list when omitted. The unspecified addresses are denied whatever it says. */
  denyList?: CompiledDenyList | undefined;
}

export interface ProbeRuleResult {
  errors: FieldError[];
  warnings: string[];
}

/** Appends the port's problems to `errors` (nothing is allocated for a valid port). */
function checkPort(port: unknown, path: FieldPath, namesAllowed: boolean, errors: FieldError[]): void {
  let problems: readonly string[];
  if (typeof port === 'number' && Number.isInteger(port)) problems = isValidPortNum(port);
  else if (typeof port === 'string' && namesAllowed) problems = isValidPortName(port);
  else return; // wrong types are the schema's errors
  for (let i = 0; i < problems.length; i++) errors.push(fieldErrors.invalid(path, port, problems[i] as string));
}

function checkHost(action: Record<string, unknown>, path: FieldPath, ctx: ProbeContext, errors: FieldError[]): void {
  const host = action.host;
  if (host === undefined) {
    if (ctx.apiEndpointHost === undefined)
      errors.push(fieldErrors.required(path.child('host'), 'required when spec.apiEndpoint is not set'));
    else checkDenied(ctx.apiEndpointHost, path.child('host'), ctx, errors, ' (the host of spec.apiEndpoint)');
    return;
  }
  if (typeof host !== 'string') return;
  const problems = isValidHost(host);
  for (let i = 0; i < problems.length; i++)
    errors.push(fieldErrors.invalid(path.child('host'), host, problems[i] as string));
  // Whatever else is wrong with it: an address in any spelling (0xa9fea9fe, 2852039166, [::ffff:a9fe:a9fe]) is
  // judged by the one address policy, as the probe engine judges it when it connects.
  checkDenied(host, path.child('host'), ctx, errors, '');
}

function checkDenied(host: string, path: FieldPath, ctx: ProbeContext, errors: FieldError[], what: string): void {
  const denied = deniedTargetError(host, path, ctx.denyList ?? denyListFor(undefined), what);
  if (denied !== undefined) errors.push(denied);
}

// Memoise any bundle within the schema's 64 KiB; the 2 MiB budget holds at least 15 of the largest.
const CA_BUNDLE_MEMO = { maxKeyLength: 64 * 1024, maxBytes: 2 * 2 ** 20 };

// Invalid UTF-8 becomes U+FFFD, as Buffer's toString('utf8') makes it; a leading BOM is kept, as Buffer keeps it.
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** The bytes of standard base64 already checked against /^[A-Za-z0-9+/]*={0,2}$/ with a length divisible by 4. */
function base64Bytes(b64: string): Uint8Array {
  const binary = atob(b64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Decodes a base64 PEM bundle; returns the problem, or undefined when every block is a certificate. */
export const caBundleProblem = memoize((caBundle: string): string | undefined => {
  const compact = caBundle.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) return 'must be base64-encoded';
  const pem = UTF8.decode(base64Bytes(compact));
  const blocks = pemCertificateBlocks(pem);
  if (blocks === null) return 'must be base64-encoded PEM holding at least one CERTIFICATE block';
  for (const [i, block] of blocks.entries())
    if (!isX509CertificatePem(block)) return `certificate ${i + 1} of the bundle is not a valid X.509 certificate`;
  return undefined;
}, CA_BUNDLE_MEMO);

function checkHttpGet(a: Record<string, unknown>, path: FieldPath, ctx: ProbeContext, out: ProbeRuleResult): void {
  checkPort(a.port, path.child('port'), true, out.errors);
  checkHost(a, path, ctx, out.errors);
  if (typeof a.path === 'string' && !a.path.startsWith('/'))
    out.errors.push(fieldErrors.invalid(path.child('path'), a.path, "must start with '/'"));
  if (Array.isArray(a.httpHeaders))
    for (const h of a.httpHeaders)
      if (isRecord(h) && typeof h.name === 'string') {
        const problems = isHTTPHeaderName(h.name);
        for (let i = 0; i < problems.length; i++)
          out.errors.push(fieldErrors.invalid(path.child('httpHeaders'), h.name, problems[i] as string));
      }
  const https = a.scheme === 'HTTPS';
  if (typeof a.caBundle === 'string' && a.caBundle !== '') {
    const problem = caBundleProblem(a.caBundle);
    if (problem !== undefined) out.errors.push(fieldErrors.invalidOmitted(path.child('caBundle'), problem));
    if (a.insecureSkipTLSVerify === true)
      out.errors.push(
        fieldErrors.forbidden(path.child('insecureSkipTLSVerify'), 'may not be set together with caBundle'),
      );
    if (!https) out.warnings.push(`${String(path)}.caBundle is ignored: scheme is not HTTPS`);
  }
  if (a.insecureSkipTLSVerify === true && https)
    out.warnings.push(`${String(path)}.insecureSkipTLSVerify: the server's certificate is not verified`);
}

const SPEC_API_ENDPOINT = FieldPath.root('spec').child('apiEndpoint');
const SPEC_SECRET_REF = FieldPath.root('spec').child('secretRef');

function checkApiServer(a: Record<string, unknown>, path: FieldPath, ctx: ProbeContext, out: ProbeRuleResult): void {
  if (typeof a.path === 'string' && !a.path.startsWith('/'))
    out.errors.push(fieldErrors.invalid(path.child('path'), a.path, "must start with '/'"));
  if (ctx.apiEndpointHost === undefined)
    out.errors.push(fieldErrors.required(SPEC_API_ENDPOINT, `required by ${String(path)}`));
  else checkDenied(ctx.apiEndpointHost, SPEC_API_ENDPOINT, ctx, out.errors, '');
  if (ctx.syncMode === 'Push' && !ctx.hasSecretRef)
    out.errors.push(
      fieldErrors.required(
        SPEC_SECRET_REF,
        `required by ${String(path)} for a Push cluster: the probe uses its token and caBundle`,
      ),
    );
}

/** Checks one probe (already schema-valid in shape or not) at `path`. */
export function probeRules(probe: unknown, path: FieldPath, ctx: ProbeContext): ProbeRuleResult {
  const out: ProbeRuleResult = { errors: [], warnings: [] };
  if (!isRecord(probe)) return out;
  // The handlers this function checks, as named loads (a loop over HANDLERS reads `probe[h]` with a variable key: a
  // keyed, megamorphic load each). The usual probe has exactly one of them and needs nothing else; for none, two or
  // more, or a handler this function does not know, the count and the errors come from HANDLERS itself, in its order.
  const httpGet = probe.httpGet;
  const tcp = probe.tcpSocket;
  const grpc = probe.grpc;
  const api = probe.apiServer;
  const named =
    (httpGet !== undefined && httpGet !== null ? 1 : 0) +
    (tcp !== undefined && tcp !== null ? 1 : 0) +
    (grpc !== undefined && grpc !== null ? 1 : 0) +
    (api !== undefined && api !== null ? 1 : 0);
  if (named !== 1 || HANDLERS.length !== CHECKED_HANDLERS) handlerCountErrors(probe, path, out.errors);

  if (isRecord(httpGet)) checkHttpGet(httpGet, path.child('httpGet'), ctx, out);
  if (isRecord(tcp)) {
    checkPort(tcp.port, path.child('tcpSocket', 'port'), true, out.errors);
    checkHost(tcp, path.child('tcpSocket'), ctx, out.errors);
  }
  if (isRecord(grpc)) {
    checkPort(grpc.port, path.child('grpc', 'port'), false, out.errors);
    checkHost(grpc, path.child('grpc'), ctx, out.errors);
  }
  if (isRecord(api)) checkApiServer(api, path.child('apiServer'), ctx, out);
  return out;
}

/**
 * The handlers probeRules reads by name. Keyed by HandlerName (generated from schemas/), so that a handler added to
 * the schema fails to compile here until probeRules checks it; and until then the count goes through HANDLERS.
 */
const CHECKED: Record<HandlerName, true> = { httpGet: true, tcpSocket: true, grpc: true, apiServer: true };
const CHECKED_HANDLERS = Object.keys(CHECKED).length;

/** Exactly one handler, counted over HANDLERS (the schema's list, in its order): the errors for none or several. */
function handlerCountErrors(probe: Record<string, unknown>, path: FieldPath, errors: FieldError[]): void {
  let handlers = 0;
  for (const h of HANDLERS) {
    if (probe[h] === undefined || probe[h] === null) continue;
    if (++handlers > 1) errors.push(fieldErrors.forbidden(path.child(h), 'may not specify more than 1 handler type'));
  }
  if (handlers === 0) errors.push(fieldErrors.required(path, 'must specify a handler type'));
}
