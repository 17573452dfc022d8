// Deployment (issue 11): the project's Kubernetes manifests rendered from code (what `cluster-probe manifests` prints
// and manifests/ holds), and the guard against putting the Cluster CRD on a Karmada control plane. Install-time
// only: nothing here runs in the webhook or the reconciler. Imports the schema package's schema and api entries only.
export {
  CRD_PATH,
  CRD_SERVED_OVERLAY,
  CRD_WARNING,
  DEFAULT_MANIFEST_OPTIONS,
  MANIFEST_PARTS,
  manifestFiles,
  partObjects,
  renderManifestStream,
  renderManifests,
  webhookObjects,
  type ManifestOptions,
  type ManifestPart,
} from './manifests.js';
export {
  HEALTHY_CONDITION_TYPE,
  KARMADA_KUBECONFIG_DIR,
  KARMADA_KUBECONFIG_KEY,
  KARMADA_KUBECONFIG_SECRET,
  RECONCILER_NAME,
  TAINT_POLICY_NAME,
  type ReconcilerManifestOptions,
} from './reconciler-manifests.js';
export {
  APISERVICES_PATH,
  KARMADA_CLUSTER_APISERVICE,
  KarmadaControlPlaneError,
  aggregatedClusterApiServices,
  assertNotKarmadaControlPlane,
  karmadaControlPlaneRefusal,
  type APIServiceLike,
  type ApiRequester,
  type GuardTarget,
} from './karmada-guard.js';
export {
  CLUSTER_OPENAPI_PATH,
  discoverProbeStorage,
  fieldInOpenApi,
  probeStorageOf,
  type ProbeStorage,
} from './probe-storage.js';
