#!/usr/bin/env node
// Entry point of the `cluster-probe` CLI: runs the compiled CLI from dist/ (built by `npm ci` through `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));
if (!existsSync(main)) {
  console.error('cluster-probe: dist/ is missing; run `npm run build` (npm ci does it for you) and try again.');
  process.exit(2);
}
const { run } = await import('../dist/src/cli/main.js');
process.exitCode = await run(process.argv);
