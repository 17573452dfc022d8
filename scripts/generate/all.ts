// Every file generated from schemas/, by repository path, and those whose marked defaults are filled from it.
import { generateApiReference } from './api-reference.js';
import { generateCrd } from './crd.js';
import { filledFiles } from './default-markers.js';
import { generateProbeFacts } from './probe-facts.js';
import { generateTypes } from './types.js';
import { generateJsonSchemas } from './json-schemas.js';
import { generateDefaultingValidators, generateValidators } from './validators.js';

export function generatedFiles(): Record<string, string> {
  return {
    'packages/schema/src/api/generated/types.ts': generateTypes(),
    'packages/schema/src/api/generated/probe-facts.ts': generateProbeFacts(),
    'packages/schema/src/schema/generated/validators.ts': generateValidators(),
    'packages/schema/src/schema/generated/defaulting-validators.ts': generateDefaultingValidators(),
    'manifests/crd/cluster.karmada.io_clusters.yaml': generateCrd(),
    'docs/api-reference.md': generateApiReference(),
    // Standalone, strict JSON Schemas for kubeconform, editors and ajv (docs/validation.md).
    ...generateJsonSchemas(),
    // Files that show defaults, each marked value filled from the table (default-markers.ts).
    ...filledFiles('test/fixtures/webhook', '.yaml'),
    ...filledFiles('docs', '.md'),
  };
}
