// `npm run playground`: builds the playground page (playground/: the schema library bundled for a browser by esbuild)
// into node_modules/.cache/ and serves it on 127.0.0.1 until interrupted.
//   node scripts/playground.mjs [--port 8088]     (--port 0: any free port)
// Plain Node; the build and the server are playground/build.mjs, which the browser test uses too.
import process from 'node:process';
import { parseArgs } from 'node:util';
import { buildPlayground, DEFAULT_OUT_DIR, servePlayground } from '../playground/build.mjs';

const DEFAULT_PORT = 8088;
const HOST = '127.0.0.1';

function fail(message) {
  process.stderr.write(`playground: ${message}\n`);
  process.exit(1);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string', short: 'p', default: String(DEFAULT_PORT) },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (err) {
  fail(`${err.message}\nusage: node scripts/playground.mjs [--port ${DEFAULT_PORT}]`);
}
if (values.help) {
  process.stdout.write(
    `usage: node scripts/playground.mjs [--port ${DEFAULT_PORT}]\n` +
      `Builds the playground into ${DEFAULT_OUT_DIR} and serves it on ${HOST} (--port 0: any free port).\n`,
  );
  process.exit(0);
}
const port = Number(values.port);
if (!/^\d+$/.test(values.port) || port > 65535) fail(`--port ${values.port}: not a port number (0-65535)`);

// The port first: a second `npm run playground` must fail on the busy port before it rebuilds the directory the first
// one is serving.
let served;
try {
  served = await servePlayground(DEFAULT_OUT_DIR, { host: HOST, port });
} catch (err) {
  fail(err.message);
}
process.stderr.write(`playground: building ${DEFAULT_OUT_DIR} (esbuild, platform browser)\n`);
let built;
try {
  built = await buildPlayground(DEFAULT_OUT_DIR);
} catch (err) {
  fail(`the page does not bundle for a browser:\n${err.message}`);
}
process.stderr.write(`playground: main.js ${built.bytes} bytes (${built.gzipBytes} gzip)\n`);
process.stdout.write(`${served.url}\n`);
process.stderr.write('playground: serving; Ctrl+C stops\n');
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    served.server.closeAllConnections();
    served.server.close(() => process.exit(0));
  });
}
