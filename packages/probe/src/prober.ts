// The stateless prober: applies the kubelet's defaults, resolves host and named port, picks the one handler and runs
// it, again at once when it errored (the kubelet's runProbeWithRetries). Configuration faults come back as result
// 'error', never thrown, and are not retried. Imports nothing of Kubernetes or schema.
import { apiServerProbe } from './apiserver-probe.js';
import { guardFor, type AddressGuard } from './address-guard.js';
import { configError, isErrored, type HandlerEnv, type HandlerResult } from './handler.js';
import { httpProbe } from './http-probe.js';
import { resolvePort } from './named-port.js';
import { tcpProbe } from './tcp-probe.js';
import type { ProbeContext, ProbeResult, ResolvedTiming } from './types.js';
import { endpointHost } from '@karmada-cluster-probe/schema/address';
import {
  HANDLER_DEFAULTS,
  HANDLERS,
  messageOf,
  TIMING_DEFAULTS,
  TIMING_FIELDS,
  TIMING_MINIMUMS,
  type HandlerName,
  type LivenessProbeHandlers,
  type LivenessProbeTiming,
} from '@karmada-cluster-probe/schema/api';

/**
 * The gRPC handler and @grpc/grpc-js (13 MiB of RSS once loaded, a quarter of the engine's) are loaded when the
 * first gRPC probe runs, not by every process that probes over HTTP or TCP; that first probe waits for the load.
 */
let grpcHandler: Promise<typeof import('./grpc-probe.js')> | undefined;
const loadGrpc = (): Promise<typeof import('./grpc-probe.js')> => (grpcHandler ??= import('./grpc-probe.js'));

export type { HandlerName };

/** A probe as read from a Cluster, not yet checked: none or several handlers are possible, and answered 'error'. */
type UncheckedProbe = LivenessProbeTiming & LivenessProbeHandlers;

/**
 * The timing a probe that sets none runs with: the schema's defaults (packages/schema/src/api, generated from schemas/), and Go's
 * zero value for a field the kubelet does not default (initialDelaySeconds).
 */
export const PROBE_DEFAULTS: Readonly<ResolvedTiming> = Object.freeze(
  Object.fromEntries(
    TIMING_FIELDS.map((f) => [f, (TIMING_DEFAULTS as Partial<Record<string, number>>)[f] ?? 0]),
  ) as ResolvedTiming,
);

function atLeast(value: number | undefined, fallback: number, min: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= min ? Math.floor(value) : fallback;
}

/** The probe's timing with the kubelet's defaults; values below the schema's minimum fall back to the default. */
export function resolveTiming(probe: UncheckedProbe): ResolvedTiming {
  const out = {} as ResolvedTiming;
  for (const f of TIMING_FIELDS) out[f] = atLeast(probe[f], PROBE_DEFAULTS[f], TIMING_MINIMUMS[f]);
  return out;
}

/** The one handler set on the probe, or a message saying why there is not exactly one. */
export function handlerOf(probe: UncheckedProbe): { ok: true; name: HandlerName } | { ok: false; message: string } {
  const set = HANDLERS.filter((h) => probe[h] !== undefined && probe[h] !== null);
  if (set.length === 1 && set[0] !== undefined) return { ok: true, name: set[0] };
  if (set.length === 0)
    return {
      ok: false,
      message: `livenessProbe: Required value: must specify a handler type (${HANDLERS.join(', ')})`,
    };
  return {
    ok: false,
    message: `livenessProbe: Forbidden: may not specify more than 1 handler type (${set.join(', ')})`,
  };
}

/** The host of an apiEndpoint URL, without IPv6 brackets (the one parser, packages/schema/src/address's endpointHost). */
export function hostOfEndpoint(apiEndpoint: string | undefined): string | undefined {
  return endpointHost(apiEndpoint);
}

function hostFor(explicit: string | undefined, ctx: ProbeContext, field: string): string | HandlerResult {
  if (explicit !== undefined && explicit !== '') return explicit.replace(/^\[|\]$/g, '');
  const h = hostOfEndpoint(ctx.apiEndpoint);
  if (h === undefined)
    return configError(
      `${field}: host is omitted and spec.apiEndpoint ${ctx.apiEndpoint === undefined ? 'is not set' : `"${ctx.apiEndpoint}" is not a URL`}`,
    );
  return h;
}

async function dispatch(probe: UncheckedProbe, ctx: ProbeContext, env: HandlerEnv): Promise<HandlerResult> {
  const which = handlerOf(probe);
  if (!which.ok) return configError(which.message);
  switch (which.name) {
    case 'httpGet': {
      const a = probe.httpGet!;
      const host = hostFor(a.host, ctx, 'livenessProbe.httpGet');
      if (typeof host !== 'string') return host;
      const port = resolvePort(a.port, 'livenessProbe.httpGet.port', ctx.namedPorts);
      if (!port.ok) return configError(port.message);
      const scheme = a.scheme ?? HANDLER_DEFAULTS.httpGet.scheme;
      if (scheme !== 'HTTP' && scheme !== 'HTTPS')
        return configError(
          `livenessProbe.httpGet.scheme: Unsupported value: "${String(scheme)}": supported values: "HTTP", "HTTPS"`,
        );
      return httpProbe(
        {
          scheme,
          host,
          port: port.port,
          path: a.path === undefined || a.path === '' ? HANDLER_DEFAULTS.httpGet.path : a.path,
          httpHeaders: a.httpHeaders ?? [],
          ...(a.caBundle !== undefined && a.caBundle !== '' ? { caBundle: a.caBundle } : {}),
          insecureSkipTLSVerify: a.insecureSkipTLSVerify === true,
        },
        env,
      );
    }
    case 'tcpSocket': {
      const a = probe.tcpSocket!;
      const host = hostFor(a.host, ctx, 'livenessProbe.tcpSocket');
      if (typeof host !== 'string') return host;
      const port = resolvePort(a.port, 'livenessProbe.tcpSocket.port', ctx.namedPorts);
      if (!port.ok) return configError(port.message);
      return tcpProbe({ host, port: port.port }, env);
    }
    case 'grpc': {
      const a = probe.grpc!;
      const host = hostFor(a.host, ctx, 'livenessProbe.grpc');
      if (typeof host !== 'string') return host;
      if (typeof a.port !== 'number')
        return configError(`livenessProbe.grpc.port: Invalid value: "${String(a.port)}": must be a port number`);
      const port = resolvePort(a.port, 'livenessProbe.grpc.port');
      if (!port.ok) return configError(port.message);
      const service = a.service ?? HANDLER_DEFAULTS.grpc.service;
      return loadGrpc().then((m) => m.grpcProbe({ host, port: port.port, service }, env));
    }
    case 'apiServer': {
      const a = probe.apiServer!;
      if (ctx.apiEndpoint === undefined || ctx.apiEndpoint === '')
        return configError('livenessProbe.apiServer: spec.apiEndpoint is not set');
      return apiServerProbe(
        {
          path: a.path === undefined || a.path === '' ? HANDLER_DEFAULTS.apiServer.path : a.path,
          ...(a.minReadyNodes !== undefined ? { minReadyNodes: a.minReadyNodes } : {}),
          ...(a.minReadyPods !== undefined ? { minReadyPods: a.minReadyPods } : {}),
        },
        {
          apiEndpoint: ctx.apiEndpoint,
          ...(ctx.credentials !== undefined ? { credentials: ctx.credentials } : {}),
          ...(ctx.insecureSkipTLSVerify !== undefined ? { insecureSkipTLSVerify: ctx.insecureSkipTLSVerify } : {}),
        },
        env,
      );
    }
  }
}

/**
 * Attempts of one run when the handler errored (code 'ProbeErrored'): the kubelet's maxProbeRetries (prober.go), which
 * counts attempts in all, not retries after the first.
 */
export const MAX_PROBE_ATTEMPTS = 3;

/**
 * Runs `attempt` until it gives anything but an errored result, at most `max` times in all, as the kubelet's
 * runProbeWithRetries: at once, no pause between attempts, and the last attempt's result when every one errored.
 * Unlike the kubelet's loop (which checks no context), an aborted `signal` ends it before the next attempt: a stopped
 * worker or a removed Cluster must not wait for two more timeouts. A configuration error is never retried: the next
 * attempt would fail the same way.
 */
export async function withRetries(
  attempt: () => Promise<HandlerResult>,
  signal: AbortSignal | undefined,
  max = MAX_PROBE_ATTEMPTS,
): Promise<{ out: HandlerResult; attempts: number }> {
  let attempts = 0;
  for (;;) {
    attempts++;
    const out = await attempt();
    if (!isErrored(out) || attempts >= max || signal?.aborted === true) return { out, attempts };
  }
}

/**
 * Runs `probe` now. Never rejects: a fault of the configuration (or of this code) is result 'error'. An errored
 * attempt is made again at once, up to MAX_PROBE_ATTEMPTS in all, each with the whole timeoutSeconds (the kubelet
 * hands every attempt its own timeout, so an errored run can take three); `attempts` says how many were made when
 * there was more than one, and `durationMs` covers them all.
 */
export async function runProbe(probe: UncheckedProbe, ctx: ProbeContext = {}): Promise<ProbeResult> {
  const started = performance.now();
  let guard: AddressGuard;
  let out: HandlerResult;
  let attempts = 1;
  try {
    guard = guardFor(ctx.denyList);
    const timing = resolveTiming(probe);
    const env: HandlerEnv = {
      guard,
      timeoutMs: timing.timeoutSeconds * 1000,
      ...(ctx.signal !== undefined ? { signal: ctx.signal } : {}),
    };
    ({ out, attempts } = await withRetries(() => dispatch(probe, ctx, env), ctx.signal));
  } catch (e) {
    out = configError(`probe could not run: ${messageOf(e)}`);
  }
  return {
    ...out,
    ...(attempts > 1 ? { attempts } : {}),
    durationMs: Math.round((performance.now() - started) * 1000) / 1000,
  };
}
