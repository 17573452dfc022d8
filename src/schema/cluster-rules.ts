// Karmada's own Cluster rules (pkg/apis/cluster/validation) that JSON Schema cannot say, with Karmada's wording:
// the name, apiEndpoint, secret references, proxyURL, provider/region/zone/zones as label values, taints and
// resource models. test/oracle judges them with Karmada's code; docs/validation.md lists where they differ on purpose.
// Runs on untrusted input after the schema check, so it never assumes a type. Pure: no I/O.
import { hostOfUrl, parseEndpoint } from '../address/index.js';
import { append, FieldPath, fieldErrors, type FieldError } from './field-error.js';
import { isDNS1123Label, isQualifiedName, isValidLabelValue } from './k8s-names.js';
import { memoize } from './memo.js';
import { MAX_INT64_NANO, parseQuantity, QUANTITY_ERROR } from './quantity.js';
import { isRecord } from '../api/index.js';

const CLUSTER_NAME_MAX = 48;
const ENDPOINT_FORM = '; desired format: hostname, hostname:port, IP or IP:port';

/** Karmada's ValidateClusterName; Go's len() counts UTF-8 bytes. */
const clusterNameProblems = memoize((name: string): string[] => {
  const tooLong =
    name.length > CLUSTER_NAME_MAX ||
    (name.length * 3 > CLUSTER_NAME_MAX && Buffer.byteLength(name, 'utf8') > CLUSTER_NAME_MAX);
  if (tooLong) return [`must be no more than ${CLUSTER_NAME_MAX} characters`];
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

/** Go's stringContainsCTLByte: a byte below 0x20, or 0x7f. */
function hasControlCharacter(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

const validOptionalPort = (colonPort: string): boolean => colonPort === '' || /^:[0-9]*$/.test(colonPort);

/**
 * What Go's url.Parse makes of `raw`, as far as Karmada's checks need it: the error it returns (the text after
 * `parse "<raw>": `), else whether it has a scheme and its Host (with the port, "" when there is no authority).
 * The checks are Go's net/url parse, getScheme, parseAuthority and parseHost, in their order.
 */
export function goURLParse(raw: string): { problem: string } | { scheme: string; host: string } {
  if (hasControlCharacter(raw)) return { problem: 'net/url: invalid control character in URL' };
  const withoutFragment = raw.split('#', 1)[0] ?? '';
  if (withoutFragment.startsWith(':')) return { problem: 'missing protocol scheme' };
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*(?=:)/.exec(withoutFragment)?.[0] ?? '';
  let rest = scheme === '' ? withoutFragment : withoutFragment.slice(scheme.length + 1);
  rest =
    rest.endsWith('?') && rest.indexOf('?') === rest.length - 1 ? rest.slice(0, -1) : (rest.split('?', 1)[0] ?? '');
  if (!rest.startsWith('/')) {
    if (scheme === '' && (rest.split('/', 1)[0] ?? '').includes(':'))
      return { problem: 'first path segment in URL cannot contain colon' };
    return { scheme, host: '' };
  }
  if ((scheme === '' && rest.startsWith('///')) || !rest.startsWith('//')) return { scheme, host: '' };
  const authority = rest.slice(2).split('/', 1)[0] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) return { problem: "missing ']' in host" };
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) return { problem: `invalid port ${JSON.stringify(colonPort)} after host` };
  } else if (host.includes(':')) {
    const colonPort = host.slice(host.lastIndexOf(':'));
    if (!validOptionalPort(colonPort)) return { problem: `invalid port ${JSON.stringify(colonPort)} after host` };
  }
  return { scheme, host };
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

/**
 * The common case, checked without allocating: grades strictly increasing, every rule of Karmada's met. When this
 * says no, resourceModelProblems works out and words every problem; it must never say yes where that would object
 * (test/unit/schema/resource-models-fast-path.test.ts holds the two to the same verdict). Exported for that test.
 */
export function resourceModelsPlainlyValid(models: unknown[]): boolean {
  let prev: unknown[] | undefined;
  let prevGrade = -Infinity;
  const last = models.length - 1;
  for (let i = 0; i < models.length; i++) {
    const m = models[i];
    if (!isRecord(m) || typeof m.grade !== 'number' || m.grade <= prevGrade || !Array.isArray(m.ranges)) return false;
    const ranges = m.ranges as unknown[];
    if (prev !== undefined && prev.length !== ranges.length) return false;
    for (let j = 0; j < ranges.length; j++) {
      const r = ranges[j];
      if (!isRecord(r) || typeof r.name !== 'string') return false;
      // The usual spellings are settled by identity, without a memo lookup: "0" opens the first model, a min written
      // as the previous model's max continues it (that max, parsed, is carried over), MaxInt64 in digits closes the
      // last model. Any other spelling is parsed and compared as before.
      const rmin = r.min;
      const rmax = r.max;
      let min: bigint | undefined;
      if (prev === undefined) {
        min = rmin === '0' || rmin === 0 ? 0n : parseQuantity(rmin);
        if (min !== 0n) return false;
      } else {
        const pr = prev[j];
        if (!isRecord(pr) || pr.name !== r.name) return false;
        if (pr.max === rmin) min = prevMaxes[j];
        else {
          min = parseQuantity(rmin);
          if (min === undefined || parseQuantity(pr.max) !== min) return false;
        }
      }
      if (min === undefined) return false;
      let max: bigint | undefined;
      if (i !== last) max = parseQuantity(rmax);
      else if (rmax === MAX_INT64_TEXT) max = MAX_INT64_NANO;
      else {
        max = parseQuantity(rmax);
        if (max !== MAX_INT64_NANO) return false;
      }
      if (max === undefined || max <= min) return false;
      maxes[j] = max;
    }
    prev = ranges;
    prevGrade = m.grade;
    const t = prevMaxes;
    prevMaxes = maxes;
    maxes = t;
  }
  return true;
}

// The parsed maxes of the previous model and of this one, reused across calls (the pass is synchronous and calls
// nothing that could re-enter it); prevMaxes[j] is read only after this call's previous model wrote it.
let prevMaxes: (bigint | undefined)[] = [];
let maxes: (bigint | undefined)[] = [];
const MAX_INT64_TEXT = '9223372036854775807';

/** Karmada's ValidateClusterResourceModels, reporting each problem at the range it is about. */
export function resourceModelErrors(models: unknown[], path: FieldPath): FieldError[] {
  if (resourceModelsPlainlyValid(models)) return [];
  return resourceModelProblems(models, path);
}

/** Every problem of the resource models, worked out in full (the slow path; exported for the fast path's test). */
export function resourceModelProblems(models: unknown[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const grades = new Map<unknown, number>();
  models.forEach((m, i) => {
    if (!isRecord(m)) return;
    if (grades.has(m.grade))
      errors.push(
        fieldErrors.duplicate(
          path.index(i).child('grade'),
          m.grade,
          `the grade of each model must be unique (see spec.resourceModels[${String(grades.get(m.grade))}])`,
        ),
      );
    else grades.set(m.grade, i);
  });
  if (errors.length > 0) return errors;
  const sorted: { m: Record<string, unknown>; i: number }[] = [];
  let inOrder = true;
  for (let i = 0; i < models.length; i++) {
    const m = models[i];
    if (!isRecord(m) || typeof m.grade !== 'number' || !Array.isArray(m.ranges)) continue;
    const last = sorted[sorted.length - 1];
    if (last !== undefined && (last.m.grade as number) > m.grade) inOrder = false;
    sorted.push({ m, i });
  }
  if (!inOrder) sorted.sort((a, b) => (a.m.grade as number) - (b.m.grade as number));
  sorted.forEach(({ m, i }, pos) => {
    const prev = pos > 0 ? sorted[pos - 1] : undefined;
    const ranges = m.ranges as unknown[];
    const rp = path.index(i).child('ranges');
    if (prev !== undefined && (prev.m.ranges as unknown[]).length !== ranges.length) {
      errors.push(
        fieldErrors.invalid(
          rp,
          ranges.length,
          `the number of resource types must be the same in every model (grade ${String(prev.m.grade)} has ${(prev.m.ranges as unknown[]).length})`,
        ),
      );
      return;
    }
    ranges.forEach((r, j) => {
      if (!isRecord(r)) return;
      const p = rp.index(j);
      const min = parseQuantity(r.min);
      const max = parseQuantity(r.max);
      if (min === undefined && r.min !== undefined)
        errors.push(fieldErrors.invalid(p.child('min'), r.min, QUANTITY_ERROR));
      if (max === undefined && r.max !== undefined)
        errors.push(fieldErrors.invalid(p.child('max'), r.max, QUANTITY_ERROR));
      if (min === undefined || max === undefined) return;
      if (max <= min) errors.push(fieldErrors.invalid(p.child('max'), r.max, 'must be greater than min'));
      if (prev === undefined) {
        if (min !== 0n)
          errors.push(fieldErrors.invalid(p.child('min'), r.min, 'must be 0 in the first model (ranges start at 0)'));
      } else {
        const pr = (prev.m.ranges as unknown[])[j];
        if (!isRecord(pr)) return;
        if (pr.name !== r.name)
          errors.push(
            fieldErrors.invalid(
              p.child('name'),
              r.name,
              `must be ${JSON.stringify(pr.name)}, as in grade ${String(prev.m.grade)}: every model lists the same resources in the same order`,
            ),
          );
        else if (parseQuantity(pr.max) !== min)
          errors.push(
            fieldErrors.invalid(
              p.child('min'),
              r.min,
              `must equal the max of ${String(r.name)} in grade ${String(prev.m.grade)} (${String(pr.max)}): ranges must be contiguous and non-overlapping`,
            ),
          );
      }
      if (pos === sorted.length - 1 && max !== MAX_INT64_NANO)
        errors.push(
          fieldErrors.invalid(p.child('max'), r.max, 'must be 9223372036854775807 (MaxInt64) in the last model'),
        );
    });
  });
  return errors;
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
