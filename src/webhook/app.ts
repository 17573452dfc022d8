// The one router of the webhook's HTTPS server, on bare node:http objects: POST /mutate and /validate go to the
// admission route (admission-route.ts); GET (and HEAD) /healthz, /readyz and /metrics are answered here; any other
// method on an admission path is 405, any other path 404, each with a JSON Status. No framework: express's
// per-request cost was most of the webhook's latency in bench/webhook, and loading it most of `serve`'s start-up.
// No rule lives here.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyBudget, pathOf, serveAdmission, writeJson, type AdmissionRouteOptions } from './admission-route.js';
import { MAX_BUFFERED_BODY_BYTES } from './admission.js';
import { messageOf } from '@karmada-cluster-probe/schema/api';

export interface AppOptions extends Omit<AdmissionRouteOptions, 'bodyBudget'> {
  /** Whether a serving certificate is loaded (readiness). */
  isReady: () => boolean;
  /** The bytes of review bodies held at once over all requests (default MAX_BUFFERED_BODY_BYTES). */
  maxBufferedBodyBytes?: number;
}

function status(code: number, reason: string, message: string): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

function writeText(req: IncomingMessage, res: ServerResponse, code: number, contentType: string, text: string): void {
  res.writeHead(code, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(req.method === 'HEAD' ? undefined : text);
}

const TEXT = 'text/plain; charset=utf-8';

/**
 * The path a route is matched on: without the query, one trailing slash or case (as express matched `/healthz/` and
 * `/HealthZ`, which this router replaced).
 */
function routeOf(url: string | undefined): string {
  const path = pathOf(url);
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.toLowerCase();
}

/** The request listener for node:https: every request is routed here, once. */
export function createRequestListener(app: AppOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const options: AppOptions & AdmissionRouteOptions = {
    ...app,
    bodyBudget: new BodyBudget(app.maxBufferedBodyBytes ?? MAX_BUFFERED_BODY_BYTES),
  };
  const { metrics } = options;
  return (req, res) => {
    const raw = pathOf(req.url);
    const path = raw === '/mutate' || raw === '/validate' ? raw : routeOf(req.url);
    if (path === '/mutate' || path === '/validate') {
      if (req.method === 'POST') {
        serveAdmission(path === '/mutate' ? 'mutate' : 'validate', req, res, options);
        return;
      }
      if (options.isDraining?.()) res.setHeader('Connection', 'close');
      const message = `${req.method ?? ''} is not allowed on ${raw}; POST an AdmissionReview`;
      writeJson(res, 405, status(405, 'MethodNotAllowed', message), { allow: 'POST' });
      return;
    }
    if (options.isDraining?.()) res.setHeader('Connection', 'close');
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (path === '/healthz') return writeText(req, res, 200, TEXT, 'ok');
      if (path === '/readyz') {
        if (options.isDraining?.()) return writeText(req, res, 503, TEXT, 'shutting down');
        if (!options.isReady()) return writeText(req, res, 503, TEXT, 'serving certificate not loaded');
        return writeText(req, res, 200, TEXT, 'ok');
      }
      if (path === '/metrics') {
        metrics.registry.metrics().then(
          (text) => writeText(req, res, 200, metrics.registry.contentType, text),
          (err: unknown) => {
            // Nothing a client sends becomes a 5xx.
            options.logger.warn({ path: raw, err: messageOf(err) }, 'request failed');
            if (!res.headersSent) writeJson(res, 400, status(400, 'BadRequest', 'the request could not be served'));
          },
        );
        return;
      }
    }
    const message = `no route for ${req.method ?? ''} ${raw}; the webhook serves POST /mutate and POST /validate`;
    writeJson(res, 404, status(404, 'NotFound', message));
  };
}
