// The HTTP app: express 5 for /healthz, /readyz, /metrics and the JSON 404/405 answers, and a request listener that
// sends POST /mutate and /validate straight to the bare-node admission route (admission-route.ts). No rule lives here.
import express, { type NextFunction, type Request, type Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { serveAdmission, pathOf, writeJson } from './admission-route.js';
import type { WebhookMetrics } from './metrics.js';
import type { WebhookOptions } from './options.js';
import { messageOf } from '../api/index.js';

export interface AppOptions extends WebhookOptions {
  logger: Logger;
  metrics: WebhookMetrics;
  /** Whether a serving certificate is loaded (readiness). */
  isReady: () => boolean;
  /** Whether shutdown has begun: not ready, and every answer closes its connection. */
  isDraining?: () => boolean;
}

function status(code: number, reason: string, message: string): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

export function createApp(options: AppOptions): express.Express {
  const { metrics } = options;
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');

  app.use((_req: Request, res: Response, next: NextFunction) => {
    if (options.isDraining?.()) res.setHeader('Connection', 'close');
    next();
  });

  app.post('/mutate', (req: Request, res: Response) => serveAdmission('mutate', req, res, options));
  app.post('/validate', (req: Request, res: Response) => serveAdmission('validate', req, res, options));
  app.all(['/mutate', '/validate'], (req: Request, res: Response) => {
    writeJson(
      res,
      405,
      status(405, 'MethodNotAllowed', `${req.method} is not allowed on ${req.path}; POST an AdmissionReview`),
      {
        allow: 'POST',
      },
    );
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
    writeJson(
      res,
      404,
      status(
        404,
        'NotFound',
        `no route for ${req.method} ${req.path}; the webhook serves POST /mutate and POST /validate`,
      ),
    );
  });

  // Four arguments: express recognises an error handler by its arity. Nothing a client sends becomes a 5xx.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    options.logger.warn({ path: req.path, err: messageOf(err) }, 'request failed');
    if (res.headersSent) return;
    writeJson(res, 400, status(400, 'BadRequest', 'the request could not be served'));
  });

  return app;
}

/**
 * The listener for node:https: admission reviews go straight to the bare-node route, everything else through express.
 */
export function createRequestListener(options: AppOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const app = createApp(options);
  return (req, res) => {
    if (req.method === 'POST') {
      const path = pathOf(req.url);
      if (path === '/mutate' || path === '/validate') {
        serveAdmission(path === '/mutate' ? 'mutate' : 'validate', req, res, options);
        return;
      }
    }
    app(req, res);
  };
}
