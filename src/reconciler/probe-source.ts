// Where a Cluster's probe comes from: spec.livenessProbe, else the cluster.karmada.io/liveness-probe annotation (JSON),
// else the legacy cluster.karmada.io/health-checker annotation converted exactly as migration converts it.
// Pure: no I/O. A probe that cannot be read is a configuration error, reported with the place it came from.
import {
  convertLegacyAnnotation,
  parseAnnotationJson,
  LEGACY_ANNOTATION,
  PROBE_ANNOTATION,
  validateProbe,
  type Cluster,
  type LivenessProbe,
} from '../schema/index.js';

export type ProbeSourceKind = 'field' | 'annotation' | 'legacy' | 'none';

export type ProbeSource =
  | { kind: 'none' }
  | { kind: Exclude<ProbeSourceKind, 'none'>; probe: LivenessProbe }
  | { kind: Exclude<ProbeSourceKind, 'none'>; error: string };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks a probe read from an annotation as the webhook would have; field errors joined in the apiserver's words. */
function checked(kind: 'annotation' | 'legacy', probe: unknown, base: string, apiEndpoint?: string): ProbeSource {
  const result = validateProbe(probe, { base, ...(apiEndpoint !== undefined ? { apiEndpoint } : {}) });
  if (!result.valid) return { kind, error: result.errors.map((e) => e.message).join('; ') };
  return { kind, probe: probe as LivenessProbe };
}

export function probeSourceOf(cluster: Cluster): ProbeSource {
  const field = cluster.spec?.livenessProbe;
  if (isObject(field)) return { kind: 'field', probe: field as LivenessProbe };
  const annotations = cluster.metadata?.annotations ?? {};
  const apiEndpoint = cluster.spec?.apiEndpoint;
  const raw = annotations[PROBE_ANNOTATION];
  if (raw !== undefined) {
    const read = parseAnnotationJson(raw, PROBE_ANNOTATION);
    if (read.error !== undefined) return { kind: 'annotation', error: read.error.message };
    const parsed = read.value;
    if (!isObject(parsed))
      return { kind: 'annotation', error: `metadata.annotations[${PROBE_ANNOTATION}]: must be a JSON object` };
    return checked('annotation', parsed, `metadata.annotations[${PROBE_ANNOTATION}]`, apiEndpoint);
  }
  const legacy = annotations[LEGACY_ANNOTATION];
  if (legacy !== undefined) {
    const converted = convertLegacyAnnotation(legacy);
    if (converted.probe === undefined || converted.errors.length > 0)
      return {
        kind: 'legacy',
        error: converted.errors.map((e) => e.message).join('; ') || `${LEGACY_ANNOTATION}: cannot be converted`,
      };
    return { kind: 'legacy', probe: converted.probe };
  }
  return { kind: 'none' };
}
