// The whole admission pipeline short of the socket: the edge (edge.ts: media type, encoding, size, JSON, review
// shape), the handler, the fallback. Pure and synchronous, so the server (admission-route.ts) and the tests, fuzz
// included, run one path; it returns, it never throws.
import {
  isRejection,
  rejectionStatus,
  answer,
  type AdmissionReview,
  type AdmissionReviewRequest,
  type ReviewRejection,
  type StatusBody,
} from './admission.js';
import { parseReview, type ReviewHeadLike } from './edge.js';
import { requestName, truncateWarning } from './cluster-request.js';
import { mutate } from './mutate.js';
import { validate } from './validate.js';
import type { WebhookName } from './metrics.js';
import type { WebhookOptions } from './options.js';
import { messageOf } from '@karmada-cluster-probe/schema/api';

export interface HandledReview {
  /** HTTP status to send: 200 for every answered review, 4xx for a body that is not one. */
  code: 200 | ReviewRejection['code'];
  /** The JSON body: an AdmissionReview, or a metav1.Status for a 4xx. */
  body: AdmissionReview | StatusBody;
  /** The Status of a 4xx (the same object as `body`). */
  rejection?: StatusBody;
  /** The decoded review (absent for a 4xx). */
  review?: AdmissionReviewRequest;
  /** The answer (absent for a 4xx). */
  answer?: AdmissionReview;
  /** A handler failure that the fallback answer covered; the caller logs it. */
  error?: unknown;
}

/**
 * Runs a webhook over a raw body. A handler that throws (a bug, or input the schema library chokes on) is answered,
 * not crashed on: the mutating webhook admits unchanged (validation still runs after it), the validating webhook
 * denies with 400 (fail closed, as `failurePolicy: Fail` would).
 */
export function handleReview(
  webhook: WebhookName,
  head: ReviewHeadLike,
  body: Buffer | string,
  options: WebhookOptions,
): HandledReview {
  const decoded = parseReview(head, body);
  if (isRejection(decoded)) {
    const status = rejectionStatus(decoded);
    return { code: decoded.code, body: status, rejection: status };
  }
  try {
    const result = webhook === 'mutate' ? mutate(decoded, options) : validate(decoded, options);
    return { code: 200, body: result, review: decoded, answer: result };
  } catch (error) {
    const reason = messageOf(error);
    const name = requestName(decoded.request);
    const result =
      webhook === 'mutate'
        ? answer(decoded, {
            allowed: true,
            warnings: [truncateWarning(`cluster-probe webhook could not default Cluster "${name}": ${reason}`)],
          })
        : answer(decoded, {
            allowed: false,
            status: { code: 400, reason: 'BadRequest', message: `Cluster "${name}" could not be validated: ${reason}` },
          });
    return { code: 200, body: result, review: decoded, answer: result, error };
  }
}
