// The probe engine's input and output shapes. The probe's own fields (spec.livenessProbe) are the types generated
// from schemas/ into packages/schema/src/api, under the engine's names; the rest (context, result, timing) is the engine's own.
// Deliberately independent of the schema library's validators and of any Kubernetes client, so the engine can be used and tested alone.
import type {
  APIServerAction,
  GRPCAction,
  HTTPGetAction,
  HTTPHeader,
  LivenessProbe as SchemaLivenessProbe,
  TCPSocketAction,
  TimingField,
} from '@karmada-cluster-probe/schema/api';

/** A port number (1-65535) or an IANA service name such as `https`. gRPC takes numbers only. */
export type Port = HTTPGetAction['port'];
export type HttpHeader = HTTPHeader;
export type HttpGetAction = HTTPGetAction;
export type TcpSocketAction = TCPSocketAction;
export type GrpcAction = GRPCAction;
export type ApiServerAction = APIServerAction;
/** A Cluster's spec.livenessProbe (or the liveness-probe annotation's JSON). */
export type LivenessProbe = SchemaLivenessProbe;

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
 * error: either the probe cannot be performed as configured (unresolvable named port, bad caBundle, denied address...):
 * a fault of the configuration, never of the cluster, reported at once; or, with code 'ProbeErrored', the kubelet's
 * errored probe (the answer could not be read to the end): retried at once, then not counted at all.
 */
export type ProbeOutcome = 'success' | 'failure' | 'error';

/**
 * Which kind of `error` result this is, for a caller that must tell them apart without reading the message.
 * `InvalidCABundle`: httpGet.caBundle is not base64 of PEM certificates (the reconciler fills it from a Secret, so it
 * names the Secret instead). `ProbeErrored`: not a fault of the configuration but the kubelet's "probe errored"
 * (pkg/probe returned an error, e.g. the body could not be read): retried at once, and, as the kubelet's worker does,
 * never counted toward a threshold. `CredentialsRejected`: the apiServer handler's member answered 401 or 403, so our
 * credentials (the token of the Cluster's Secret) broke, not the member: a configuration fault, reported at once and
 * never retried (the reconciler names the Secret).
 */
export type ProbeErrorCode = 'InvalidCABundle' | 'ProbeErrored' | 'CredentialsRejected';

export interface ProbeResult {
  result: ProbeOutcome;
  /** In the kubelet's wording where the kubelet has one; never a response body, never a header value. */
  message: string;
  warnings?: string[];
  /** On some `error` results: what kind of configuration error it is. */
  code?: ProbeErrorCode;
  /** With `code`: the message without the field it names (`not valid base64`). */
  detail?: string;
  /**
   * How many times the handler ran, when more than once: an errored attempt is made again at once, up to 3 in all (the
   * kubelet's maxProbeRetries). Absent for a run of one attempt.
   */
  attempts?: number;
  /** The whole run, every attempt included. */
  durationMs: number;
}

/** A probe's timing with every default applied, as the prober runs it: each of the schema's timing fields. */
export type ResolvedTiming = Record<TimingField, number>;
