// Every file generated from schemas/, by repository path.
import { generateApiReference } from './api-reference.js';
import { generateCrd } from './crd.js';
import { generateTypes } from './types.js';

export function generatedFiles(): Record<string, string> {
  return {
    'src/schema/generated/types.ts': generateTypes(),
    'manifests/crd/cluster.karmada.io_clusters.yaml': generateCrd(),
    'docs/api-reference.md': generateApiReference(),
  };
}
