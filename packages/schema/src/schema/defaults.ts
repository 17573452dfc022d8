// Defaulting: the kubelet's probe defaults, declared as `default` in schemas/liveness-probe.schema.json and applied
// by one function (ajv's useDefaults on a copy), to spec.livenessProbe and to the liveness-probe annotation alike.
// Pure: defaultCluster and defaultProbe return a copy and never mutate their argument; defaultClusterInPlace, for the
// webhook, defaults the copy its caller holds.
import { cloneJson } from './clone.js';
import { jsonEqual } from './json-equal.js';
import { defaultingValidators } from './ajv-validators.js';
import { PROBE_ANNOTATION, type ProbeLocation } from './constants.js';
import { isRecord, type LivenessProbe } from '../api/index.js';

/** A copy of `probe` with every default the schema declares filled in where the user left a field out. */
export function defaultProbe<T = LivenessProbe>(probe: T): T {
  const copy = cloneJson(probe);
  if (isRecord(copy)) defaultingValidators.livenessProbe(copy);
  return copy;
}

export interface DefaultOptions {
  /** Accepted for symmetry with migrateCluster; both locations are defaulted whichever is set. */
  probeLocation?: ProbeLocation;
}

/**
 * A copy of the Cluster with its probe defaulted, wherever it is held. The annotation's JSON is rewritten only
 * when a default was actually added, so that defaulting twice changes nothing.
 */
export function defaultCluster<T>(obj: T, _options: DefaultOptions = {}): T {
  const copy = cloneJson(obj);
  defaultClusterInPlace(copy);
  return copy;
}

/**
 * defaultCluster on `obj` itself, for a caller that holds its own copy already (the mutating webhook defaults the
 * copy migration made, instead of copying it again). Not part of the public surface.
 */
export function defaultClusterInPlace(obj: unknown): void {
  if (!isRecord(obj)) return;
  const spec = obj.spec;
  if (isRecord(spec) && isRecord(spec.livenessProbe)) defaultingValidators.livenessProbe(spec.livenessProbe);
  const annotations = isRecord(obj.metadata) ? obj.metadata.annotations : undefined;
  if (isRecord(annotations) && typeof annotations[PROBE_ANNOTATION] === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(annotations[PROBE_ANNOTATION]);
    } catch {
      return; // unparsable JSON is validation's to report, never ours to rewrite
    }
    if (isRecord(parsed)) {
      const defaulted = defaultProbe(parsed);
      if (!jsonEqual(defaulted, parsed)) annotations[PROBE_ANNOTATION] = JSON.stringify(defaulted);
    }
  }
}
