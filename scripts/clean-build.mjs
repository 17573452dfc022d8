// `npm run build` starts here: removes the application's and the packages' dist/, so that a module moved or deleted
// in the sources leaves no stale compiled copy behind for `npm pack` (and so the image) to ship. Plain Node.
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
for (const dir of ['dist', 'packages/schema/dist', 'packages/probe/dist']) {
  rmSync(join(repoRoot, dir), { recursive: true, force: true });
}
