// The reconciler as a real child process of the local playground: `cluster-probe reconcile` against the control
// plane's kubeconfig, its /healthz, /readyz and /metrics on a loopback port, its log in the playground directory.
import { join } from 'node:path';
import { freePort, httpGet, waitFor } from './loopback.js';
import { ProcessGroup } from './process-group.js';
import type { CliInvocation } from './webhook-process.js';

export interface ReconcilerProcess {
  group: ProcessGroup;
  metricsUrl: string;
  logPath: string;
}

/** Starts `cluster-probe reconcile` and waits (bounded) until its /readyz answers 200. */
export async function startReconciler(
  cli: CliInvocation,
  dir: string,
  kubeconfigPath: string,
  onStart: (group: ProcessGroup) => void,
  timeoutMs = 30_000,
): Promise<ReconcilerProcess> {
  const port = await freePort();
  const logPath = join(dir, 'reconciler.log');
  const group = new ProcessGroup(
    'reconciler',
    cli.command,
    [
      ...cli.args,
      'reconcile',
      '--kubeconfig',
      kubeconfigPath,
      '--metrics-host',
      '127.0.0.1',
      '--metrics-port',
      String(port),
      // One reconciler probes everything in the playground, Pull clusters included (there is no agent).
      '--include-pull-clusters',
    ],
    logPath,
  );
  onStart(group);
  const metricsUrl = `http://127.0.0.1:${port}`;
  await waitFor(`the reconciler's /readyz on ${metricsUrl}`, Date.now() + timeoutMs, [group], async () => {
    const res = await httpGet(`${metricsUrl}/readyz`, 2_000);
    return res.status === 200;
  });
  return { group, metricsUrl, logPath };
}
