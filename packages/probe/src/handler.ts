// What every handler (httpGet, tcpSocket, grpc, apiServer) returns and receives, once the prober has applied the
// defaults and resolved host and port. Depends on nothing of Kubernetes.
import type { AddressGuard } from './address-guard.js';
import type { ProbeErrorCode, ProbeOutcome } from './types.js';

export interface HandlerResult {
  result: ProbeOutcome;
  message: string;
  warnings?: string[];
  code?: ProbeErrorCode;
  detail?: string;
}

export interface HandlerEnv {
  guard: AddressGuard;
  timeoutMs: number;
  signal?: AbortSignal;
}

export function success(message: string, warnings?: string[]): HandlerResult {
  return warnings !== undefined && warnings.length > 0
    ? { result: 'success', message, warnings }
    : { result: 'success', message };
}

export function failure(message: string): HandlerResult {
  return { result: 'failure', message };
}

export function configError(message: string): HandlerResult {
  return { result: 'error', message };
}

/**
 * The kubelet's errored probe (pkg/probe returned an error rather than a result): a fault neither of the
 * configuration nor, as far as the probe can tell, of the target. Retried, then discarded by the worker.
 */
export function errored(message: string): HandlerResult {
  return { result: 'error', message, code: 'ProbeErrored' };
}

/** Whether a result is the kubelet's errored probe: retried, then never counted toward a threshold. */
export function isErrored(result: Pick<HandlerResult, 'result' | 'code'>): boolean {
  return result.result === 'error' && result.code === 'ProbeErrored';
}

/** A configuration error a caller tells apart by its code; `detail` is the message without its field. */
export function codedError(code: ProbeErrorCode, field: string, detail: string): HandlerResult {
  return { result: 'error', message: `${field}: ${detail}`, code, detail };
}

/** `host` as it goes in a URL: IPv6 literals in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
