// Finds this package's root directory (where manifests/ and scripts/ live), from source (src/dev) or from the
// compiled code (dist/src/dev) alike, by walking up to the package.json that names karmada-cluster-probe.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const parsed: unknown = JSON.parse(readFileSync(manifest, 'utf8'));
      if (
        typeof parsed === 'object' &&
        parsed !== null &&
        'name' in parsed &&
        parsed.name === 'karmada-cluster-probe'
      ) {
        return dir;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the karmada-cluster-probe package root above ' + import.meta.url);
    dir = parent;
  }
}

export function crdPath(): string {
  return join(packageRoot(), 'manifests', 'crd', 'cluster.karmada.io_clusters.yaml');
}
