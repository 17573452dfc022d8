// The express 5 app: reads the body, calls the pure pipeline (handle.ts), writes the answer, counts it.
// No admission rule lives here. Also serves /healthz, /readyz and /metrics.
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { MAX_BODY_BYTES, isJsonContentType, rejectionStatus, type ReviewRejection } from './admission.js';
import { handleReview } from './handle.js';
import { operationLabel, type WebhookMetrics, type WebhookName } from './metrics.js';
import type { WebhookOptions } from './options.js';

export interface AppOptions extends WebhookOptions {
  logger: Logger;
  metrics: WebhookMetrics;
  /** Whether a serving certificate is loaded (readiness). */
  isReady: () => boolean;
  /** Whether shutdown has begun: not ready, and every answer closes its connection. */
  isDraining?: () => boolean;
}

function sendJson(res: Response, code: number, body: unknown): void {
  res.status(code).type('application/json').send(JSON.stringify(body));
}

function sendRejection(res: Response, rejection: ReviewRejection): void {
  sendJson(res, rejection.code, rejectionStatus(rejection));
}

/** Maps a body-parser error (size, aborted, charset) to its 4xx; nothing a client sends becomes a 5xx. */
function bodyErrorRejection(err: unknown): ReviewRejection {
  const type = typeof err === 'object' && err !== null && 'type' in err ? String(err.type) : '';
  const message = err instanceof Error ? err.message : String(err);
  if (type === 'entity.too.large') {
    return {
      code: 413,
      reason: 'RequestEntityTooLarge',
      message: `body is over the limit of ${MAX_BODY_BYTES} bytes`,
    };
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return { code: 415, reason: 'UnsupportedMediaType', message };
  }
  return { code: 400, reason: 'BadRequest', message: `could not read the request body: ${message}` };
}

export function createApp(options: AppOptions): express.Express {
  const { logger, metrics } = options;
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');

  app.use((_req: Request, res: Response, next: NextFunction) => {
    if (options.isDraining?.()) res.setHeader('Connection', 'close');
    next();
  });

  const readBody = express.raw({ type: () => true, limit: MAX_BODY_BYTES });

  const webhookRoute = (webhook: WebhookName) => [
    (req: Request, res: Response, next: NextFunction) => {
      // Refuse the wrong media type before reading a byte of the body.
      const contentType = req.headers['content-type'];
      if (!isJsonContentType(contentType)) {
        metrics.requests.inc({ webhook, operation: 'other', code: '415' });
        sendRejection(res, {
          code: 415,
          reason: 'UnsupportedMediaType',
          message: `Content-Type must be application/json, got ${JSON.stringify(contentType ?? '')}`,
        });
        return;
      }
      next();
    },
    readBody,
    (req: Request, res: Response) => {
      const started = process.hrtime.bigint();
      const body: unknown = req.body;
      const raw = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
      const handled = handleReview(webhook, req.headers['content-type'], raw, options);
      const operation = operationLabel(handled.review?.request.operation);
      sendJson(res, handled.code, handled.body);

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
        logger.info({ webhook, code: handled.code }, 'rejected a request that is not an admission review');
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
    },
  ];

  app.post('/mutate', ...webhookRoute('mutate'));
  app.post('/validate', ...webhookRoute('validate'));
  app.all(['/mutate', '/validate'], (req: Request, res: Response) => {
    res.setHeader('Allow', 'POST');
    sendJson(res, 405, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'MethodNotAllowed',
      code: 405,
      message: `${req.method} is not allowed on ${req.path}; POST an AdmissionReview`,
    });
  });

  app.get('/healthz', (_req: Request, res: Response) => {
    res.type('text/plain').send('ok');
  });
  app.get('/readyz', (_req: Request, res: Response) => {
    if (options.isDraining?.()) res.status(503).type('text/plain').send('shutting down');
    else if (!options.isReady()) res.status(503).type('text/plain').send('serving certificate not loaded');
    else res.type('text/plain').send('ok');
  });
  app.get('/metrics', async (_req: Request, res: Response) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  app.use((req: Request, res: Response) => {
    sendJson(res, 404, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'NotFound',
      code: 404,
      message: `no route for ${req.method} ${req.path}; the webhook serves POST /mutate and POST /validate`,
    });
  });

  // Four arguments: express recognises an error handler by its arity.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const rejection = bodyErrorRejection(err);
    const webhook = req.path === '/mutate' ? 'mutate' : req.path === '/validate' ? 'validate' : undefined;
    if (webhook) metrics.requests.inc({ webhook, operation: 'other', code: String(rejection.code) });
    logger.info({ path: req.path, code: rejection.code, reason: rejection.reason }, 'rejected a request body');
    if (res.headersSent) return;
    sendRejection(res, rejection);
  });

  return app;
}
