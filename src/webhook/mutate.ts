// The mutating admission handler: legacy-annotation migration, then kubelet defaults, as one JSON Patch. It mutates
// only: validation (field errors and the warnings about a valid object) is the validating webhook's, which the
// manifests always install with it; as with controller-runtime's Defaulter, a mutation that cannot be made (a legacy
// annotation that cannot be carried) is the one denial, and only the notes of what it moved are warnings.
// Pure over the decoded AdmissionReview; knows nothing of HTTP. Idempotent: a second round yields no patch.
import { LEGACY_ANNOTATION, migrateCluster, PROBE_ANNOTATION } from '@karmada-cluster-probe/schema';
import { cloneJson } from '@karmada-cluster-probe/schema/internal/schema/clone.js';
import { defaultClusterInPlace } from '@karmada-cluster-probe/schema/internal/schema/defaults.js';
import { diffSharing } from '@karmada-cluster-probe/schema/internal/schema/diff.js';
import { isRecord } from '@karmada-cluster-probe/schema/api';
import { answer, type AdmissionReview, type AdmissionReviewRequest } from './admission.js';
import { clusterObjectOf, invalidResponse, requestName, shapeWarnings } from './cluster-request.js';
import { DEFAULT_WEBHOOK_OPTIONS, type WebhookOptions } from './options.js';
import { encodePatch } from './patch.js';

/**
 * Where a probe could be: the field, the probe annotation, the legacy annotation. Migration only acts on the legacy
 * annotation and on a probe in the location not in use, and defaulting only on a probe; an object with none of them
 * skips both (most reviews, since the apiserver calls on every write), which halves the cost of a review.
 */
function probeSources(object: Record<string, unknown>): { field: boolean; annotation: boolean; legacy: boolean } {
  const metadata = object.metadata;
  const annotations = isRecord(metadata) ? metadata.annotations : undefined;
  const spec = object.spec;
  const keyed = isRecord(annotations);
  return {
    field: isRecord(spec) && Object.hasOwn(spec, 'livenessProbe'),
    annotation: keyed ? Object.hasOwn(annotations, PROBE_ANNOTATION) : annotations !== undefined,
    legacy: keyed && Object.hasOwn(annotations, LEGACY_ANNOTATION),
  };
}

/** `{ [key]: holder[key] }` when `holder` is an object (with the key only when present), else `holder` itself. */
function pick(holder: unknown, key: string): unknown {
  if (!isRecord(holder)) return holder;
  return Object.hasOwn(holder, key) ? { [key]: holder[key] } : {};
}

/**
 * What migration and defaulting read and write, at the same paths as in the Cluster: `metadata.annotations` (where the
 * probe and the legacy annotation live) and `spec.livenessProbe`, in the object's own key order; nothing else. Both
 * then copy and walk a probe-sized object, and the diff of the view before and after is the patch of the whole
 * Cluster (a path the view lacks, the object lacks too), however large its status, managedFields or the rest of its
 * spec. test/unit/webhook/fuzz.test.ts checks that the patch equals the diff of the whole object, migrated and
 * defaulted.
 */
function probeView(object: Record<string, unknown>): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const key of Object.keys(object)) {
    if (key === 'metadata') view.metadata = pick(object.metadata, 'annotations');
    else if (key === 'spec') view.spec = pick(object.spec, 'livenessProbe');
  }
  return view;
}

export function mutate(
  review: AdmissionReviewRequest,
  options: Pick<WebhookOptions, 'probeLocation'> & Partial<Pick<WebhookOptions, 'denyHosts'>> = DEFAULT_WEBHOOK_OPTIONS,
): AdmissionReview {
  const request = review.request;
  const checked = clusterObjectOf(review);
  if ('answer' in checked) return checked.answer;
  const object = checked.object;
  const sources = probeSources(object);
  // Most reviews carry no probe at all (the apiserver calls on every write): nothing to migrate or default.
  if (!sources.field && !sources.annotation && !sources.legacy) return answer(review, { allowed: true });
  const migrate = sources.legacy || (options.probeLocation === 'field' ? sources.annotation : sources.field);

  const view = probeView(object);
  // Defaulted in place, on a copy of the view: migration's own, or one made here (the diff needs the view as it was).
  let defaulted: unknown;
  let notes: string[] = [];
  if (migrate) {
    // The legacy url is checked against the same deny list as every probe host (--deny-cidr), not the default.
    const result = migrateCluster(view, {
      probeLocation: options.probeLocation,
      computePatch: false,
      ...(options.denyHosts !== undefined ? { denyHosts: options.denyHosts } : {}),
    });
    if (result.errors.length > 0) return answer(review, invalidResponse(requestName(request), result.errors));
    defaulted = result.object;
    notes = result.warnings;
  } else {
    defaulted = cloneJson(view);
  }
  const after = isRecord(defaulted) ? probeSources(defaulted) : undefined;
  if (after && (after.field || after.annotation)) defaultClusterInPlace(defaulted);
  // The patch's values are the defaulted view's own, serialised at once by encodePatch.
  const patch = diffSharing(view, defaulted as object);
  const warnings = notes.length > 0 ? shapeWarnings(notes) : [];
  return answer(review, {
    allowed: true,
    ...(patch.length > 0 ? { patchType: 'JSONPatch' as const, patch: encodePatch(patch) } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
  });
}
