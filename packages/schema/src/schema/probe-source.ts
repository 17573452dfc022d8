// Where a Cluster's probe comes from: spec.livenessProbe, else the cluster.karmada.io/liveness-probe annotation (JSON),
// else the legacy cluster.karmada.io/health-checker annotation migrated in memory exactly as `migrate` migrates it.
// Every probe is checked by the schema library with the deny list the engine connects with: on a stock Karmada no
// admission runs for a Cluster, so what arrives here is unchecked. An invalid probe comes with its field errors and a
// bounded message of them that never shows a value that may be a secret (invalid-probe-message.ts; the reconciler's
// Healthy condition and Event carry it). Used by the reconciler and by `cluster-probe probe -f`. Pure: no I/O.
import { DEFAULT_DENY_CIDRS } from '../address/index.js';
import {
  API_VERSION,
  KIND,
  LEGACY_ANNOTATION,
  PROBE_ANNOTATION,
  errorBody,
  migrateCluster,
  validateCluster,
  type Cluster,
  type FieldError,
  type LivenessProbe,
  type ProbeLocation,
} from './index.js';
import { isRecord } from '../api/index.js';
import { invalidProbeMessage } from './invalid-probe-message.js';

export type ProbeSourceKind = 'field' | 'annotation' | 'legacy' | 'none';

export type ProbeSource =
  | { kind: 'none' }
  | { kind: Exclude<ProbeSourceKind, 'none'>; probe: LivenessProbe }
  /** Invalid: never run. `error` is the bounded message (no secrets); `errors` the field errors themselves. */
  | { kind: Exclude<ProbeSourceKind, 'none'>; error: string; errors: FieldError[] };

export interface ProbeSourceOptions {
  /** The CIDRs probes may never connect to (`--deny-cidr`); the engine's default list when omitted. */
  denyList?: readonly string[];
}

const LIVENESS_PROBE = 'spec.livenessProbe';
const LEGACY_PATH = `metadata.annotations[${LEGACY_ANNOTATION}]`;

/**
 * What the probe depends on, and nothing else: a Cluster's other fields (zones, taints, resource models) are not the
 * probe's business, and an error there must not stop it. The name and syncMode come along because the rules read
 * them; errors about them are dropped below (the apiserver that stored the object has judged them).
 */
function projection(cluster: Cluster, probe: { field?: unknown; annotations?: Record<string, unknown> }): object {
  const spec: Record<string, unknown> = isRecord(cluster.spec) ? cluster.spec : {};
  const keep: Record<string, unknown> = {};
  for (const k of ['syncMode', 'apiEndpoint', 'secretRef', 'insecureSkipTLSVerification'])
    if (spec[k] !== undefined) keep[k] = spec[k];
  if (probe.field !== undefined) keep.livenessProbe = probe.field;
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: {
      name: cluster.metadata?.name,
      ...(probe.annotations !== undefined ? { annotations: probe.annotations } : {}),
    },
    spec: keep,
  };
}

/** Errors about the probe or what it reads from the Cluster (apiEndpoint, secretRef). */
function aboutTheProbe(e: FieldError): boolean {
  return (
    e.field.startsWith(LIVENESS_PROBE) ||
    e.field.startsWith('metadata.annotations[') ||
    e.field.startsWith('spec.apiEndpoint') ||
    e.field.startsWith('spec.secretRef')
  );
}

function check(obj: object, location: ProbeLocation, denyList: readonly string[]): FieldError[] {
  return validateCluster(obj, { probeLocation: location, denyHosts: denyList }).errors.filter(aboutTheProbe);
}

function invalid(kind: Exclude<ProbeSourceKind, 'none'>, errors: FieldError[]): ProbeSource {
  return { kind, error: invalidProbeMessage(errors), errors };
}

/** An error about the migrated probe, named after the annotation the user wrote. */
function asLegacy(e: FieldError): FieldError {
  if (!e.field.startsWith(LIVENESS_PROBE)) return e;
  const field = `${LEGACY_PATH} (migrated to ${e.field})`;
  return { ...e, field, message: `${field}: ${errorBody(e)}` };
}

export function probeSourceOf(cluster: Cluster, options: ProbeSourceOptions = {}): ProbeSource {
  const denyList = options.denyList ?? DEFAULT_DENY_CIDRS;
  const field = cluster.spec?.livenessProbe;
  if (isRecord(field)) {
    const errors = check(projection(cluster, { field }), 'field', denyList);
    return errors.length > 0 ? invalid('field', errors) : { kind: 'field', probe: field as LivenessProbe };
  }
  const annotations = cluster.metadata?.annotations ?? {};
  const raw = annotations[PROBE_ANNOTATION];
  if (raw !== undefined) {
    const errors = check(projection(cluster, { annotations: { [PROBE_ANNOTATION]: raw } }), 'annotation', denyList);
    if (errors.length > 0) return invalid('annotation', errors);
    return { kind: 'annotation', probe: JSON.parse(raw) as LivenessProbe };
  }
  const legacy = annotations[LEGACY_ANNOTATION];
  if (legacy !== undefined) {
    let migrated: object;
    try {
      const out = migrateCluster(projection(cluster, { annotations: { [LEGACY_ANNOTATION]: legacy } }), {
        probeLocation: 'field',
        computePatch: false,
        denyHosts: denyList,
      }) as { object: unknown; errors?: FieldError[] };
      // The conversion's own errors (an annotation that does not convert) make the probe invalid.
      if (out.errors !== undefined && out.errors.length > 0) return invalid('legacy', out.errors);
      migrated = out.object as object;
    } catch (err) {
      // The same errors, thrown rather than returned (the schema library's earlier convention).
      const errors = (err as { errors?: unknown }).errors;
      if (!Array.isArray(errors)) throw err;
      return invalid('legacy', errors as FieldError[]);
    }
    const errors = check(migrated, 'field', denyList).map(asLegacy);
    if (errors.length > 0) return invalid('legacy', errors);
    // Checked just above: the migrated probe is valid, so it is a LivenessProbe.
    const probe = (migrated as { spec: { livenessProbe?: LivenessProbe } }).spec.livenessProbe;
    if (!isRecord(probe)) return invalid('legacy', []);
    return { kind: 'legacy', probe };
  }
  return { kind: 'none' };
}
