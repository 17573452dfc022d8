// An abort signal on an injected Clock, for the Kubernetes client's own timeouts (a leader election attempt): in the
// application, not in the schema package's ./api beside the Clock, because AbortSignal is a type of Node's or the
// DOM's that a consumer of that package need not have.
import type { Clock } from '@karmada-cluster-probe/schema/api';

/** An AbortSignal that aborts `ms` from now on `clock` (AbortSignal.timeout, on an injected clock). */
export function clockTimeout(clock: Clock, ms: number): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const handle = clock.setTimer(clock.now() + ms, () =>
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
  );
  return { signal: controller.signal, clear: () => clock.clearTimer(handle) };
}
