// Waits until the kube-apiserver really calls the webhook: a server-side dry-run of a Cluster that carries only the
// legacy annotation comes back migrated (only the mutating webhook does that). Registration alone proves nothing:
// the apiserver picks up new webhook configurations asynchronously.
import type { ControlPlane } from './controlplane.js';
import { isRecord } from '@karmada-cluster-probe/schema/api';

const PROBE_NAME = 'cluster-probe-admission-check';

const LEGACY_CLUSTER = JSON.stringify({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: {
    name: PROBE_NAME,
    annotations: { 'cluster.karmada.io/health-checker': '{"url":"https://health.example.com/healthz"}' },
  },
  spec: { syncMode: 'Push', apiEndpoint: 'https://member.example.com:6443' },
});

/** Resolves once a dry-run shows the mutating webhook's patch; throws with the last kubectl output at the deadline. */
export async function waitForWebhookAnswering(plane: Pick<ControlPlane, 'kubectl'>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const result = await plane.kubectl(['create', '--dry-run=server', '-o', 'json', '-f', '-'], {
      input: LEGACY_CLUSTER,
      timeoutMs: 15_000,
    });
    if (result.code === 0) {
      const object: unknown = JSON.parse(result.stdout);
      const spec = isRecord(object) && isRecord(object.spec) ? object.spec : {};
      if (isRecord(spec.livenessProbe)) return;
      last = 'the dry-run came back without spec.livenessProbe (webhook not called yet)';
    } else {
      last = result.stderr.trim();
    }
    if (Date.now() > deadline) {
      throw new Error(`the apiserver did not call the webhook within ${timeoutMs} ms; last answer: ${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
