// The ajv validators, compiled once at import from schemas/, and the translation of ajv's errors into
// Kubernetes field errors (the wording the apiserver uses for a CRD's OpenAPI schema). x-kubernetes-* keys are
// given meaning here explicitly: int-or-string and list-type map are checked; the others are declared as annotations.
// Pure: no I/O.
import { _, Ajv, type ErrorObject, type KeywordCxt, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { FieldPath, fieldErrors, type FieldError } from './field-error.js';
import { clusterSchema, healthCheckerAnnotationSchema, livenessProbeSchema } from './schemas.js';

// ajv-formats is CommonJS with a default export; under NodeNext the callable sits on `.default` or on the module.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
  formats: string[],
) => Ajv;

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Unicode code points in `s` (a surrogate pair is one). */
function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    n++;
  }
  return n;
}

function buildAjv(useDefaults: boolean): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, useDefaults, allowUnionTypes: false, messages: false });
  addFormats(ajv, ['date-time']);
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => n >= -2147483648 && n <= 2147483647 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  // maxLength counts code points, as kube-apiserver counts runes; ajv's own counts every string character by
  // character, which cost bench/schema more than the rest of the schema. A string is never longer in code points than
  // in UTF-16 units, so only one over the limit in units is counted.
  ajv.removeKeyword('maxLength');
  ajv.addKeyword({
    keyword: 'maxLength',
    type: 'string',
    schemaType: 'number',
    error: { message: 'too long', params: ({ schemaCode }) => _`{limit: ${schemaCode}}` },
    code(cxt: KeywordCxt) {
      const count = cxt.gen.scopeValue('func', { ref: codePoints });
      cxt.fail(_`${cxt.data}.length > ${cxt.schemaCode} && ${count}(${cxt.data}) > ${cxt.schemaCode}`);
    },
  });
  ajv.addKeyword({
    keyword: 'x-kubernetes-int-or-string',
    schemaType: 'boolean',
    errors: true,
    validate: function intOrString(enabled: boolean, data: unknown): boolean {
      return !enabled || typeof data === 'string' || (typeof data === 'number' && Number.isInteger(data));
    },
  });
  ajv.addKeyword({
    keyword: 'x-kubernetes-list-map-keys',
    type: 'array',
    schemaType: 'array',
    errors: true,
    // A list-type map must not hold two items with the same keys (the apiserver reports a Duplicate value).
    validate: function listMapKeys(keys: string[], data: unknown[]): boolean {
      const seen = new Set<string>();
      for (const item of data) {
        if (item === null || typeof item !== 'object') continue;
        const id = JSON.stringify(keys.map((k) => (item as Record<string, unknown>)[k]));
        if (seen.has(id)) return false;
        seen.add(id);
      }
      return true;
    },
  });
  // Annotations for the apiserver that have no check of their own in ajv: preserve-unknown-fields is ajv's default
  // behaviour without additionalProperties, list-type atomic/set/map only tells server-side apply how to merge, and
  // the CEL rules of x-kubernetes-validations are implemented as code in cluster-rules.ts and probe-rules.ts.
  ajv.addKeyword({ keyword: 'x-kubernetes-preserve-unknown-fields', schemaType: 'boolean' });
  ajv.addKeyword({ keyword: 'x-kubernetes-list-type', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-kubernetes-validations', schemaType: 'array' });
  ajv.addSchema([livenessProbeSchema, healthCheckerAnnotationSchema, clusterSchema] as object[]);
  return ajv;
}

const strictAjv = buildAjv(false);
const defaultingAjv = buildAjv(true);

function compiled(ajv: Ajv, id: string): ValidateFunction {
  const fn = ajv.getSchema(id);
  if (fn === undefined) throw new Error(`schema ${id} did not compile`);
  return fn;
}

export const rawValidators = {
  cluster: compiled(strictAjv, 'cluster.schema.json'),
  livenessProbe: compiled(strictAjv, 'liveness-probe.schema.json'),
  healthChecker: compiled(strictAjv, 'health-checker-annotation.schema.json'),
};

/** Validators that also insert the schema's `default`s into the data they check (ajv `useDefaults`). */
export const defaultingValidators = {
  cluster: compiled(defaultingAjv, 'cluster.schema.json'),
  livenessProbe: compiled(defaultingAjv, 'liveness-probe.schema.json'),
};

/** `/spec/taints/0/key` -> `spec.taints[0].key`, relative to `base`. */
function toPath(base: FieldPath, instancePath: string, data: unknown): { path: FieldPath; value: unknown } {
  let path = base;
  let value: unknown = data;
  if (instancePath === '') return { path, value };
  for (const raw of instancePath.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(value)) {
      path = path.index(Number(seg));
      value = value[Number(seg)];
    } else {
      const isMapKey = value !== null && typeof value === 'object' && !/^[A-Za-z_$][\w$]*$/.test(seg);
      path = isMapKey ? path.key(seg) : path.child(seg);
      value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[seg] : undefined;
    }
  }
  return { path, value };
}

function bodyPath(path: FieldPath): string {
  return String(path) === '' ? 'body' : `${String(path)} in body`;
}

/** Translates ajv's errors into field errors worded as the apiserver words CRD schema violations. */
export function translateAjvErrors(errors: readonly ErrorObject[], data: unknown, base: FieldPath): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const err of errors) {
    const { path, value } = toPath(base, err.instancePath, data);
    const p = err.params as Record<string, unknown>;
    let fe: FieldError | undefined;
    switch (err.keyword) {
      case 'required':
        fe = fieldErrors.required(path.child(String(p.missingProperty)));
        break;
      case 'type':
      case 'x-kubernetes-int-or-string': {
        const want = err.keyword === 'type' ? String(p.type) : 'integer,string';
        fe = fieldErrors.typeInvalid(
          path,
          jsonType(value),
          `${bodyPath(path)} must be of type ${want}: ${JSON.stringify(jsonType(value))}`,
        );
        break;
      }
      case 'enum':
        fe = fieldErrors.notSupported(path, value, (p.allowedValues as unknown[]).map(String));
        break;
      case 'minimum':
        fe = fieldErrors.invalid(
          path,
          value,
          `${bodyPath(path)} should be greater than or equal to ${String(p.limit)}`,
        );
        break;
      case 'maximum':
        fe = fieldErrors.invalid(path, value, `${bodyPath(path)} should be less than or equal to ${String(p.limit)}`);
        break;
      case 'maxLength':
        fe = fieldErrors.tooLong(path, Number(p.limit));
        break;
      case 'maxItems':
        fe = fieldErrors.tooMany(path, Array.isArray(value) ? value.length : 0, Number(p.limit));
        break;
      case 'format':
        fe = fieldErrors.invalid(
          path,
          value,
          `${bodyPath(path)} must be of type ${String(p.format)}: ${JSON.stringify(value)}`,
        );
        break;
      case 'additionalProperties': {
        const name = String(p.additionalProperty);
        fe = fieldErrors.forbidden(path.child(name), `unknown field ${JSON.stringify(name)}; check its spelling`);
        break;
      }
      case 'x-kubernetes-list-map-keys':
        fe = fieldErrors.duplicate(path, value, 'items must be unique by their list-map keys');
        break;
      default:
        fe = fieldErrors.invalid(path, value, `${bodyPath(path)} fails the schema rule ${err.keyword}`);
    }
    if (!seen.has(fe.message)) {
      seen.add(fe.message);
      out.push(fe);
    }
  }
  return out;
}

/** Runs a compiled validator and returns its errors as field errors under `base`. */
export function schemaErrors(fn: ValidateFunction, data: unknown, base: FieldPath): FieldError[] {
  return fn(data) ? [] : translateAjvErrors(fn.errors ?? [], data, base);
}
