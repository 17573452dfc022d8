// The validating admission handler: every field error at once, denied as the apiserver denies an invalid object.
// Pure over the decoded AdmissionReview; knows nothing of HTTP. Probe hosts are checked against the deny list.
import { validateCluster } from '@karmada-cluster-probe/schema';
import { answer, type AdmissionReview, type AdmissionReviewRequest } from './admission.js';
import { clusterObjectOf, invalidResponse, requestName, shapeWarnings } from './cluster-request.js';
import { DEFAULT_WEBHOOK_OPTIONS, type WebhookOptions } from './options.js';

export function validate(
  review: AdmissionReviewRequest,
  options: WebhookOptions = DEFAULT_WEBHOOK_OPTIONS,
): AdmissionReview {
  const request = review.request;
  const checked = clusterObjectOf(review);
  if ('answer' in checked) return checked.answer;
  const object = checked.object;

  const result = validateCluster(object, { probeLocation: options.probeLocation, denyHosts: options.denyHosts });
  // validateCluster also checks a legacy annotation the mutating webhook did not see (or a validating webhook
  // installed alone): a malformed or conflicting one is a denial, never a silent drop.
  const errors = result.errors;
  const warnings = shapeWarnings(result.warnings);
  if (errors.length > 0) {
    return answer(review, {
      ...invalidResponse(requestName(request), errors),
      ...(warnings.length ? { warnings } : {}),
    });
  }
  return answer(review, { allowed: true, ...(warnings.length > 0 ? { warnings } : {}) });
}
