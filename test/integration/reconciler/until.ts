// Polls until `get` gives a value (sync or async), every 20 ms, for the reconciler's integration tests; the error names
// what was awaited. The deadline only catches a hang (docs/testing.md): what these tests wait for takes 1-3 s on a quiet
// machine (a period or two of probes), and a busy one may take several times that.
export const HANG_MS = 30_000;

export async function until<T>(
  what: string,
  get: () => T | undefined | Promise<T | undefined>,
  timeoutMs = HANG_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await get();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
