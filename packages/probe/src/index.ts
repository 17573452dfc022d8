// The probe engine's public surface (the package's `./probe` export): run one probe, count thresholds, schedule
// thousands. Imports nothing of the schema library's validators, src/webhook, src/reconciler or a Kubernetes client.
export type {
  ApiServerAction,
  GrpcAction,
  HttpGetAction,
  HttpHeader,
  LivenessProbe,
  Port,
  ProbeContext,
  ProbeCredentials,
  ProbeErrorCode,
  ProbeOutcome,
  ProbeResult,
  ResolvedTiming,
  TcpSocketAction,
} from './types.js';
export {
  runProbe,
  resolveTiming,
  handlerOf,
  hostOfEndpoint,
  PROBE_DEFAULTS,
  MAX_PROBE_ATTEMPTS,
  type HandlerName,
} from './prober.js';
export { isErrored } from './handler.js';
export { ProbeWorker, type Transition, type WorkerState } from './worker.js';
export {
  ProbeScheduler,
  TIMER_SLACK_MS,
  type ProbeRunner,
  type SchedulerOptions,
  type AddOptions,
} from './scheduler.js';
export { RealClock, type Clock, type TimerHandle } from '@karmada-cluster-probe/schema/api';
export { AddressGuard, AddressDeniedError, DEFAULT_DENY_LIST, parseCidr } from './address-guard.js';
export { IANA_SERVICE_PORTS, isIanaServiceName, resolvePort, type PortResolution } from './named-port.js';
export { MAX_BODY_BYTES, MAX_REDIRECTS } from './http-probe.js';
export { MAX_RESPONSE_HEADER_BYTES } from './response.js';
export { LIST_PAGE_SIZE } from './apiserver-probe.js';
export { API_SERVER_READ_BUDGET, ReadBudgetExceeded, type ReadBudget } from './read-budget.js';
export {
  healthServiceDefinition,
  HEALTH_CHECK_PATH,
  SERVING_STATUS_NAMES,
  type HealthCheckRequest,
  type HealthCheckResponse,
} from './health-proto.js';
export { PROBE_VERSION, USER_AGENT } from './version.js';
