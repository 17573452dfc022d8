// The schema validators, compiled from schemas/ at build time (`npm run generate` writes ajv's standalone code into
// packages/schema/src/schema/generated/; scripts/generate/validators.ts holds the ajv configuration and our x-kubernetes-* keywords),
// and the translation of ajv's errors into Kubernetes field errors (the wording the apiserver uses for a CRD's OpenAPI
// schema). Importing this compiles nothing and loads no ajv. Pure: no I/O.
import type { ErrorObject } from 'ajv';
import * as runtime from './ajv-runtime.js';
import { unescapePointerToken } from './diff.js';
import { FieldPath, fieldErrors, type FieldError } from './field-error.js';
import { validators as defaultingValidatorsOf } from './generated/defaulting-validators.js';
import { validators as strictValidatorsOf } from './generated/validators.js';

/** A compiled schema check: true when `data` satisfies the schema, else false with the reasons in `errors`. */
export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

// The generated code is untyped JavaScript; its functions have exactly this shape (their names: VALIDATOR_EXPORTS in
// scripts/generate/validators.ts).
const strict = strictValidatorsOf(runtime) as Record<'cluster' | 'livenessProbe' | 'healthChecker', CompiledValidator>;
const defaulting = defaultingValidatorsOf(runtime) as Record<'livenessProbe', CompiledValidator>;

export const rawValidators = {
  cluster: strict.cluster,
  livenessProbe: strict.livenessProbe,
  healthChecker: strict.healthChecker,
};

/** Validators that also insert the schema's `default`s into the data they check (ajv `useDefaults`). */
export const defaultingValidators = {
  livenessProbe: defaulting.livenessProbe,
};

/** `/spec/taints/0/key` -> `spec.taints[0].key`, relative to `base`. */
function toPath(base: FieldPath, instancePath: string, data: unknown): { path: FieldPath; value: unknown } {
  let path = base;
  let value: unknown = data;
  if (instancePath === '') return { path, value };
  for (const raw of instancePath.slice(1).split('/')) {
    const seg = unescapePointerToken(raw);
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
export function schemaErrors(fn: CompiledValidator, data: unknown, base: FieldPath): FieldError[] {
  return fn(data) ? [] : translateAjvErrors(fn.errors ?? [], data, base);
}
