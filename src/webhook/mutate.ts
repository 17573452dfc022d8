// The mutating admission handler: legacy-annotation migration, then kubelet defaults, as one JSON Patch.
// Pure over the decoded AdmissionReview; knows nothing of express. Idempotent: a second round yields no patch.
import { defaultCluster, migrateCluster, MigrationError, validateCluster } from '../schema/index.js';
import { answer, isRecord, type AdmissionReview, type AdmissionReviewRequest } from './admission.js';
import {
  badRequestResponse,
  invalidResponse,
  isClusterRequest,
  notAClusterWarning,
  requestName,
  shapeWarnings,
} from './cluster-request.js';
import { DEFAULT_WEBHOOK_OPTIONS, type WebhookOptions } from './options.js';
import { diffPatch, encodePatch } from './patch.js';

/** Operations that carry no object to change. */
const PASS_THROUGH = new Set(['DELETE', 'CONNECT']);

export function mutate(
  review: AdmissionReviewRequest,
  options: Pick<WebhookOptions, 'probeLocation'> = DEFAULT_WEBHOOK_OPTIONS,
): AdmissionReview {
  const request = review.request;
  if (PASS_THROUGH.has(request.operation ?? '')) return answer(review, { allowed: true });
  if (!isClusterRequest(request)) return answer(review, { allowed: true, warnings: [notAClusterWarning(request)] });
  const object = request.object;
  if (!isRecord(object)) {
    return answer(review, badRequestResponse(`${request.operation ?? 'request'} of a Cluster without request.object`));
  }

  let migrated: { object: unknown; warnings: string[] };
  try {
    migrated = migrateCluster(object, { probeLocation: options.probeLocation });
  } catch (err) {
    if (err instanceof MigrationError) return answer(review, invalidResponse(requestName(request), err.errors));
    throw err;
  }
  const defaulted = defaultCluster(migrated.object, { probeLocation: options.probeLocation });
  if (!isRecord(defaulted)) return answer(review, { allowed: true });

  const warnings = shapeWarnings([
    ...migrated.warnings,
    ...validateCluster(defaulted, { probeLocation: options.probeLocation }).warnings,
  ]);
  const patch = diffPatch(object, defaulted);
  return answer(review, {
    allowed: true,
    ...(patch.length > 0 ? { patchType: 'JSONPatch' as const, patch: encodePatch(patch) } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
  });
}
