// The grpc handler: grpc.health.v1 Check with the configured service on a fresh channel, SERVING passes, messages in
// the kubelet's wording (pkg/probe/grpc). The host is resolved through the guard first. Depends on @grpc/grpc-js only.
import { STATUS_CODES } from 'node:http';
import * as grpc from '@grpc/grpc-js';
import { configError, failure, success, urlHost, type HandlerEnv, type HandlerResult } from './handler.js';
import { goDuration } from './deadline.js';
import {
  decodeHealthCheckResponse,
  encodeHealthCheckRequest,
  HEALTH_CHECK_PATH,
  servingStatusName,
  type HealthCheckRequest,
  type HealthCheckResponse,
} from './health-proto.js';
import { describeNetError, isAddressDenied } from './net-error.js';
import { USER_AGENT } from './version.js';
import { messageOf } from '@karmada-cluster-probe/schema/api';

export interface ResolvedGrpc {
  host: string;
  port: number;
  service: string;
}

function waitForReady(client: grpc.Client, deadline: number): Promise<Error | undefined> {
  return new Promise((resolve) => client.waitForReady(deadline, (err) => resolve(err ?? undefined)));
}

/** What the server's first headers said (grpc-js keeps them from its errors): for a non-gRPC server's wording. */
interface SeenHeaders {
  contentType?: string | undefined;
  seen: boolean;
}

function check(
  client: grpc.Client,
  req: HealthCheckRequest,
  deadline: number,
  signal: AbortSignal | undefined,
  headers: SeenHeaders,
): Promise<HealthCheckResponse> {
  const interceptor: grpc.Interceptor = (options, nextCall) =>
    new grpc.InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        next(metadata, {
          onReceiveMetadata(md, nextMd) {
            headers.seen = true;
            headers.contentType = md.get('content-type')[0]?.toString();
            nextMd(md);
          },
        });
      },
    });
  return new Promise((resolve, reject) => {
    const call = client.makeUnaryRequest<HealthCheckRequest, HealthCheckResponse>(
      HEALTH_CHECK_PATH,
      encodeHealthCheckRequest,
      decodeHealthCheckResponse,
      req,
      new grpc.Metadata(),
      { deadline, interceptors: [interceptor] },
      (err, value) => {
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve(value ?? { status: 0 });
      },
    );
    function onAbort(): void {
      call.cancel();
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** grpc-go's ContentSubtype check: `application/grpc`, or it followed by `+` or `;`. */
function isGrpcContentType(ct: string | undefined): boolean {
  if (ct === undefined) return false;
  const v = ct.toLowerCase();
  return v === 'application/grpc' || /^application\/grpc[+;]/.test(v);
}

/** grpc-go's HTTPStatusConvTab (internal/transport/http_util.go), others Unknown. */
const HTTP_TO_GRPC: Record<number, number> = {
  400: grpc.status.INTERNAL,
  401: grpc.status.UNAUTHENTICATED,
  403: grpc.status.PERMISSION_DENIED,
  404: grpc.status.UNIMPLEMENTED,
  429: grpc.status.UNAVAILABLE,
  502: grpc.status.UNAVAILABLE,
  503: grpc.status.UNAVAILABLE,
  504: grpc.status.UNAVAILABLE,
};

/**
 * The status grpc-go makes of a response that is not gRPC (an HTTP status other than 200, or a content-type that is
 * not application/grpc), where grpc-js words it its own way (`Received HTTP status code 404`) or, for a 200, reads
 * the body as messages. Undefined when the response was gRPC.
 */
function nonGrpcStatus(e: grpc.ServiceError, headers: SeenHeaders): { code: number; details: string } | undefined {
  const http = /^Received HTTP status code (\d+)$/.exec(e.details);
  const statusCode = http?.[1] !== undefined ? Number(http[1]) : headers.seen ? 200 : undefined;
  if (statusCode === undefined) return undefined;
  if (statusCode === 200 && isGrpcContentType(headers.contentType)) return undefined;
  const errs: string[] = [];
  if (statusCode !== 200)
    errs.push(`unexpected HTTP status code received from server: ${statusCode} (${STATUS_CODES[statusCode] ?? ''})`);
  if (!headers.seen || headers.contentType === undefined) errs.push('malformed header: missing HTTP content-type');
  else if (!isGrpcContentType(headers.contentType))
    errs.push(`transport: received unexpected content-type "${headers.contentType}"`);
  return { code: HTTP_TO_GRPC[statusCode] ?? grpc.status.UNKNOWN, details: errs.join('; ') };
}

/** Go's name for a status code (`Unavailable`), as the kubelet's messages print it. */
function goCodeName(code: number): string {
  const name = grpc.status[code];
  if (name === undefined) return `Code(${code})`;
  if (name === 'OK') return 'OK';
  return name
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

function isServiceError(e: unknown): e is grpc.ServiceError {
  return typeof e === 'object' && e !== null && 'code' in e && typeof (e as { code: unknown }).code === 'number';
}

export async function grpcProbe(action: ResolvedGrpc, env: HandlerEnv): Promise<HandlerResult> {
  const addr = `${urlHost(action.host)}:${action.port}`;
  const timeout = goDuration(env.timeoutMs);
  const deadline = Date.now() + env.timeoutMs;
  let ip: string;
  try {
    ip = await env.guard.resolve(action.host);
  } catch (e) {
    if (isAddressDenied(e)) return configError(`grpc: ${describeNetError(e, addr, action.host)}`);
    return failure(`error: failed to connect service at "${addr}": ${describeNetError(e, addr, action.host)}`);
  }
  const client = new grpc.Client(`${urlHost(ip)}:${action.port}`, grpc.credentials.createInsecure(), {
    'grpc.default_authority': addr,
    'grpc.primary_user_agent': USER_AGENT,
    // A new connection per probe, as the kubelet's; no retries behind the probe's back.
    'grpc.use_local_subchannel_pool': 1,
    'grpc.enable_retries': 0,
    'grpc.service_config_disable_resolution': 1,
  });
  const onAbort = (): void => client.close();
  env.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const connectErr = await waitForReady(client, deadline);
    if (env.signal?.aborted === true) return failure(`error: failed to connect service at "${addr}": probe stopped`);
    if (connectErr !== undefined)
      return failure(`timeout: failed to connect service "${addr}" within ${timeout}: context deadline exceeded`);
    let res: HealthCheckResponse;
    const headers: SeenHeaders = { seen: false };
    try {
      res = await check(client, { service: action.service }, deadline, env.signal, headers);
    } catch (raw) {
      if (isServiceError(raw)) {
        const e = { code: raw.code, details: raw.details, ...nonGrpcStatus(raw, headers) };
        if (e.code === grpc.status.UNIMPLEMENTED)
          return failure(
            `error: this server does not implement the grpc health protocol (grpc.health.v1.Health): ${e.details}`,
          );
        if (e.code === grpc.status.DEADLINE_EXCEEDED)
          return failure(`timeout: health rpc did not complete within ${timeout}`);
        return failure(`error: health rpc probe failed: rpc error: code = ${goCodeName(e.code)} desc = ${e.details}`);
      }
      return failure(`error: health rpc probe failed: ${messageOf(raw)}`);
    }
    if (res.status !== 1) return failure(`service unhealthy (responded with "${servingStatusName(res.status)}")`);
    return success('gRPC probe succeeded: SERVING');
  } finally {
    env.signal?.removeEventListener('abort', onAbort);
    client.close();
  }
}
