// The HTTP edge of POST /mutate and /validate on bare node:http objects: media type, size limit, body read, the pure
// pipeline (handle.ts), one write of the answer, metrics and logs. Bare node, because express's per-request cost
// (router, body-parser, res.send) was most of the webhook's latency in bench/webhook; see docs/webhook.md.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { MAX_BODY_BYTES, isJsonContentType, rejectionStatus, type ReviewRejection } from './admission.js';
import { handleReview, type HandledReview } from './handle.js';
import { operationLabel, type WebhookMetrics, type WebhookName } from './metrics.js';
import type { WebhookOptions } from './options.js';

export interface AdmissionRouteOptions extends WebhookOptions {
  logger: Logger;
  metrics: WebhookMetrics;
  /** Whether shutdown has begun: every answer then closes its connection. */
  isDraining?: () => boolean;
}

export function writeJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  extraHeaders?: Record<string, string>,
): void {
  const text = JSON.stringify(body);
  res.writeHead(code, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...extraHeaders,
  });
  res.end(text);
}

/** The path of a request URL without its query (the apiserver calls `/validate?timeout=5s`). */
export function pathOf(url: string | undefined): string {
  if (!url) return '/';
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** Serves one admission request; never throws, never answers 5xx. */
export function serveAdmission(
  webhook: WebhookName,
  req: IncomingMessage,
  res: ServerResponse,
  options: AdmissionRouteOptions,
): void {
  const { metrics, logger } = options;
  if (options.isDraining?.()) res.setHeader('Connection', 'close');

  const reject = (rejection: ReviewRejection, closeConnection: boolean) => {
    metrics.requests.inc({ webhook, operation: 'other', code: String(rejection.code) });
    logger.info({ webhook, code: rejection.code, reason: rejection.reason }, 'rejected a request that is not a review');
    // Unread body bytes: close the connection rather than read megabytes nobody will use.
    writeJson(res, rejection.code, rejectionStatus(rejection), closeConnection ? { connection: 'close' } : undefined);
    if (closeConnection) req.resume();
  };

  const contentType = req.headers['content-type'];
  // Refuse the wrong media type or encoding before reading a byte of the body.
  if (!isJsonContentType(contentType)) {
    reject(
      {
        code: 415,
        reason: 'UnsupportedMediaType',
        message: `Content-Type must be application/json, got ${JSON.stringify(contentType ?? '')}`,
      },
      true,
    );
    return;
  }
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    reject(
      { code: 415, reason: 'UnsupportedMediaType', message: `Content-Encoding ${encoding} is not supported` },
      true,
    );
    return;
  }
  const tooLarge: ReviewRejection = {
    code: 413,
    reason: 'RequestEntityTooLarge',
    message: `body is over the limit of ${MAX_BODY_BYTES} bytes`,
  };
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) {
    reject(tooLarge, true);
    return;
  }

  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  req.on('data', (chunk: Buffer) => {
    if (done) return;
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      done = true;
      chunks.length = 0;
      reject(tooLarge, true);
      return;
    }
    chunks.push(chunk);
  });
  req.on('error', () => {
    done = true; // the client went away; there is no one to answer
  });
  req.on('end', () => {
    if (done) return;
    done = true;
    const started = process.hrtime.bigint();
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
    const handled = handleReview(webhook, contentType, body, options);
    writeJson(res, handled.code, handled.body);
    record(webhook, handled, started, options);
  });
}

function record(webhook: WebhookName, handled: HandledReview, started: bigint, options: AdmissionRouteOptions): void {
  const { metrics, logger } = options;
  const operation = operationLabel(handled.review?.request.operation);
  metrics.requests.inc({ webhook, operation, code: String(handled.code) });
  metrics.latency.observe({ webhook, operation }, Number(process.hrtime.bigint() - started) / 1e9);
  const response = handled.answer?.response;
  const uid = handled.review?.request.uid;
  if (handled.error !== undefined) {
    logger.error(
      { webhook, uid, operation, err: handled.error },
      'admission handler failed; answered with the fallback',
    );
  }
  if (handled.code !== 200) {
    logger.info(
      { webhook, code: handled.code, reason: handled.rejection?.reason },
      'rejected a request that is not a review',
    );
  } else if (response && !response.allowed) {
    metrics.denials.inc({ webhook, operation, reason: response.status?.reason ?? 'Unknown' });
    // Field paths and error types only: messages can quote values (a caBundle, a header value).
    logger.info(
      {
        webhook,
        uid,
        operation,
        name: handled.review?.request.name,
        code: response.status?.code,
        fields: response.status?.details?.causes.map((c) => `${c.field}:${c.reason}`),
      },
      'denied',
    );
  } else if (response?.patch !== undefined) {
    metrics.patches.inc({ operation });
    logger.debug({ webhook, uid, operation, name: handled.review?.request.name }, 'patched');
  }
}
