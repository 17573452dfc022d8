// Turns "object as received" + "object as it should be" into one RFC 6902 JSON Patch, the way controller-runtime's
// PatchResponseFromRaw does. Pure; fast-json-patch does the structural diff.
import jsonpatch from 'fast-json-patch';
import type { JsonPatchOperation } from '../schema/index.js';

/**
 * The patch that turns `original` into `mutated`: only the members that differ, removals of array items from the
 * highest index down, map keys escaped (`cluster.karmada.io/health-checker` -> `cluster.karmada.io~1health-checker`).
 */
export function diffPatch(original: object, mutated: object): JsonPatchOperation[] {
  return jsonpatch.compare(original, mutated) as JsonPatchOperation[];
}

/** The patch as the AdmissionResponse carries it: base64 of its JSON. */
export function encodePatch(patch: readonly JsonPatchOperation[]): string {
  return Buffer.from(JSON.stringify(patch)).toString('base64');
}

export function decodePatch(encoded: string): JsonPatchOperation[] {
  return JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as JsonPatchOperation[];
}

/** Applies a patch to a copy of `document` (strictly: a bad operation throws), as the apiserver would. */
export function applyPatch<T>(document: T, patch: readonly JsonPatchOperation[]): T {
  return jsonpatch.applyPatch(jsonpatch.deepClone(document) as T, patch as jsonpatch.Operation[], true, true, true)
    .newDocument;
}
