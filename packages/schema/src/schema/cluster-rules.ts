// Karmada's own Cluster rules (pkg/apis/cluster/validation) that JSON Schema cannot say, with Karmada's wording:
// the name, apiEndpoint, secret references, proxyURL, provider/region/zone/zones as label values, taints; the
// resource models' rules are resource-models.ts, Go's url.Parse as these rules need it go-url.ts. test/oracle judges
// them with Karmada's code; docs/validation.md lists where they differ on purpose.
// Runs on untrusted input after the schema check, so it never assumes a type. Pure: no I/O.
import { hostOfUrl, parseEndpoint } from '../address/index.js';
import { append, FieldPath, fieldErrors, type FieldError } from './field-error.js';
import { goURLParse } from './go-url.js';
import { isDNS1123Label, isQualifiedName, isValidLabelValue, longerThan } from './k8s-names.js';
import { memoize } from './memo.js';
import { resourceModelErrors } from './resource-models.js';
import { isRecord } from '../api/index.js';

const CLUSTER_NAME_MAX = 48;
const ENDPOINT_FORM = '; desired format: hostname, hostname:port, IP or IP:port';

/** Karmada's ValidateClusterName; Go's len() counts UTF-8 bytes. */
const clusterNameProblems = memoize((name: string): string[] => {
  if (longerThan(name, CLUSTER_NAME_MAX)) return [`must be no more than ${CLUSTER_NAME_MAX} characters`];
  return isDNS1123Label(name);
});

export function clusterNameErrors(name: unknown, path: FieldPath): FieldError[] {
  if (name === undefined || name === '') return [fieldErrors.required(path, 'name or generateName is required')];
  if (typeof name !== 'string') return [];
  return clusterNameProblems(name).map((m) => fieldErrors.invalid(path, name, m));
}

/**
 * metadata.name as Karmada's ValidateCluster checks it. A generateName is a prefix: kube-apiserver serving the CRD
 * appends to it, so `member-` is fine there (Karmada's ValidateObjectMeta call refuses it; see docs/validation.md).
 */
function metadataNameErrors(meta: Record<string, unknown>): FieldError[] {
  const { name, generateName } = meta;
  if ((name === undefined || name === null || name === '') && typeof generateName === 'string' && generateName !== '')
    return [];
  return clusterNameErrors(name ?? undefined, METADATA_NAME);
}

export interface ParsedEndpoint {
  /** The host to dial (IPv6 without brackets), when the endpoint is valid. */
  host?: string;
  errors: FieldError[];
}

/** Karmada's ValidateClusterAPIEndpoint: Go's url.Parse outcomes where WHATWG URL parsing cannot give them. */
export function parseApiEndpoint(endpoint: string, path: FieldPath): ParsedEndpoint {
  const go = goURLParse(endpoint);
  if ('problem' in go)
    return {
      errors: [
        fieldErrors.invalid(
          path,
          endpoint,
          `apiEndpoint must be a valid URL: parse ${JSON.stringify(endpoint)}: ${go.problem}${ENDPOINT_FORM}`,
        ),
      ],
    };
  if (go.host === '') return { errors: [fieldErrors.invalid(path, '', `host must be provided${ENDPOINT_FORM}`)] };
  const u = parseEndpoint(endpoint);
  if (u === undefined)
    return {
      errors: [
        fieldErrors.invalid(
          path,
          endpoint,
          `apiEndpoint must be a valid URL: parse ${JSON.stringify(endpoint)}: invalid URL${ENDPOINT_FORM}`,
        ),
      ],
    };
  const errors: FieldError[] = [];
  if (u.host === '') errors.push(fieldErrors.invalid(path, '', `host must be provided${ENDPOINT_FORM}`));
  // Never echo a password back: Karmada prints the userinfo, we print the user name only.
  if (u.username !== '' || u.password !== '')
    errors.push(
      fieldErrors.invalid(
        path,
        u.password === '' ? u.username : `${u.username}:xxxxx`,
        'user information is not permitted in the URL',
      ),
    );
  if (u.hash !== '') errors.push(fieldErrors.invalid(path, u.hash.slice(1), 'fragments are not permitted in the URL'));
  if (u.search !== '')
    errors.push(fieldErrors.invalid(path, u.search.slice(1), 'query parameters are not permitted in the URL'));
  const host = hostOfUrl(u);
  return errors.length === 0 && host !== '' ? { host, errors } : { errors };
}

/** Appends the secret reference's problems to `errors`. */
function secretRefErrors(ref: unknown, path: FieldPath, errors: FieldError[]): void {
  if (!isRecord(ref)) return;
  // Missing keys are the schema's Required errors; Karmada also refuses empty strings.
  if (ref.namespace === '') errors.push(fieldErrors.required(path.child('namespace')));
  if (ref.name === '') errors.push(fieldErrors.required(path.child('name')));
}

/** Karmada's ValidateClusterProxyURL, whose parse errors say "apiEndpoint" too. */
function proxyURLErrors(proxyURL: string, path: FieldPath): FieldError[] {
  const go = goURLParse(proxyURL);
  if ('problem' in go)
    return [
      fieldErrors.invalid(
        path,
        proxyURL,
        `apiEndpoint must be a valid URL: parse ${JSON.stringify(proxyURL)}: ${go.problem}`,
      ),
    ];
  const scheme = go.scheme.toLowerCase();
  if (scheme === 'http' || scheme === 'https' || scheme === 'socks5') return [];
  return [
    fieldErrors.invalid(path, proxyURL, `unsupported scheme ${JSON.stringify(scheme)}, must be http, https, or socks5`),
  ];
}

/** True when taints[i] repeats the key and effect of an earlier taint (a scan: lists of taints are short). */
function repeatsEarlierTaint(taints: unknown[], i: number, t: Record<string, unknown>): boolean {
  for (let k = 0; k < i; k++) {
    const o = taints[k];
    if (isRecord(o) && o.key === t.key && o.effect === t.effect) return true;
  }
  return false;
}

/** A taint as Go's encoding/json renders a corev1.Taint: key, value, effect, timeAdded; empty ones left out. */
function taintAsGoShowsIt(t: Record<string, unknown>): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const k of ['key', 'value', 'effect', 'timeAdded'])
    if (t[k] !== undefined && t[k] !== '' && t[k] !== null) shown[k] = t[k];
  return shown;
}

/**
 * Karmada's ValidateClusterTaints (lifted from Kubernetes' validateNodeTaints): appends to `errors`, and returns the
 * fields whose schema errors these replace with Kubernetes' own (an empty effect), if any.
 */
export function taintErrors(taints: unknown[], path: FieldPath, errors: FieldError[]): Set<string> | undefined {
  let supersedes: Set<string> | undefined;
  for (let i = 0; i < taints.length; i++) {
    const t = taints[i];
    if (!isRecord(t)) continue;
    if (typeof t.key === 'string')
      for (const m of isQualifiedName(t.key)) errors.push(fieldErrors.invalid(path.index(i).child('key'), t.key, m));
    if (typeof t.value === 'string') {
      const msgs = isValidLabelValue(t.value);
      if (msgs.length > 0) errors.push(fieldErrors.invalid(path.index(i).child('value'), t.value, msgs.join(';')));
    }
    // An empty effect is an unset one to Kubernetes: Required, not the schema's Unsupported value.
    if (t.effect === '') {
      const effect = path.index(i).child('effect');
      errors.push(fieldErrors.required(effect));
      (supersedes ??= new Set()).add(String(effect));
    }
    if (repeatsEarlierTaint(taints, i, t))
      errors.push(
        fieldErrors.duplicate(path.index(i), taintAsGoShowsIt(t), 'taints must be unique by key and effect pair'),
      );
  }
  return supersedes;
}

/** Karmada's validateClusterSpecForFieldSelector: label values, joined with "; " as Karmada joins them. */
function labelValueErrors(value: unknown, path: FieldPath, errors: FieldError[]): void {
  if (typeof value !== 'string') return;
  const msgs = isValidLabelValue(value);
  if (msgs.length > 0) errors.push(fieldErrors.invalid(path, value, msgs.join('; ')));
}

const SPEC = FieldPath.root('spec');
const METADATA_NAME = FieldPath.root('metadata').child('name');
const SPEC_PROVIDER = SPEC.child('provider');
const SPEC_REGION = SPEC.child('region');
const SPEC_ZONE = SPEC.child('zone');
const SPEC_ZONES = SPEC.child('zones');
const SPEC_SECRET_REF = SPEC.child('secretRef');
const SPEC_IMPERSONATOR_SECRET_REF = SPEC.child('impersonatorSecretRef');
const SPEC_TAINTS = SPEC.child('taints');
const SPEC_RESOURCE_MODELS = SPEC.child('resourceModels');

const parseSpecApiEndpoint = memoize((endpoint: string) => parseApiEndpoint(endpoint, SPEC.child('apiEndpoint')));

export interface ClusterRuleResult {
  errors: FieldError[];
  warnings: string[];
  /** The host of spec.apiEndpoint, for probes that name none. */
  apiEndpointHost?: string;
  /** Fields whose schema errors these rules replace with Karmada's own (an empty taint effect). */
  supersedes?: Set<string>;
}

export function clusterRules(obj: Record<string, unknown>): ClusterRuleResult {
  const errors: FieldError[] = [];
  const warnings: string[] = [];
  const meta = isRecord(obj.metadata) ? obj.metadata : {};
  append(errors, metadataNameErrors(meta));
  const spec = obj.spec;
  if (!isRecord(spec)) return { errors, warnings };
  const sp = SPEC;
  let apiEndpointHost: string | undefined;
  if (typeof spec.apiEndpoint === 'string' && spec.apiEndpoint !== '') {
    const parsed = parseSpecApiEndpoint(spec.apiEndpoint);
    for (const e of parsed.errors) errors.push({ ...e });
    apiEndpointHost = parsed.host;
  }
  secretRefErrors(spec.secretRef, SPEC_SECRET_REF, errors);
  secretRefErrors(spec.impersonatorSecretRef, SPEC_IMPERSONATOR_SECRET_REF, errors);
  if (typeof spec.proxyURL === 'string' && spec.proxyURL !== '')
    append(errors, proxyURLErrors(spec.proxyURL, sp.child('proxyURL')));
  labelValueErrors(spec.provider, SPEC_PROVIDER, errors);
  labelValueErrors(spec.region, SPEC_REGION, errors);
  // As Karmada: with both zone and zones set, their values are not checked; zone alone is; else every zone.
  if (spec.zone !== undefined && spec.zones !== undefined)
    errors.push(
      fieldErrors.forbidden(
        SPEC_ZONES,
        'may not be set together with spec.zone (deprecated); move the zone into zones',
      ),
    );
  else if (typeof spec.zone === 'string' && spec.zone !== '') {
    labelValueErrors(spec.zone, SPEC_ZONE, errors);
    warnings.push('spec.zone is deprecated; use spec.zones');
  } else if (Array.isArray(spec.zones))
    for (let i = 0; i < spec.zones.length; i++) labelValueErrors(spec.zones[i], SPEC_ZONES.index(i), errors);
  const supersedes = Array.isArray(spec.taints) ? taintErrors(spec.taints, SPEC_TAINTS, errors) : undefined;
  if (Array.isArray(spec.resourceModels))
    append(errors, resourceModelErrors(spec.resourceModels, SPEC_RESOURCE_MODELS));
  const result: ClusterRuleResult = { errors, warnings };
  if (apiEndpointHost !== undefined) result.apiEndpointHost = apiEndpointHost;
  if (supersedes !== undefined) result.supersedes = supersedes;
  return result;
}
