// Public face of the webhook (the package's `./webhook` subpath): the pure admission handlers, the express app,
// the HTTPS server, the manifest renderer and the guard against putting the CRD on a Karmada control plane.
// Imports src/schema only through its index; never src/probe or reconciler.
export * from './admission.js';
export * from './cluster-request.js';
export * from './options.js';
export * from './patch.js';
export { mutate } from './mutate.js';
export { validate } from './validate.js';
export { handleReview, type HandledReview } from './handle.js';
export { createMetrics, operationLabel, type WebhookMetrics, type WebhookName } from './metrics.js';
export { createApp, createRequestListener, type AppOptions } from './app.js';
export { serveAdmission, type AdmissionRouteOptions } from './admission-route.js';
export { WebhookServer, type WebhookServerOptions } from './server.js';
export * from './manifests.js';
export * from './reconciler-manifests.js';
export * from './karmada-guard.js';
