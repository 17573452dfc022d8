// The mutating admission handler: legacy-annotation migration, then kubelet defaults, as one JSON Patch.
// Pure over the decoded AdmissionReview; knows nothing of express. Idempotent: a second round yields no patch.
import {
  defaultCluster,
  LEGACY_ANNOTATION,
  migrateCluster,
  MigrationError,
  PROBE_ANNOTATION,
  validateCluster,
  type ProbeLocation,
} from '../schema/index.js';
import { isRecord } from '../api/index.js';
import { answer, type AdmissionReview, type AdmissionReviewRequest } from './admission.js';
import { clusterObjectOf, invalidResponse, requestName, shapeWarnings } from './cluster-request.js';
import { DEFAULT_WEBHOOK_OPTIONS, type WebhookOptions } from './options.js';
import { diffPatch, encodePatch } from './patch.js';

/**
 * Where a probe could be: the field, the probe annotation, the legacy annotation. Migration only acts on the legacy
 * annotation and on a probe in the location not in use, and defaulting only on a probe; an object with none of them
 * skips both (most reviews, since the apiserver calls on every write), which halves the cost of a review.
 */
function probeSources(object: Record<string, unknown>): { field: boolean; annotation: boolean; legacy: boolean } {
  const metadata = object.metadata;
  const annotations = isRecord(metadata) ? metadata.annotations : undefined;
  const spec = object.spec;
  const has = (key: string) => isRecord(annotations) && Object.hasOwn(annotations, key);
  return {
    field: isRecord(spec) && Object.hasOwn(spec, 'livenessProbe'),
    annotation: has(PROBE_ANNOTATION) || (annotations !== undefined && !isRecord(annotations)),
    legacy: has(LEGACY_ANNOTATION),
  };
}

function needsMigration(object: Record<string, unknown>, location: ProbeLocation): boolean {
  const sources = probeSources(object);
  return sources.legacy || (location === 'field' ? sources.annotation : sources.field);
}

export function mutate(
  review: AdmissionReviewRequest,
  options: Pick<WebhookOptions, 'probeLocation'> & Partial<Pick<WebhookOptions, 'denyHosts'>> = DEFAULT_WEBHOOK_OPTIONS,
): AdmissionReview {
  const request = review.request;
  const checked = clusterObjectOf(review);
  if ('answer' in checked) return checked.answer;
  const object = checked.object;

  let migrated: { object: unknown; warnings: string[] } = { object, warnings: [] };
  if (needsMigration(object, options.probeLocation)) {
    try {
      // The legacy url is checked against the same deny list as every probe host (--deny-cidr), not the default.
      migrated = migrateCluster(object, {
        probeLocation: options.probeLocation,
        computePatch: false,
        ...(options.denyHosts !== undefined ? { denyHosts: options.denyHosts } : {}),
      });
    } catch (err) {
      if (err instanceof MigrationError) return answer(review, invalidResponse(requestName(request), err.errors));
      throw err;
    }
  }
  const sources = isRecord(migrated.object) ? probeSources(migrated.object) : undefined;
  const defaulted =
    sources && (sources.field || sources.annotation)
      ? defaultCluster(migrated.object, { probeLocation: options.probeLocation })
      : migrated.object;
  if (!isRecord(defaulted)) return answer(review, { allowed: true });

  const warnings = shapeWarnings([
    ...migrated.warnings,
    ...validateCluster(defaulted, { probeLocation: options.probeLocation }).warnings,
  ]);
  const patch = defaulted === object ? [] : diffPatch(object, defaulted);
  return answer(review, {
    allowed: true,
    ...(patch.length > 0 ? { patchType: 'JSONPatch' as const, patch: encodePatch(patch) } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
  });
}
