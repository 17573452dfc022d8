// Names the whole project agrees on: the API group, the annotations and the probe's kubelet defaults.
// Pure data.

export const GROUP = 'cluster.karmada.io';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;
export const KIND = 'Cluster';
export const PLURAL = 'clusters';

/** The legacy annotation of karmada PR 3616: JSON naming an external probe service. */
export const LEGACY_ANNOTATION = 'cluster.karmada.io/health-checker';
/** Where the probe lives when the Cluster API cannot store spec.livenessProbe (`--probe-location=annotation`). */
export const PROBE_ANNOTATION = 'cluster.karmada.io/liveness-probe';
/** The taint the reconciler owns. */
export const UNHEALTHY_TAINT_KEY = 'cluster.karmada.io/unhealthy';

export type ProbeLocation = 'field' | 'annotation';
export const PROBE_LOCATIONS: readonly ProbeLocation[] = ['field', 'annotation'];

export const HANDLERS = ['httpGet', 'tcpSocket', 'grpc', 'apiServer'] as const;
export type HandlerName = (typeof HANDLERS)[number];

/** The timeout the legacy annotation's probe always had; migration keeps it. */
export const LEGACY_TIMEOUT_SECONDS = 10;
