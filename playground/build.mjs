// Builds the playground (index.html + main.ts bundled with esbuild for a browser: platform browser, format esm, no
// Node polyfills, so a node:* import or a Node global in the schema library's graph fails here or in the page) and
// serves a built directory over HTTP on loopback. Used by scripts/playground.mjs and test/browser/; plain Node.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const PLAYGROUND_DIR = fileURLToPath(new URL('.', import.meta.url));
export const REPO_ROOT = resolve(PLAYGROUND_DIR, '..');
/** Where `npm run playground` builds (inside node_modules/, so git never sees it). */
export const DEFAULT_OUT_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'karmada-cluster-probe', 'playground');

/** The files the page is made of, as the server hands them out (nothing else is served). */
const STATIC_FILES = ['index.html', 'style.css'];
const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};
// No inline script and no eval: the schema library's validators are ajv's standalone code, compiled at build time.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src data:; connect-src 'self'";

/**
 * Bundles playground/main.ts into `outDir/main.js` (and its source map) and copies the page beside it. Rejects with
 * esbuild's errors when the graph does not bundle for a browser. Resolves to the bundle's size, raw and gzip.
 */
export async function buildPlayground(outDir = DEFAULT_OUT_DIR) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    entryPoints: [join(PLAYGROUND_DIR, 'main.ts')],
    outdir: outDir,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: REPO_ROOT,
  });
  for (const file of STATIC_FILES) copyFileSync(join(PLAYGROUND_DIR, file), join(outDir, file));
  const js = readFileSync(join(outDir, 'main.js'));
  return {
    outDir,
    bundle: join(outDir, 'main.js'),
    bytes: js.length,
    gzipBytes: gzipSync(js, { level: 9 }).length,
    inputs: Object.keys(result.metafile.inputs),
    warnings: result.warnings,
  };
}

/**
 * Serves `dir` (a built playground) on `host:port` (port 0: any free one). Resolves to the server and its URL;
 * rejects with an Error naming the address when the port is busy (err.code EADDRINUSE).
 */
export function servePlayground(dir, { host = '127.0.0.1', port = 0 } = {}) {
  const served = new Set([...STATIC_FILES, 'main.js', 'main.js.map']);
  const server = createServer((req, res) => {
    // The few names served are plain ASCII: the path is compared as sent, never decoded or joined onto the disk.
    const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/+/, '') || 'index.html';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !served.has(path)) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    let body;
    try {
      body = readFileSync(join(dir, path));
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not built\n');
      return;
    }
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
      'content-length': body.length,
      'cache-control': 'no-store',
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', (err) => {
      const busy = /** @type {NodeJS.ErrnoException} */ (err).code === 'EADDRINUSE';
      const e = new Error(
        busy
          ? `port ${port} on ${host} is busy: stop what listens there, or pass --port <another> (--port 0 picks a free one)`
          : `cannot listen on ${host}:${port}: ${err.message}`,
      );
      Object.assign(e, { code: /** @type {NodeJS.ErrnoException} */ (err).code });
      reject(e);
    });
    server.listen(port, host, () => {
      const address = server.address();
      const actual = typeof address === 'object' && address !== null ? address.port : port;
      resolvePromise({ server, url: `http://${host}:${actual}/` });
    });
  });
}
