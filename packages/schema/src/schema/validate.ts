// validateCluster: the schema (ajv, compiled once) plus Karmada's and the probe's rules, every error at once, as
// apiserver field errors; and validateProbe for a probe on its own. Never throws, whatever it is given.
// Pure: no I/O.
import { denyListFor, type CompiledDenyList } from './address-ranges.js';
import { endpointHost } from '../address/index.js';
import { rawValidators, schemaErrors } from './ajv-validators.js';
import { clusterRules } from './cluster-rules.js';
import { API_VERSION, KIND, LEGACY_ANNOTATION, PROBE_ANNOTATION, type ProbeLocation } from './constants.js';
import { append, FieldPath, fieldErrors, sortFieldErrors, type FieldError } from './field-error.js';
import { annotationPath, convertLegacyAnnotation, parseAnnotationJson } from './legacy-annotation.js';
import { migrateCluster } from './migrate.js';
import { probeRules, type ProbeContext } from './probe-rules.js';
import {
  DEFAULT_FIELD_VALIDATION,
  unknownFieldMessage,
  unknownFields,
  type FieldValidation,
} from './unknown-fields.js';
import { clip, isRecord, messageOf, type Cluster, type LivenessProbe } from '../api/index.js';

const ROOT = FieldPath.root('');
const LIVENESS_PROBE = FieldPath.root('spec').child('livenessProbe');

export interface ValidateOptions {
  /** Where this installation keeps the probe (default `field`). */
  probeLocation?: ProbeLocation;
  /**
   * CIDRs that probe targets may not fall in; DEFAULT_DENY_CIDRS when omitted, as in the probe engine. Addresses in
   * any spelling are checked here, names after resolution by the engine; 0.0.0.0 and :: are denied whatever it says.
   */
  denyHosts?: readonly string[];
  /**
   * What a field no Cluster has (`spec.livenessprobe`, `statuz`) gets, as kube-apiserver's `fieldValidation`
   * parameter decides: `Warn` (the default, the apiserver's when the client names none) a warning
   * `unknown field "spec.livenessprobe"`, `Strict` (kubectl's default) an error at that path, `Ignore` nothing.
   * Inside the probe an unknown key is always an error (the probe's schema is closed).
   */
  fieldValidation?: FieldValidation;
}

/**
 * What validation found, discriminated by `valid` (true exactly when `errors` is empty): when valid, `object` (the
 * object given, not a copy) is typed as what it was checked to be, a Cluster for validateCluster and a LivenessProbe
 * for validateProbe, so that `if (result.valid)` narrows it.
 */
export type ValidationResult<T = Cluster> = ValidResult<T> | InvalidResult;

export interface ValidResult<T = Cluster> {
  valid: true;
  errors: FieldError[];
  warnings: string[];
  object: T;
}

export interface InvalidResult {
  valid: false;
  errors: FieldError[];
  warnings: string[];
  object: unknown;
}

/** The result for `obj` once `errors` and `warnings` are complete: valid exactly when there is no error. */
function resultOf<T>(obj: unknown, errors: FieldError[], warnings: string[]): ValidationResult<T> {
  sortFieldErrors(errors);
  return errors.length === 0
    ? { valid: true, errors, warnings, object: obj as T }
    : { valid: false, errors, warnings, object: obj };
}

const NO_ERRORS: readonly FieldError[] = Object.freeze([]);
/** Read in place of a missing spec, metadata or annotations (never written). */
const EMPTY: Readonly<Record<string, unknown>> = Object.freeze({});
const NO_OPTIONS: ValidateOptions = Object.freeze({});

/** The compiled list, or the default one with a field error when an entry is malformed (never throws). */
function compileDenyHosts(cidrs: readonly string[] | undefined): {
  list: CompiledDenyList;
  errors: readonly FieldError[];
} {
  try {
    return { list: denyListFor(cidrs), errors: NO_ERRORS };
  } catch (err) {
    return {
      list: denyListFor(undefined),
      errors: [fieldErrors.invalid('options.denyHosts', cidrs, messageOf(err))],
    };
  }
}

function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

function validateAnnotationProbe(raw: unknown, ctx: ProbeContext, errors: FieldError[], warnings: string[]): void {
  const parsed = parseAnnotationJson(raw, PROBE_ANNOTATION);
  if (parsed.errors.length > 0) {
    append(errors, parsed.errors);
    return;
  }
  // The probe's own errors are reported under the annotation (the base passed down); rules about the Cluster keep
  // their own paths (spec.apiEndpoint, spec.secretRef).
  const base = annotationPath(PROBE_ANNOTATION);
  append(errors, schemaErrors(rawValidators.livenessProbe, parsed.value, base));
  const rules = probeRules(parsed.value, base, ctx);
  append(errors, rules.errors);
  append(warnings, rules.warnings);
}

/**
 * Validates a Cluster: returns every error at once, in the apiserver's wording, plus warnings. Never throws. When
 * `valid`, the result's `object` is `obj` typed as a Cluster.
 */
export function validateCluster<T>(obj: T, options: ValidateOptions = NO_OPTIONS): ValidationResult<T & Cluster> {
  const location = options.probeLocation ?? 'field';
  const errors: FieldError[] = [];
  const warnings: string[] = [];
  if (!isRecord(obj)) {
    errors.push(
      fieldErrors.typeInvalid('', jsonType(obj), `body must be of type object: ${JSON.stringify(jsonType(obj))}`),
    );
    return { valid: false, errors, warnings, object: obj };
  }
  const { list: denyList, errors: denyListErrors } = compileDenyHosts(options.denyHosts);
  append(errors, denyListErrors);
  if (obj.apiVersion !== undefined && obj.apiVersion !== API_VERSION)
    errors.push(fieldErrors.notSupported('apiVersion', obj.apiVersion, [API_VERSION]));
  if (obj.kind !== undefined && obj.kind !== KIND) errors.push(fieldErrors.notSupported('kind', obj.kind, [KIND]));

  const schema = schemaErrors(rawValidators.cluster, obj, ROOT);
  const cluster = clusterRules(obj);
  if (cluster.supersedes === undefined) append(errors, schema);
  else for (const e of schema) if (!cluster.supersedes.has(e.field)) errors.push(e);
  append(errors, cluster.errors);
  append(warnings, cluster.warnings);

  const spec = isRecord(obj.spec) ? obj.spec : EMPTY;
  const meta = isRecord(obj.metadata) ? obj.metadata : EMPTY;
  const annotations = isRecord(meta.annotations) ? meta.annotations : EMPTY;
  const ctx: ProbeContext = {
    apiEndpointHost: cluster.apiEndpointHost,
    syncMode: spec.syncMode,
    hasSecretRef: isRecord(spec.secretRef),
    denyList,
  };

  if (spec.livenessProbe !== undefined) {
    const rules = probeRules(spec.livenessProbe, LIVENESS_PROBE, ctx);
    append(errors, rules.errors);
    append(warnings, rules.warnings);
  }
  if (annotations[PROBE_ANNOTATION] !== undefined)
    validateAnnotationProbe(annotations[PROBE_ANNOTATION], ctx, errors, warnings);

  // The probe belongs in one place; in the other it would be dropped (field) or ignored (annotation).
  if (location === 'annotation' && spec.livenessProbe !== undefined)
    errors.push(
      fieldErrors.forbidden(
        'spec.livenessProbe',
        `this installation keeps the probe in annotation ${PROBE_ANNOTATION} (--probe-location=annotation); move it there or run \`cluster-probe migrate --probe-location annotation\``,
      ),
    );
  else if (location === 'field' && annotations[PROBE_ANNOTATION] !== undefined && spec.livenessProbe !== undefined)
    errors.push(
      fieldErrors.forbidden(
        annotationPath(PROBE_ANNOTATION),
        'may not be set together with spec.livenessProbe; keep one of them',
      ),
    );

  if (annotations[LEGACY_ANNOTATION] !== undefined) {
    const legacy = convertLegacyAnnotation(annotations[LEGACY_ANNOTATION], denyList);
    append(errors, legacy.errors);
    if (legacy.errors.length === 0) {
      // Migration reads and writes only the annotations and spec.livenessProbe: give it those, not a whole Cluster
      // to copy (the webhook validates every write).
      const view = isRecord(obj.spec)
        ? { metadata: { annotations }, spec: { livenessProbe: spec.livenessProbe } }
        : { metadata: { annotations } };
      const migrated = migrateCluster(view, { probeLocation: location, denyHosts: denyList, computePatch: false });
      if (migrated.errors.length === 0)
        warnings.push(
          `annotation ${LEGACY_ANNOTATION} is deprecated; run \`cluster-probe migrate\` to move it into the probe`,
        );
      else {
        const known = new Set(errors.map((e) => e.message));
        for (const e of migrated.errors) if (!known.has(e.message)) errors.push(e);
      }
    }
  }
  reportUnknownFields(obj, options.fieldValidation ?? DEFAULT_FIELD_VALIDATION, errors, warnings);
  return resultOf(obj, errors, warnings);
}

function reportUnknownFields(obj: unknown, mode: FieldValidation, errors: FieldError[], warnings: string[]): void {
  if (mode === 'Ignore') return;
  const { paths, total, unreadable } = unknownFields(obj);
  if (unreadable !== undefined)
    errors.push(
      fieldErrors.forbidden(
        '',
        `could not be read as plain JSON data (${clip(unreadable, 256)}); send the object as JSON`,
      ),
    );
  for (const path of paths) {
    if (mode === 'Strict') errors.push(fieldErrors.forbidden(path, unknownFieldMessage(path)));
    else warnings.push(unknownFieldMessage(path));
  }
  if (total > paths.length) {
    const more = `and ${total - paths.length} more unknown fields`;
    if (mode === 'Strict') errors.push(fieldErrors.forbidden('', more));
    else warnings.push(more);
  }
}

/**
 * Whether `x` is a Cluster: an object validateCluster finds no error in (with `options`, or the defaults: the probe
 * in spec.livenessProbe, the default deny list, unknown fields a warning). A type guard, so that `if (isCluster(x))`
 * narrows x. This is full validation: to keep the broken Clusters of a list, filter with isClusterKind.
 */
export function isCluster(x: unknown, options?: ValidateOptions): x is Cluster {
  return validateCluster(x, options).valid;
}

/**
 * Whether `x` says it is a Cluster: an object with apiVersion `cluster.karmada.io/v1alpha1` and kind `Cluster`, and
 * nothing else checked, as @kubernetes-models' `Cluster.is(x)`. Cheap, for filtering a list (`kubectl get clusters -o
 * json`) without dropping the broken ones, which `isCluster` refuses; the type is what the object claims, so read its
 * fields as a Cluster's only after validateCluster.
 */
export function isClusterKind(x: unknown): x is Cluster {
  return isRecord(x) && x.apiVersion === API_VERSION && x.kind === KIND;
}

/**
 * Validates a probe on its own (as in the liveness-probe annotation), with paths relative to `base`: a path's text
 * (`livenessProbe`, the default) or a FieldPath, which is passed down to every check as it is.
 */
export function validateProbe<T>(
  probe: T,
  options: ValidateOptions & { apiEndpoint?: string; base?: string | FieldPath } = {},
): ValidationResult<T & LivenessProbe> {
  const base = options.base instanceof FieldPath ? options.base : FieldPath.root(options.base ?? 'livenessProbe');
  const errors = schemaErrors(rawValidators.livenessProbe, probe, base);
  const host = endpointHost(options.apiEndpoint);
  const { list: denyList, errors: denyListErrors } = compileDenyHosts(options.denyHosts);
  append(errors, denyListErrors);
  const rules = probeRules(probe, base, { apiEndpointHost: host, hasSecretRef: true, denyList });
  errors.push(...rules.errors);
  return resultOf(probe, errors, rules.warnings);
}
