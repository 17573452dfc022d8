// Every file generated from schemas/, by repository path.
import { generateTypes } from './types.js';

export function generatedFiles(): Record<string, string> {
  return {
    'src/schema/generated/types.ts': generateTypes(),
  };
}
