// The probe engine's own input and output shapes: the fields of a Cluster's spec.livenessProbe, and a probe's result.
// Deliberately independent of src/schema and of any Kubernetes client, so the engine can be used and tested alone.

/** A port number (1-65535) or an IANA service name such as `https`. gRPC takes numbers only. */
export type Port = number | string;

export interface HttpHeader {
  name: string;
  value: string;
}

export interface HttpGetAction {
  scheme?: 'HTTP' | 'HTTPS';
  /** Omitted: the host of the Cluster's apiEndpoint. */
  host?: string;
  port: Port;
  path?: string;
  httpHeaders?: HttpHeader[];
  /** Base64 of a PEM bundle of CA certificates that HTTPS is verified against (system roots when omitted). */
  caBundle?: string;
  insecureSkipTLSVerify?: boolean;
}

export interface TcpSocketAction {
  host?: string;
  port: Port;
}

export interface GrpcAction {
  host?: string;
  port: number;
  service?: string;
}

export interface ApiServerAction {
  path?: string;
  minReadyNodes?: number;
  minReadyPods?: number;
}

export interface LivenessProbe {
  httpGet?: HttpGetAction;
  tcpSocket?: TcpSocketAction;
  grpc?: GrpcAction;
  apiServer?: ApiServerAction;
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
}

/** Credentials for the apiServer handler, handed in by the caller (the engine reads no Secrets). */
export interface ProbeCredentials {
  /** Bearer token. */
  token?: string;
  /** PEM (not base64) of the CA bundle the member's apiserver is verified against. */
  caBundlePem?: string;
}

export interface ProbeContext {
  /** The Cluster's spec.apiEndpoint, e.g. `https://10.0.0.1:6443`: default host, and the apiServer handler's base. */
  apiEndpoint?: string;
  credentials?: ProbeCredentials;
  /** The Cluster's spec.insecureSkipTLSVerification: skips verification for the apiServer handler only. */
  insecureSkipTLSVerify?: boolean;
  /** CIDRs whose addresses may never be connected to; defaults to DEFAULT_DENY_LIST. An empty list allows all. */
  denyList?: readonly string[];
  /** Aborts the probe (the scheduler's stop); an aborted probe ends as a failure saying so. */
  signal?: AbortSignal;
  /** Extra named ports beyond the embedded IANA table. */
  namedPorts?: Readonly<Record<string, number>>;
}

/**
 * success: the target is healthy. failure: the target is not (or cannot be reached).
 * error: the probe cannot be performed as configured (unresolvable named port, bad caBundle, denied address...):
 * a fault of the configuration, never of the cluster.
 */
export type ProbeOutcome = 'success' | 'failure' | 'error';

export interface ProbeResult {
  result: ProbeOutcome;
  /** In the kubelet's wording where the kubelet has one; never a response body, never a header value. */
  message: string;
  warnings?: string[];
  durationMs: number;
}

/** A probe with every default applied, as the prober runs it. */
export interface ResolvedTiming {
  initialDelaySeconds: number;
  timeoutSeconds: number;
  periodSeconds: number;
  successThreshold: number;
  failureThreshold: number;
}
