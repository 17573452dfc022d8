// Migration: moves the legacy health-checker annotation (and a probe held in the other location) into the probe
// location this installation uses, returning the new object, an RFC 6902 patch from the old one, and warnings.
// Idempotent; never drops what the user wrote; what it cannot carry comes back as field errors (an ErrorList, never
// thrown), with the object unchanged. Pure: no I/O.
import { cloneJson } from './clone.js';
import { jsonEqual } from './json-equal.js';
import type { DenyHosts } from './address-ranges.js';
import { LEGACY_ANNOTATION, PROBE_ANNOTATION, type ProbeLocation } from './constants.js';
import { defaultProbe } from './defaults.js';
import { diffPatch, type JsonPatchOperation } from './diff.js';
import { append, fieldErrors, type FieldError } from './field-error.js';
import { annotationPath, convertLegacyAnnotation, parseAnnotationJson } from './legacy-annotation.js';
import { isRecord, type LivenessProbe, type LivenessProbeHandlers, type LivenessProbeTiming } from '../api/index.js';

/**
 * What migration did. `errors` is the library's ErrorList: empty when the object was migrated (or had nothing to
 * migrate); otherwise it says what cannot be carried and where, and `object` is an unchanged copy of the input, `patch`
 * and `warnings` empty (never half-migrated).
 */
export interface MigrationResult<T = unknown> {
  object: T;
  patch: JsonPatchOperation[];
  warnings: string[];
  errors: FieldError[];
}

/**
 * The type of what migrateCluster returns for an object of type `T`: `T`, with the probe where location `L` keeps it
 * (spec.livenessProbe, or the liveness-probe annotation's JSON). Not an object in, the same out.
 */
export type Migrated<T, L extends ProbeLocation = ProbeLocation> = T extends object
  ? L extends 'field'
    ? T & { spec?: { livenessProbe?: LivenessProbe } }
    : T & { metadata?: { annotations?: Record<string, string> } }
  : T;

export interface MigrateOptions<L extends ProbeLocation = ProbeLocation> {
  probeLocation: L;
  /** Compute `patch` (default true). The webhook diffs once, after defaulting too, so it passes false. */
  computePatch?: boolean;
  /**
   * The deny list the legacy url's host is checked against (DEFAULT_DENY_CIDRS when omitted, as in validateCluster):
   * a url the address policy denies is a field error, never migrated. A malformed entry throws CidrError (a
   * programming error of the caller's options, not of the object).
   */
  denyHosts?: DenyHosts;
}

interface Holder {
  annotations: Record<string, unknown> | undefined;
  spec: Record<string, unknown> | undefined;
}

function readProbe(h: Holder, location: ProbeLocation, errors: FieldError[]): unknown {
  if (location === 'field') return h.spec?.livenessProbe;
  const raw = h.annotations?.[PROBE_ANNOTATION];
  if (raw === undefined) return undefined;
  const parsed = parseAnnotationJson(raw, PROBE_ANNOTATION);
  append(errors, parsed.errors);
  return parsed.value;
}

function writeProbe(obj: Record<string, unknown>, h: Holder, location: ProbeLocation, probe: unknown): void {
  if (location === 'field') {
    if (h.spec === undefined) {
      h.spec = {};
      obj.spec = h.spec;
    }
    h.spec.livenessProbe = probe;
  } else {
    if (h.annotations === undefined) {
      const meta = isRecord(obj.metadata) ? obj.metadata : (obj.metadata = {});
      h.annotations = (meta as Record<string, unknown>).annotations = {} as Record<string, unknown>;
    }
    h.annotations[PROBE_ANNOTATION] = JSON.stringify(probe);
  }
}

function clearProbe(h: Holder, location: ProbeLocation): void {
  if (location === 'field') delete h.spec?.livenessProbe;
  else delete h.annotations?.[PROBE_ANNOTATION];
}

const where = (l: ProbeLocation): string => (l === 'field' ? 'spec.livenessProbe' : `annotation ${PROBE_ANNOTATION}`);
const pathOf = (l: ProbeLocation): string =>
  l === 'field' ? 'spec.livenessProbe' : String(annotationPath(PROBE_ANNOTATION));

/** The first field where the legacy probe and the existing one differ (after defaulting both), if any. */
function disagreement(legacy: LivenessProbe, existing: unknown): string | undefined {
  if (!isRecord(existing)) return 'the existing probe is not an object';
  const a = defaultProbe(legacy);
  const b = defaultProbe(existing as LivenessProbeHandlers & LivenessProbeTiming);
  if (b.httpGet === undefined) return 'the existing probe has no httpGet handler';
  for (const k of ['scheme', 'host', 'port', 'path', 'caBundle'] as const)
    if (!jsonEqual(a.httpGet?.[k], b.httpGet[k]))
      return `httpGet.${k} is ${JSON.stringify(b.httpGet[k])}, the annotation says ${JSON.stringify(a.httpGet?.[k])}`;
  if (a.timeoutSeconds !== b.timeoutSeconds)
    return `timeoutSeconds is ${String(b.timeoutSeconds)}, the annotation's probe had ${String(a.timeoutSeconds)}`;
  return undefined;
}

/**
 * Migrates `obj` so that its probe lives in `probeLocation`: a probe in the other location is moved there, and the
 * legacy annotation is converted and removed once the probe carries all of it. A second run changes nothing.
 */
export function migrateCluster<T, L extends ProbeLocation = ProbeLocation>(
  obj: T,
  options: MigrateOptions<L>,
): MigrationResult<Migrated<T, L>> {
  const target = options.probeLocation;
  const other: ProbeLocation = target === 'field' ? 'annotation' : 'field';
  if (!isRecord(obj)) return { object: cloneJson(obj) as Migrated<T, L>, patch: [], warnings: [], errors: [] };
  const copy = cloneJson(obj);
  const meta = isRecord(copy.metadata) ? copy.metadata : undefined;
  const h: Holder = {
    annotations: meta !== undefined && isRecord(meta.annotations) ? meta.annotations : undefined,
    spec: isRecord(copy.spec) ? copy.spec : undefined,
  };
  const warnings: string[] = [];
  const errors: FieldError[] = [];

  // 1. A probe in the other location moves here (or goes, when this location already holds the same probe).
  const misplaced = readProbe(h, other, errors);
  if (misplaced !== undefined && errors.length === 0) {
    const current = readProbe(h, target, errors);
    if (current === undefined) {
      writeProbe(copy, h, target, misplaced);
      clearProbe(h, other);
      warnings.push(`moved the probe from ${where(other)} to ${where(target)}`);
    } else if (jsonEqual(defaultProbe(current), defaultProbe(misplaced))) {
      clearProbe(h, other);
      warnings.push(`removed ${where(other)}: ${where(target)} holds the same probe`);
    } else {
      errors.push(fieldErrors.forbidden(pathOf(other), `disagrees with ${where(target)}; keep one of them`));
    }
  }

  // 2. The legacy annotation becomes the probe, and goes only once the probe carries all of it.
  const legacyRaw = h.annotations?.[LEGACY_ANNOTATION];
  if (legacyRaw !== undefined && errors.length === 0) {
    const converted = convertLegacyAnnotation(legacyRaw, options.denyHosts);
    errors.push(...converted.errors);
    if (converted.probe !== undefined) {
      const current = readProbe(h, target, errors);
      if (current === undefined) {
        writeProbe(copy, h, target, converted.probe);
        delete h.annotations?.[LEGACY_ANNOTATION];
        warnings.push(
          `migrated annotation ${LEGACY_ANNOTATION} into ${target === 'field' ? 'spec.livenessProbe.httpGet' : PROBE_ANNOTATION}`,
        );
      } else {
        const why = disagreement(converted.probe, current);
        if (why === undefined) {
          delete h.annotations?.[LEGACY_ANNOTATION];
          warnings.push(`removed annotation ${LEGACY_ANNOTATION}: ${where(target)} already carries it`);
        } else {
          errors.push(
            fieldErrors.forbidden(
              annotationPath(LEGACY_ANNOTATION),
              `disagrees with ${where(target)} (${why}); remove the annotation or make them agree`,
            ),
          );
        }
      }
    }
  }
  if (errors.length > 0) return { object: cloneJson(obj) as Migrated<T, L>, patch: [], warnings: [], errors };
  const object = copy as Migrated<T, L>;
  return { object, patch: options.computePatch === false ? [] : diffPatch(obj, copy), warnings, errors };
}
