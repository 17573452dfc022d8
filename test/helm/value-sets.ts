// The value sets a user installs (README "Install on Karmada", docs/karmada.md), by name: rendered and linted by
// chart.test.ts, applied with a server-side dry run by dry-run.test.ts.
import { join } from 'node:path';
import { repo, type ValueArgs } from './helm.js';

export const CA_FILE = join(repo, 'test', 'helm', 'fixtures', 'ca.crt');
export const KUBECONFIG_FILE = join(repo, 'test', 'helm', 'fixtures', 'karmada.config');

/** The value sets a user installs (docs: README "Install on Karmada", docs/karmada.md), by name. */
export const VALUE_SETS: Record<string, ValueArgs> = {
  'karmada-apiserver': ['--set', 'target=karmada-apiserver'],
  host: ['--set', 'target=host'],
  'karmada-apiserver, ClusterTaintPolicy': [
    '--set',
    'target=karmada-apiserver',
    '--set',
    'clusterTaintPolicy.enabled=true',
    '--set',
    'reconciler.taintEffect=None',
  ],
  'host, condition-only': ['--set', 'target=host', '--set', 'reconciler.taintEffect=None'],
  'karmada-apiserver, webhook (admission-patched Karmada)': [
    '--set',
    'target=karmada-apiserver',
    '--set',
    'webhook.enabled=true',
    '--set-file',
    `webhook.caBundle=${CA_FILE}`,
  ],
  'host, webhook with cert-manager, kubeconfig Secret from a file': [
    '--set',
    'target=host',
    '--set',
    'webhook.enabled=true',
    '--api-versions',
    'cert-manager.io/v1',
    '--set-file',
    `karmadaKubeconfig.kubeconfig=${KUBECONFIG_FILE}`,
  ],
  'host, webhook with a cluster-probe certs Secret': [
    '--set',
    'target=host',
    '--set',
    'webhook.enabled=true',
    '--set',
    'webhook.certManager.enabled=false',
  ],
  'crd-served, webhook with a CA': [
    '--set',
    'target=crd-served',
    '--set',
    'webhook.enabled=true',
    '--set-file',
    `webhook.caBundle=${CA_FILE}`,
  ],
  'crd-served, webhook with cert-manager': [
    '--set',
    'target=crd-served',
    '--set',
    'webhook.enabled=true',
    '--api-versions',
    'cert-manager.io/v1',
  ],
};
