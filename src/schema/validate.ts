// validateCluster: the schema (ajv, compiled once) plus Karmada's and the probe's rules, every error at once, as
// apiserver field errors; and validateProbe for a probe on its own. Never throws, whatever it is given.
// Pure: no I/O.
import { denyListFor, type CompiledDenyList } from './address-ranges.js';
import { endpointHost } from '../address/index.js';
import { rawValidators, schemaErrors } from './ajv-validators.js';
import { clusterRules } from './cluster-rules.js';
import { API_VERSION, KIND, LEGACY_ANNOTATION, PROBE_ANNOTATION, type ProbeLocation } from './constants.js';
import { append, FieldPath, fieldErrors, rebase, type FieldError } from './field-error.js';

const ROOT = FieldPath.root('');
const LIVENESS_PROBE = FieldPath.root('spec').child('livenessProbe');
import { annotationPath, convertLegacyAnnotation, parseAnnotationJson } from './legacy-annotation.js';
import { migrateCluster, MigrationError } from './migrate.js';
import { probeRules, type ProbeContext } from './probe-rules.js';
import { messageOf } from '../api/index.js';

export interface ValidateOptions {
  /** Where this installation keeps the probe (default `field`). */
  probeLocation?: ProbeLocation;
  /**
   * CIDRs that probe targets may not fall in; DEFAULT_DENY_CIDRS when omitted, as in the probe engine. Addresses in
   * any spelling are checked here, names after resolution by the engine; 0.0.0.0 and :: are denied whatever it says.
   */
  denyHosts?: readonly string[];
}

export interface ValidationResult {
  valid: boolean;
  errors: FieldError[];
  warnings: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The compiled list, or the default one with a field error when an entry is malformed (never throws). */
function compileDenyHosts(cidrs: readonly string[] | undefined): { list: CompiledDenyList; error?: FieldError } {
  try {
    return { list: denyListFor(cidrs) };
  } catch (err) {
    return {
      list: denyListFor(undefined),
      error: fieldErrors.invalid('options.denyHosts', cidrs, messageOf(err)),
    };
  }
}

function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

function validateAnnotationProbe(raw: unknown, ctx: ProbeContext, errors: FieldError[], warnings: string[]): void {
  const parsed = parseAnnotationJson(raw, PROBE_ANNOTATION);
  if (parsed.error !== undefined) {
    errors.push(parsed.error);
    return;
  }
  const base = annotationPath(PROBE_ANNOTATION);
  const schema = schemaErrors(rawValidators.livenessProbe, parsed.value, base);
  errors.push(...schema);
  const rules = probeRules(parsed.value, FieldPath.root('probe'), ctx);
  // Rules about the probe itself are reported under the annotation; rules about the Cluster keep their own paths.
  errors.push(
    ...rules.errors.filter((e) => !e.field.startsWith('probe')),
    ...rebase(
      rules.errors.filter((e) => e.field.startsWith('probe')),
      String(base),
      'probe',
    ),
  );
  warnings.push(...rules.warnings.map((w) => w.replace(/^probe/, String(base))));
}

/** Validates a Cluster: returns every error at once, in the apiserver's wording, plus warnings. Never throws. */
export function validateCluster(obj: unknown, options: ValidateOptions = {}): ValidationResult {
  const location = options.probeLocation ?? 'field';
  const errors: FieldError[] = [];
  const warnings: string[] = [];
  if (!isObject(obj)) {
    errors.push(
      fieldErrors.typeInvalid('', jsonType(obj), `body must be of type object: ${JSON.stringify(jsonType(obj))}`),
    );
    return { valid: false, errors, warnings };
  }
  const { list: denyList, error: denyListError } = compileDenyHosts(options.denyHosts);
  if (denyListError !== undefined) errors.push(denyListError);
  if (obj.apiVersion !== undefined && obj.apiVersion !== API_VERSION)
    errors.push(fieldErrors.notSupported('apiVersion', obj.apiVersion, [API_VERSION]));
  if (obj.kind !== undefined && obj.kind !== KIND) errors.push(fieldErrors.notSupported('kind', obj.kind, [KIND]));

  const schema = schemaErrors(rawValidators.cluster, obj, ROOT);
  const cluster = clusterRules(obj);
  if (cluster.supersedes === undefined) append(errors, schema);
  else for (const e of schema) if (!cluster.supersedes.has(e.field)) errors.push(e);
  append(errors, cluster.errors);
  append(warnings, cluster.warnings);

  const spec = isObject(obj.spec) ? obj.spec : {};
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  const annotations = isObject(meta.annotations) ? meta.annotations : {};
  const ctx: ProbeContext = {
    apiEndpointHost: cluster.apiEndpointHost,
    syncMode: spec.syncMode,
    hasSecretRef: isObject(spec.secretRef),
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
    errors.push(...legacy.errors);
    if (legacy.errors.length === 0) {
      try {
        migrateCluster(obj, { probeLocation: location, denyHosts: denyList });
        warnings.push(
          `annotation ${LEGACY_ANNOTATION} is deprecated; run \`cluster-probe migrate\` to move it into the probe`,
        );
      } catch (err) {
        if (!(err instanceof MigrationError)) throw err;
        const known = new Set(errors.map((e) => e.message));
        errors.push(...err.errors.filter((e) => !known.has(e.message)));
      }
    }
  }
  return { valid: errors.length === 0, errors, warnings };
}

/** Validates a probe on its own (as in the liveness-probe annotation), with paths relative to `base`. */
export function validateProbe(
  probe: unknown,
  options: ValidateOptions & { apiEndpoint?: string; base?: string } = {},
): ValidationResult {
  const base = options.base ?? 'livenessProbe';
  const errors = schemaErrors(rawValidators.livenessProbe, probe, FieldPath.root(base));
  const host = endpointHost(options.apiEndpoint);
  const { list: denyList, error: denyListError } = compileDenyHosts(options.denyHosts);
  if (denyListError !== undefined) errors.push(denyListError);
  const rules = probeRules(probe, FieldPath.root(base), { apiEndpointHost: host, hasSecretRef: true, denyList });
  errors.push(...rules.errors);
  return { valid: errors.length === 0, errors, warnings: rules.warnings };
}
