// Names the whole project agrees on: the API group, version, kind and plural, the annotations, the taint, and where
// the probe may live. One home: src/schema re-exports them, and the probe engine, the webhook, the reconciler and the
// CLI read them from here. Pure data.

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

/** Where this installation keeps the probe: `spec.livenessProbe`, or the PROBE_ANNOTATION annotation. */
export const PROBE_LOCATIONS = ['field', 'annotation'] as const;
export type ProbeLocation = (typeof PROBE_LOCATIONS)[number];

/** The timeout the legacy annotation's probe always had; migration keeps it. */
export const LEGACY_TIMEOUT_SECONDS = 10;
