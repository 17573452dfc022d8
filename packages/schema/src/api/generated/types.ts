// Generated from schemas/ by `npm run generate`. Do not edit: change the schema and regenerate.

/** The parts of Kubernetes' ObjectMeta this library reads; the schema leaves metadata to the apiserver. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [key: string]: unknown;
}

/** One HTTP header. */
export interface HTTPHeader {
  /** Header field name; alphanumerics and '-'. */
  name: string;
  /** Header field value. */
  value: string;
}

/** An HTTP GET request; any status from 200 to 399 is a success. */
export interface HTTPGetAction {
  /** Scheme to connect with: HTTP or HTTPS. HTTPS is verified against caBundle or the system roots unless insecureSkipTLSVerify is true. */
  scheme?: 'HTTP' | 'HTTPS';
  /** Host name or IP address to connect to. Defaults to the host of spec.apiEndpoint. */
  host?: string;
  /** Port to connect to: a number from 1 to 65535 or an IANA service name such as "https". */
  port: number | string;
  /** Path to request, starting with '/'. */
  path?: string;
  /** Custom headers to send. A Host header sets the request's host. */
  httpHeaders?: HTTPHeader[];
  /** Base64-encoded PEM bundle of the CA certificates that sign the server's certificate. Defaults to the system roots. */
  caBundle?: string;
  /** Skip verification of the server's certificate. An explicit opt-out: use only for testing. */
  insecureSkipTLSVerify?: boolean;
}

/** A TCP connection that is opened and closed; success when it connects. */
export interface TCPSocketAction {
  /** Host name or IP address to connect to. Defaults to the host of spec.apiEndpoint. */
  host?: string;
  /** Port to connect to: a number from 1 to 65535 or an IANA service name. */
  port: number | string;
}

/** A grpc.health.v1 Check call; SERVING is a success. */
export interface GRPCAction {
  /** Host name or IP address to connect to. Defaults to the host of spec.apiEndpoint. */
  host?: string;
  /** Port number of the gRPC service, from 1 to 65535 (names are not accepted). */
  port: number;
  /** Service name to pass in the HealthCheckRequest; empty asks for the server's overall health. */
  service?: string;
}

/** A check through the member's own API with the credentials that spec.secretRef names: GET path, then the optional counts of Ready nodes and pods. */
export interface APIServerAction {
  /** Path to request on spec.apiEndpoint. */
  path?: string;
  /** At least this many Nodes must have the condition Ready=True. */
  minReadyNodes?: number;
  /** At least this many Running, Ready pods that do not use the host network must exist. */
  minReadyPods?: number;
}

/** The handlers of a LivenessProbe, each optional here; a LivenessProbe has exactly one of them. */
export interface LivenessProbeHandlers {
  /** An HTTP GET request; any status from 200 to 399 is a success. */
  httpGet?: HTTPGetAction;
  /** A TCP connection that is opened and closed; success when it connects. */
  tcpSocket?: TCPSocketAction;
  /** A grpc.health.v1 Check call; SERVING is a success. */
  grpc?: GRPCAction;
  /** A check through the member's own API with the credentials that spec.secretRef names: GET path, then the optional counts of Ready nodes and pods. */
  apiServer?: APIServerAction;
}

/** The fields of a LivenessProbe besides its handler: when it runs, its timeout and its thresholds. */
export interface LivenessProbeTiming {
  /** Seconds after the probe is first seen before it runs the first time. Not defaulted (as the kubelet): absent means 0. */
  initialDelaySeconds?: number;
  /** Seconds after which one probe times out. Minimum 1. */
  timeoutSeconds?: number;
  /** How often, in seconds, to probe. Minimum 1. */
  periodSeconds?: number;
  /** Consecutive successes for the cluster to be considered healthy after having failed. May exceed 1 here, to damp recovery. */
  successThreshold?: number;
  /** Consecutive failures for the cluster to be considered unhealthy. */
  failureThreshold?: number;
}

/** How the health of a member cluster is probed, modelled on a Pod's livenessProbe. Exactly one handler (httpGet, tcpSocket, grpc or apiServer) must be set. */
export type LivenessProbe =
  | (LivenessProbeTiming &
      Required<Pick<LivenessProbeHandlers, 'httpGet'>> & { tcpSocket?: never; grpc?: never; apiServer?: never })
  | (LivenessProbeTiming &
      Required<Pick<LivenessProbeHandlers, 'tcpSocket'>> & { httpGet?: never; grpc?: never; apiServer?: never })
  | (LivenessProbeTiming &
      Required<Pick<LivenessProbeHandlers, 'grpc'>> & { httpGet?: never; tcpSocket?: never; apiServer?: never })
  | (LivenessProbeTiming &
      Required<Pick<LivenessProbeHandlers, 'apiServer'>> & { httpGet?: never; tcpSocket?: never; grpc?: never });

/** A Service that answers the probe; reached at https://<name>.<namespace>.svc:<port><path>. */
export interface HealthCheckerService {
  /** Namespace of the Service. */
  namespace: string;
  /** Name of the Service. */
  name: string;
  /** Port of the Service; defaults to 443. */
  port?: number;
  /** Path to request; defaults to '/'. */
  path?: string;
}

/** The legacy annotation cluster.karmada.io/health-checker: a webhook-style client config naming an external probe service. Migrated into spec.livenessProbe.httpGet. */
export interface HealthCheckerAnnotation {
  /** A Service that answers the probe; reached at https://<name>.<namespace>.svc:<port><path>. */
  service?: HealthCheckerService;
  /** A URL to GET instead of a Service: scheme://host[:port][/path]. */
  url?: string;
  /** Base64-encoded PEM bundle that verifies the server's certificate. */
  caBundle?: string;
}

/** The Secret (with keys token and caBundle) that holds the credentials for the member cluster's API. */
export interface LocalSecretReference {
  /** Namespace of the Secret. */
  namespace: string;
  /** Name of the Secret. */
  name: string;
}

/** A taint that keeps workloads that do not tolerate it off the cluster. */
export interface Taint {
  /** The taint key to be applied to a cluster. */
  key: string;
  /** The taint value corresponding to the taint key. */
  value?: string;
  /** The effect of the taint: NoSchedule or NoExecute. */
  effect: 'NoSchedule' | 'NoExecute';
  /** The time at which the taint was added (for NoExecute taints). */
  timeAdded?: string;
}

/** The interval [min, max) of one resource. */
export interface ResourceModelRange {
  /** The resource name, e.g. cpu, memory, storage, ephemeral-storage or an extended resource such as nvidia.com/gpu (Karmada checks no names). */
  name: string;
  /** The minimum (inclusive), a Kubernetes quantity. */
  min: number | string;
  /** The maximum (exclusive), a Kubernetes quantity. */
  max: number | string;
}

/** One grade of the resource model. */
export interface ResourceModel {
  /** The index of this model. */
  grade: number;
  /** The range of each resource in this grade. */
  ranges: ResourceModelRange[];
}

/** Spec represents the specification of the desired behavior of the member cluster. */
export interface ClusterSpec {
  /** ID is the unique identifier for the cluster, typically collected from the member during registration. */
  id?: string;
  /** SyncMode describes how a cluster syncs resources from the Karmada control plane: Push or Pull. */
  syncMode: 'Pull' | 'Push';
  /** The API endpoint of the member cluster: a URL such as https://10.0.0.1:6443 (hostname, hostname:port, IP or IP:port). */
  apiEndpoint?: string;
  /** The Secret (with keys token and caBundle) that holds the credentials for the member cluster's API. */
  secretRef?: LocalSecretReference;
  /** The Secret that holds the token of the impersonator service account of the member cluster. */
  impersonatorSecretRef?: LocalSecretReference;
  /** Skip verification of the member API's certificate. Insecure; for testing only. */
  insecureSkipTLSVerification?: boolean;
  /** Proxy to reach the member cluster through: a URL with scheme http, https or socks5. */
  proxyURL?: string;
  /** HTTP headers to send to the proxy. */
  proxyHeader?: Record<string, string>;
  /** The cloud provider name of the member cluster. */
  provider?: string;
  /** The region where the member cluster is located. */
  region?: string;
  /** Deprecated: use zones. The zone where the member cluster is located. */
  zone?: string;
  /** The zones where the member cluster is located. */
  zones?: string[];
  /** Taints of the member cluster. The reconciler owns only cluster.karmada.io/unhealthy. */
  taints?: Taint[];
  /** Resource models of the cluster, from grade 0 upwards, with contiguous ranges starting at 0. */
  resourceModels?: ResourceModel[];
  livenessProbe?: LivenessProbe;
}

/** One aspect of the current state of the cluster. */
export interface Condition {
  /** Type of the condition, e.g. Healthy. */
  type: string;
  /** Status of the condition: True, False or Unknown. */
  status: 'True' | 'False' | 'Unknown';
  /** The metadata.generation the condition was set for. */
  observedGeneration?: number;
  /** When the condition last changed from one status to another. */
  lastTransitionTime: string;
  /** A CamelCase reason for the last transition, e.g. LivenessProbeFailed. */
  reason: string;
  /** A human-readable message on the transition. */
  message: string;
}

/** Status represents the most recently observed status of the member cluster. */
export interface ClusterStatus {
  /** The Kubernetes version of the member cluster. */
  kubernetesVersion?: string;
  /** The API groups and resources the member cluster serves. */
  apiEnablements?: Record<string, unknown>[];
  /** The current state of the cluster, among them Ready and Healthy (written by the probe reconciler). */
  conditions?: Condition[];
  /** A summary of the nodes of the member cluster. */
  nodeSummary?: Record<string, unknown>;
  /** A summary of the resources of the member cluster. */
  resourceSummary?: Record<string, unknown>;
  /** The remedy actions Karmada takes for the cluster. */
  remedyActions?: string[];
}

/** Cluster represents the desired state and status of a member cluster of Karmada, with a liveness probe that tells whether work can still run there. */
export interface Cluster {
  /** APIVersion defines the versioned schema of this representation of an object: cluster.karmada.io/v1alpha1. */
  apiVersion?: 'cluster.karmada.io/v1alpha1';
  /** Kind is a string value representing the REST resource this object represents: Cluster. */
  kind?: 'Cluster';
  /** Standard object metadata. The name must be a DNS-1123 label of at most 48 characters. */
  metadata?: ObjectMeta;
  /** Spec represents the specification of the desired behavior of the member cluster. */
  spec: ClusterSpec;
  /** Status represents the most recently observed status of the member cluster. */
  status?: ClusterStatus;
}
