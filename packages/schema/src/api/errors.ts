// The two helpers every layer needs when it handles a value of unknown shape: the text of a caught error, and the
// test for a JSON object. One home, so the wording of "what went wrong" is the same in every layer. Pure.

/** The message of a caught value: `err.message` for an Error, its string form otherwise. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** True for a JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
