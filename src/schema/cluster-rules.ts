// Karmada's own Cluster rules (pkg/apis/cluster/validation) that JSON Schema cannot say, with Karmada's wording:
// the name, apiEndpoint, secret references, proxyURL, zone vs zones, taints and resource models.
// Runs on untrusted input after the schema check, so it never assumes a type. Pure: no I/O.
import { append, FieldPath, fieldErrors, type FieldError } from './field-error.js';
import { isDNS1123Label, isQualifiedName, isValidLabelValue } from './k8s-names.js';
import { memoize } from './memo.js';
import { MAX_INT64_NANO, parseQuantity, QUANTITY_ERROR } from './quantity.js';

const CLUSTER_NAME_MAX = 48;
const ENDPOINT_FORM = '; desired format: hostname, hostname:port, IP or IP:port';
const RESOURCE_NAMES = ['cpu', 'ephemeral-storage', 'memory', 'storage'];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function clusterNameErrors(name: unknown, path: FieldPath): FieldError[] {
  if (name === undefined || name === '') return [fieldErrors.required(path, 'name or generateName is required')];
  if (typeof name !== 'string') return [];
  if (name.length > CLUSTER_NAME_MAX)
    return [fieldErrors.invalid(path, name, `must be no more than ${CLUSTER_NAME_MAX} characters`)];
  return isDNS1123Label(name).map((m) => fieldErrors.invalid(path, name, m));
}

export interface ParsedEndpoint {
  /** The host to dial (IPv6 without brackets), when the endpoint is valid. */
  host?: string;
  errors: FieldError[];
}

/** Karmada's ValidateClusterAPIEndpoint, on WHATWG URL parsing with Go's url.Parse outcomes for scheme-less input. */
export function parseApiEndpoint(endpoint: string, path: FieldPath): ParsedEndpoint {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(endpoint)) {
    const firstSegment = endpoint.split('/')[0] ?? '';
    if (firstSegment.includes(':'))
      return {
        errors: [
          fieldErrors.invalid(
            path,
            endpoint,
            `apiEndpoint must be a valid URL: parse ${JSON.stringify(endpoint)}: first path segment in URL cannot contain colon${ENDPOINT_FORM}`,
          ),
        ],
      };
    return { errors: [fieldErrors.invalid(path, '', `host must be provided${ENDPOINT_FORM}`)] };
  }
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    return {
      errors: [
        fieldErrors.invalid(
          path,
          endpoint,
          `apiEndpoint must be a valid URL: parse ${JSON.stringify(endpoint)}: invalid URL${ENDPOINT_FORM}`,
        ),
      ],
    };
  }
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
  const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  return errors.length === 0 && host !== '' ? { host, errors } : { errors };
}

function secretRefErrors(ref: unknown, path: FieldPath): FieldError[] {
  if (!isObject(ref)) return [];
  const errors: FieldError[] = [];
  // Missing keys are the schema's Required errors; Karmada also refuses empty strings.
  if (ref.namespace === '') errors.push(fieldErrors.required(path.child('namespace')));
  if (ref.name === '') errors.push(fieldErrors.required(path.child('name')));
  return errors;
}

function proxyURLErrors(proxyURL: string, path: FieldPath): FieldError[] {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(proxyURL)?.[1]?.toLowerCase() ?? '';
  if (scheme === 'http' || scheme === 'https' || scheme === 'socks5') return [];
  return [
    fieldErrors.invalid(path, proxyURL, `unsupported scheme ${JSON.stringify(scheme)}, must be http, https, or socks5`),
  ];
}

/** True when taints[i] repeats the key and effect of an earlier taint (a scan: lists of taints are short). */
function repeatsEarlierTaint(taints: unknown[], i: number, t: Record<string, unknown>): boolean {
  for (let k = 0; k < i; k++) {
    const o = taints[k];
    if (isObject(o) && o.key === t.key && o.effect === t.effect) return true;
  }
  return false;
}

export function taintErrors(taints: unknown[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  for (let i = 0; i < taints.length; i++) {
    const t = taints[i];
    if (!isObject(t)) continue;
    if (typeof t.key === 'string')
      for (const m of isQualifiedName(t.key)) errors.push(fieldErrors.invalid(path.index(i).child('key'), t.key, m));
    if (typeof t.value === 'string') {
      const msgs = isValidLabelValue(t.value);
      if (msgs.length > 0) errors.push(fieldErrors.invalid(path.index(i).child('value'), t.value, msgs.join(';')));
    }
    if (repeatsEarlierTaint(taints, i, t)) {
      const shown: Record<string, unknown> = { key: t.key, effect: t.effect };
      if (t.value !== undefined) shown.value = t.value;
      errors.push(fieldErrors.duplicate(path.index(i), shown, 'taints must be unique by key and effect pair'));
    }
  }
  return errors;
}

/**
 * The common case, checked without allocating: grades strictly increasing, every rule of Karmada's met. When this
 * says no, resourceModelErrors works out and words every problem; it must never say yes where that would object.
 */
function resourceModelsPlainlyValid(models: unknown[]): boolean {
  let prev: unknown[] | undefined;
  let prevGrade = -Infinity;
  for (let i = 0; i < models.length; i++) {
    const m = models[i];
    if (!isObject(m) || typeof m.grade !== 'number' || m.grade <= prevGrade || !Array.isArray(m.ranges)) return false;
    const ranges = m.ranges as unknown[];
    if (prev !== undefined && prev.length !== ranges.length) return false;
    for (let j = 0; j < ranges.length; j++) {
      const r = ranges[j];
      if (!isObject(r) || typeof r.name !== 'string' || !RESOURCE_NAMES.includes(r.name)) return false;
      const min = parseQuantity(r.min);
      const max = parseQuantity(r.max);
      if (min === undefined || max === undefined || max <= min) return false;
      if (prev === undefined) {
        if (min !== 0n) return false;
      } else {
        const pr = prev[j];
        if (!isObject(pr) || pr.name !== r.name || parseQuantity(pr.max) !== min) return false;
      }
      if (i === models.length - 1 && max !== MAX_INT64_NANO) return false;
    }
    prev = ranges;
    prevGrade = m.grade;
  }
  return true;
}

/** Karmada's ValidateClusterResourceModels, reporting each problem at the range it is about. */
export function resourceModelErrors(models: unknown[], path: FieldPath): FieldError[] {
  if (resourceModelsPlainlyValid(models)) return [];
  const errors: FieldError[] = [];
  const grades = new Map<unknown, number>();
  models.forEach((m, i) => {
    if (!isObject(m)) return;
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
    if (!isObject(m) || typeof m.grade !== 'number' || !Array.isArray(m.ranges)) continue;
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
      if (!isObject(r)) return;
      const p = rp.index(j);
      if (typeof r.name === 'string' && !RESOURCE_NAMES.includes(r.name)) {
        errors.push(fieldErrors.notSupported(p.child('name'), r.name, RESOURCE_NAMES));
        return;
      }
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
        if (!isObject(pr)) return;
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
}

export function clusterRules(obj: Record<string, unknown>): ClusterRuleResult {
  const errors: FieldError[] = [];
  const warnings: string[] = [];
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  append(errors, clusterNameErrors(meta.name ?? (meta.generateName === undefined ? undefined : 'x'), METADATA_NAME));
  const spec = obj.spec;
  if (!isObject(spec)) return { errors, warnings };
  const sp = SPEC;
  let apiEndpointHost: string | undefined;
  if (typeof spec.apiEndpoint === 'string' && spec.apiEndpoint !== '') {
    const parsed = parseSpecApiEndpoint(spec.apiEndpoint);
    for (const e of parsed.errors) errors.push({ ...e });
    apiEndpointHost = parsed.host;
  }
  append(errors, secretRefErrors(spec.secretRef, SPEC_SECRET_REF));
  append(errors, secretRefErrors(spec.impersonatorSecretRef, SPEC_IMPERSONATOR_SECRET_REF));
  if (typeof spec.proxyURL === 'string' && spec.proxyURL !== '')
    append(errors, proxyURLErrors(spec.proxyURL, sp.child('proxyURL')));
  if (spec.zone !== undefined && spec.zones !== undefined)
    errors.push(
      fieldErrors.forbidden(
        sp.child('zones'),
        'may not be set together with spec.zone (deprecated); move the zone into zones',
      ),
    );
  else if (typeof spec.zone === 'string' && spec.zone !== '') warnings.push('spec.zone is deprecated; use spec.zones');
  if (Array.isArray(spec.taints)) append(errors, taintErrors(spec.taints, SPEC_TAINTS));
  if (Array.isArray(spec.resourceModels))
    append(errors, resourceModelErrors(spec.resourceModels, SPEC_RESOURCE_MODELS));
  return apiEndpointHost === undefined ? { errors, warnings } : { errors, warnings, apiEndpointHost };
}
