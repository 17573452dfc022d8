// POST /mutate and /validate on bare node:http objects: the body read under its limits, the pure pipeline
// (handle.ts, which runs the one edge in edge.ts: media type, encoding, size, decode), one write of the answer,
// metrics and logs. The head is checked with that edge's checkHead before a byte is read, and again, as every test
// runs it, with the body. Bare node rather than a framework: see docs/webhook.md.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { MAX_BODY_BYTES, answerJson, rejectionStatus, type ReviewRejection } from './admission.js';
import { TOO_LARGE, checkHead } from './edge.js';
import { handleReview, type HandledReview } from './handle.js';
import { operationLabel, type WebhookMetrics, type WebhookName } from './metrics.js';
import type { WebhookOptions } from './options.js';

export interface AdmissionRouteOptions extends WebhookOptions {
  logger: Logger;
  metrics: WebhookMetrics;
  /** Whether shutdown has begun: every answer then closes its connection. */
  isDraining?: () => boolean;
  /** The bytes of review bodies all requests being received may hold at once (one budget per server). */
  bodyBudget: BodyBudget;
}

/** A count of the review bytes held by the requests being received, against a limit. */
export class BodyBudget {
  private used = 0;
  constructor(readonly limit: number) {}
  /** Takes `bytes` if they fit, and says whether they did. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }
  give(bytes: number): void {
    this.used -= bytes;
  }
  get held(): number {
    return this.used;
  }
}

export function writeJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  extraHeaders?: Record<string, string>,
): void {
  writeJsonText(res, code, JSON.stringify(body), extraHeaders);
}

/** Writes JSON text already made (an answer, by answerJson), with its length. */
export function writeJsonText(
  res: ServerResponse,
  code: number,
  text: string,
  extraHeaders?: Record<string, string>,
): void {
  // Encoded once: its length is the buffer's, where Buffer.byteLength and end(text) would each walk the text.
  const bytes = Buffer.from(text);
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    'content-length': bytes.length,
  };
  if (extraHeaders !== undefined) Object.assign(headers, extraHeaders);
  res.writeHead(code, headers);
  res.end(bytes);
}

function tooBusy(limit: number): ReviewRejection {
  return {
    code: 429,
    reason: 'TooManyRequests',
    message: `the webhook already holds ${limit} bytes of review bodies being received (its limit); retry`,
  };
}

function reject(
  webhook: WebhookName,
  req: IncomingMessage,
  res: ServerResponse,
  options: AdmissionRouteOptions,
  rejection: ReviewRejection,
): void {
  options.metrics.requests.inc({ webhook, operation: 'other', code: String(rejection.code) });
  options.logger.info(
    { webhook, code: rejection.code, reason: rejection.reason },
    'rejected a request that is not a review',
  );
  // Unread body bytes: close the connection rather than read megabytes nobody will use.
  const headers: Record<string, string> = { connection: 'close' };
  if (rejection.code === 429) headers['retry-after'] = '1';
  writeJson(res, rejection.code, rejectionStatus(rejection), headers);
  req.resume();
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
  if (options.isDraining?.()) res.setHeader('Connection', 'close');
  // Refuse the wrong media type or encoding, or a declared size over the limit, before reading a byte of the body.
  const refused = checkHead(req.headers);
  if (refused !== undefined) {
    reject(webhook, req, res, options, refused);
    return;
  }

  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  // What this request holds of the server's body budget, given back once whatever ends it.
  const budget = options.bodyBudget;
  let held = 0;
  // An error (the client went away; there is no one to answer) or a close before the end (an aborted body).
  const abandon = () => {
    if (done) return;
    done = true;
    chunks.length = 0;
    budget.give(held);
    held = 0;
  };
  req.on('data', (chunk: Buffer) => {
    if (done) return;
    size += chunk.length;
    if (size > MAX_BODY_BYTES || !budget.take(chunk.length)) {
      abandon();
      reject(webhook, req, res, options, size > MAX_BODY_BYTES ? TOO_LARGE : tooBusy(budget.limit));
      return;
    }
    held += chunk.length;
    chunks.push(chunk);
  });
  req.on('error', abandon);
  req.on('close', abandon);
  req.on('end', () => {
    if (done) return;
    done = true;
    const started = performance.now();
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
    chunks.length = 0;
    budget.give(held);
    held = 0;
    const handled = handleReview(webhook, req.headers, body, options);
    if (handled.answer !== undefined) writeJsonText(res, handled.code, answerJson(handled.answer));
    else writeJson(res, handled.code, handled.body);
    record(webhook, handled, started, options);
  });
}

function record(webhook: WebhookName, handled: HandledReview, started: number, options: AdmissionRouteOptions): void {
  const { metrics, logger } = options;
  const operation = operationLabel(handled.review?.request.operation);
  metrics.requests.inc({ webhook, operation, code: handled.code === 200 ? '200' : String(handled.code) });
  metrics.latency.observe({ webhook, operation }, (performance.now() - started) / 1e3);
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
