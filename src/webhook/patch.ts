// The JSON Patch as an AdmissionResponse carries it (base64 of its JSON), and its application as the apiserver does
// it. The diff itself ("object as received" + "object as it should be", as controller-runtime's PatchResponseFromRaw)
// is the schema library's diffPatch, so migration and the webhook compute patches one way. Pure.
import jsonpatch from 'fast-json-patch';
import type { JsonPatchOperation } from '../schema/index.js';

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
