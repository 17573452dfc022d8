// The JSON Patch as an AdmissionResponse carries it (base64 of its JSON), and its application as the apiserver does
// it. The diff itself ("object as received" + "object as it should be", as controller-runtime's PatchResponseFromRaw)
// is the schema library's diffPatch, so migration and the webhook compute patches one way. Pure.
import jsonpatch from 'fast-json-patch';
import type { JsonPatchOperation } from '@karmada-cluster-probe/schema';

/** Printable ASCII other than `"` and `\\`: a string of these is its own JSON text between quotes. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A string's JSON text, as JSON.stringify writes it, without its cost (about 3 ns a character on node 20). */
export function quoteJson(text: string): string {
  return PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
}

/**
 * The patch's JSON, byte for byte what JSON.stringify writes for the operations the diff makes (`op`, `path`, then
 * `value` when there is one), with only the values through JSON.stringify; anything else (a `from`) is written by
 * JSON.stringify whole. test/unit/webhook/serialize.test.ts holds the two equal.
 */
export function patchJson(patch: readonly JsonPatchOperation[]): string {
  let out = '[';
  for (let i = 0; i < patch.length; i++) {
    const op = patch[i] as JsonPatchOperation;
    if (op.from !== undefined) return JSON.stringify(patch);
    out += `${i === 0 ? '' : ','}{"op":${quoteJson(op.op)},"path":${quoteJson(op.path)}`;
    out += op.value === undefined ? '}' : `,"value":${JSON.stringify(op.value)}}`;
  }
  return `${out}]`;
}

/** The patch as the AdmissionResponse carries it: base64 of its JSON. */
export function encodePatch(patch: readonly JsonPatchOperation[]): string {
  return Buffer.from(patchJson(patch)).toString('base64');
}

export function decodePatch(encoded: string): JsonPatchOperation[] {
  return JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as JsonPatchOperation[];
}

/** Applies a patch to a copy of `document` (strictly: a bad operation throws), as the apiserver would. */
export function applyPatch<T>(document: T, patch: readonly JsonPatchOperation[]): T {
  return jsonpatch.applyPatch(jsonpatch.deepClone(document) as T, patch as jsonpatch.Operation[], true, true, true)
    .newDocument;
}
