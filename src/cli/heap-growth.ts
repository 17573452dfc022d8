// The reconciler process's V8 old-generation growth: a process-wide setting, so the CLI makes it once at start
// (`cluster-probe reconcile`), never a library constructor (issue 40). Depends on node:v8 only.
import v8 from 'node:v8';

/**
 * V8's old generation grows to at most 1.25x what a full collection left (`--heap-growing-percent=25`). Left to
 * itself V8 picks up to 4x when its collections are fast, and a replica probing 1,000 Clusters a second is that
 * case. Measured with the compiled reconciler at 10,000 Clusters on the stand-in (docs/reconciler.md, "Memory at
 * 10,000"): since the prober's own HTTP/1 client (issue 39) a probe lives milliseconds, not 66-300 ms, so a tighter
 * bound no longer slows the probes it would then promote; see the figures there for 2x, 1.5x and 1.25x.
 */
export const HEAP_GROWING_PERCENT = 25;

/**
 * Sets the bound unless the operator gave node their own `--heap-growing-percent` (theirs wins). The flag is read at
 * every full collection, so it holds from the next one. Returns the flag set, or undefined when left to the operator.
 */
export function boundHeapGrowth(
  execArgv: readonly string[] = process.execArgv,
  setFlags: (flags: string) => void = v8.setFlagsFromString,
): string | undefined {
  if (execArgv.some((a) => a.startsWith('--heap-growing-percent'))) return undefined;
  const flag = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
  setFlags(flag);
  return flag;
}
