// `npm run generate`: rewrites every file derived from schemas/ (types, CRD, API reference).
// `npm run generate -- --check` exits 1 and names the stale files instead of writing.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { generatedFiles } from './generate/all.js';

const check = process.argv.includes('--check');
let stale = 0;
for (const [path, content] of Object.entries(generatedFiles())) {
  let current: string | undefined;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === content) continue;
  if (check) {
    console.error(`stale: ${path} (run \`npm run generate\`)`);
    stale++;
  } else {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    console.log(`wrote ${path}`);
  }
}
process.exitCode = stale > 0 ? 1 : 0;
