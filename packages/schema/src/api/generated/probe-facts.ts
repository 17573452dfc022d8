// Generated from schemas/liveness-probe.schema.json by `npm run generate`. Do not edit: change the schema and
// regenerate. The one table of the probe's handlers and defaults, read by the schema library and the probe engine.

/** The probe's handlers, in the schema's order: a probe sets exactly one. */
export const HANDLERS = ['httpGet', 'tcpSocket', 'grpc', 'apiServer'] as const;
export type HandlerName = (typeof HANDLERS)[number];

/** The timing fields, in the schema's order. */
export const TIMING_FIELDS = [
  'initialDelaySeconds',
  'timeoutSeconds',
  'periodSeconds',
  'successThreshold',
  'failureThreshold',
] as const;
export type TimingField = (typeof TIMING_FIELDS)[number];

/**
 * The timing defaults, the schema's `default`s (the kubelet's SetDefaults_Probe): only these are filled in. A timing
 * field not listed here is never written; absent, it means Go's zero value, 0.
 */
export const TIMING_DEFAULTS = Object.freeze({
  timeoutSeconds: 1,
  periodSeconds: 10,
  successThreshold: 1,
  failureThreshold: 3,
} as const);

/** The least value each timing field may take (the schema's `minimum`). */
export const TIMING_MINIMUMS: Readonly<Record<TimingField, number>> = Object.freeze({
  initialDelaySeconds: 0,
  timeoutSeconds: 1,
  periodSeconds: 1,
  successThreshold: 1,
  failureThreshold: 1,
});

/** The fields each handler defaults when they are left out. */
export const HANDLER_DEFAULTS = Object.freeze({
  httpGet: {
    scheme: 'HTTP',
    path: '/',
  },
  tcpSocket: {},
  grpc: {
    service: '',
  },
  apiServer: {
    path: '/readyz',
  },
} as const);
