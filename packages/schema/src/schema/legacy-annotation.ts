// Reads the legacy annotation cluster.karmada.io/health-checker (karmada PR 3616's webhook-style client config)
// and converts it into the equivalent liveness probe, or says exactly what in it cannot be carried.
// Pure: no I/O.
import { compiledDenyList, deniedTargetError, type CompiledDenyList, type DenyHosts } from './address-ranges.js';
import { rawValidators, schemaErrors } from './ajv-validators.js';
import { LEGACY_ANNOTATION, LEGACY_TIMEOUT_SECONDS } from './constants.js';
import { FieldPath, fieldErrors, type FieldError } from './field-error.js';
import type { LivenessProbe } from '../api/index.js';
import { isDNS1123Label, isValidPortNum } from './k8s-names.js';
import { caBundleProblem } from './probe-rules.js';
import { messageOf } from '../api/index.js';

export const annotationPath = (key: string): FieldPath => FieldPath.root('metadata').child('annotations').key(key);

/** The parsed value, or (as every result of the library) the ErrorList that says why there is none. */
export interface ParsedJson {
  value?: unknown;
  errors: FieldError[];
}

/** JSON.parse with an error that names the annotation and the position: `invalid JSON at position 17: ...`. */
export function parseAnnotationJson(raw: unknown, key: string): ParsedJson {
  const path = annotationPath(key);
  if (typeof raw !== 'string') return { errors: [fieldErrors.invalid(path, raw, 'must be a string holding JSON')] };
  try {
    return { value: JSON.parse(raw) as unknown, errors: [] };
  } catch (err) {
    const msg = messageOf(err);
    // V8 words these as `Unexpected token '}', "<the text>" is not valid JSON` or `... in JSON at position 17`;
    // keep the reason and the position, never the text (it may hold a caBundle).
    const pos = /at position (\d+)/.exec(msg)?.[1] ?? (/end of JSON input/.test(msg) ? String(raw.length) : undefined);
    const reason = msg
      .replace(/\s*in JSON at position \d+.*$/s, '')
      .replace(/, ".*"(\.\.\.)? is not valid JSON$/s, '')
      .replace(/\s*\(line \d+ column \d+\)$/, '');
    const at = pos === undefined ? '' : ` at position ${pos}`;
    return { errors: [fieldErrors.invalidOmitted(path, `invalid JSON${at}: ${reason}`)] };
  }
}

export interface LegacyConversion {
  probe?: LivenessProbe;
  errors: FieldError[];
}

function fromService(svc: Record<string, unknown>, path: FieldPath, errors: FieldError[]): LivenessProbe['httpGet'] {
  const ns = String(svc.namespace);
  const name = String(svc.name);
  for (const m of isDNS1123Label(ns)) errors.push(fieldErrors.invalid(path.child('namespace'), ns, m));
  for (const m of isDNS1123Label(name)) errors.push(fieldErrors.invalid(path.child('name'), name, m));
  const port = svc.port === undefined ? 443 : Number(svc.port);
  for (const m of isValidPortNum(port)) errors.push(fieldErrors.invalid(path.child('port'), port, m));
  const p = svc.path === undefined ? '/' : String(svc.path);
  if (!p.startsWith('/')) errors.push(fieldErrors.invalid(path.child('path'), p, "must start with '/'"));
  return { scheme: 'HTTPS', host: `${name}.${ns}.svc`, port, path: p };
}

function fromURL(
  raw: string,
  path: FieldPath,
  errors: FieldError[],
  denyList: CompiledDenyList,
): LivenessProbe['httpGet'] {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    errors.push(
      fieldErrors.invalid(path, raw, 'must be an absolute URL such as https://health.example.com:8443/healthz'),
    );
    return undefined;
  }
  const scheme = u.protocol.replace(/:$/, '');
  if (scheme !== 'http' && scheme !== 'https') {
    errors.push(fieldErrors.invalid(path, raw, `unsupported scheme ${JSON.stringify(scheme)}, must be http or https`));
    return undefined;
  }
  if (u.username !== '' || u.password !== '')
    errors.push(
      fieldErrors.forbidden(path, 'user information cannot be carried into a probe; send credentials with httpHeaders'),
    );
  if (u.hash !== '')
    errors.push(fieldErrors.forbidden(path, 'a fragment cannot be carried into a probe (it is never sent); remove it'));
  if (u.hostname === '') errors.push(fieldErrors.invalid(path, raw, 'host must be provided'));
  const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  // The same policy as a probe's host: a legacy url aimed at the metadata service is denied, never migrated.
  const denied = host === '' ? undefined : deniedTargetError(host, path, denyList, ' (the host of the url)');
  if (denied !== undefined) errors.push(denied);
  const port = u.port === '' ? (scheme === 'https' ? 443 : 80) : Number(u.port);
  return { scheme: scheme === 'https' ? 'HTTPS' : 'HTTP', host, port, path: `${u.pathname}${u.search}` };
}

/**
 * Converts the legacy annotation's value into a probe, or returns every reason it cannot, a url whose host the address
 * policy denies included (`denyHosts`: the default deny list when omitted; throws CidrError for a malformed entry).
 */
export function convertLegacyAnnotation(raw: unknown, denyHosts?: DenyHosts): LegacyConversion {
  const parsed = parseAnnotationJson(raw, LEGACY_ANNOTATION);
  if (parsed.errors.length > 0) return { errors: parsed.errors };
  const base = annotationPath(LEGACY_ANNOTATION);
  const errors = schemaErrors(rawValidators.healthChecker, parsed.value, base);
  if (errors.length > 0) return { errors };
  const value = parsed.value as Record<string, unknown>;
  let httpGet: LivenessProbe['httpGet'];
  if (value.service !== undefined && value.url !== undefined) {
    errors.push(fieldErrors.forbidden(base.child('url'), 'may not be set together with service'));
  } else if (value.service !== undefined) {
    httpGet = fromService(value.service as Record<string, unknown>, base.child('service'), errors);
  } else if (typeof value.url === 'string') {
    httpGet = fromURL(value.url, base.child('url'), errors, compiledDenyList(denyHosts));
  } else {
    errors.push(fieldErrors.required(base, 'must name a service or a url'));
  }
  if (typeof value.caBundle === 'string' && value.caBundle !== '') {
    const problem = caBundleProblem(value.caBundle);
    if (problem !== undefined) errors.push(fieldErrors.invalidOmitted(base.child('caBundle'), problem));
    else if (httpGet !== undefined) httpGet.caBundle = value.caBundle;
  }
  if (errors.length > 0 || httpGet === undefined) return { errors };
  return { probe: { httpGet, timeoutSeconds: LEGACY_TIMEOUT_SECONDS }, errors };
}
