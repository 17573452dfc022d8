// Public face of the webhook (the package's `./webhook` subpath): the pure admission handlers over a decoded
// AdmissionReview, the HTTP-free pipeline over a raw body, and the HTTPS server with its one request router. The
// manifests and the guard against putting the CRD on a Karmada control plane are deployment: src/deploy.
// Imports the schema package (@karmada-cluster-probe/schema) only through its entries; never the probe engine or reconciler.
export {
  ADMISSION_V1,
  ADMISSION_V1BETA1,
  MAX_BODY_BYTES,
  answer,
  decodeReview,
  isRejection,
  type AdmissionApiVersion,
  type AdmissionRequest,
  type AdmissionResponse,
  type AdmissionReview,
  type AdmissionReviewRequest,
  type GroupVersionKind,
  type GroupVersionResource,
  type Operation,
  type ReviewRejection,
  type Status,
  type StatusBody,
  type StatusCause,
  type StatusDetails,
} from './admission.js';
export { parseReview, type ReviewHead, type ReviewHeadLike } from './edge.js';
export {
  MAX_DENIAL_ERRORS,
  MAX_DENIAL_ERROR_LENGTH,
  MAX_WARNING_LENGTH,
  shapeWarnings,
  truncateWarning,
} from './cluster-request.js';
export {
  DEFAULT_CONNECTION_TIMEOUTS,
  DEFAULT_WEBHOOK_OPTIONS,
  type ConnectionTimeouts,
  type WebhookOptions,
} from './options.js';
// The default of WebhookOptions.denyHosts, the schema library's own list (not a copy), for webhook users.
export { DEFAULT_DENY_CIDRS } from '@karmada-cluster-probe/schema';
export { applyPatch, decodePatch, encodePatch } from './patch.js';
export { mutate } from './mutate.js';
export { validate } from './validate.js';
export { handleReview, type HandledReview } from './handle.js';
export { createMetrics, type WebhookMetrics, type WebhookName } from './metrics.js';
export { createRequestListener, type AppOptions } from './app.js';
export type { AdmissionRouteOptions } from './admission-route.js';
export { WebhookServer, type WebhookServerOptions } from './server.js';
